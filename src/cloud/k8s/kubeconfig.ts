import { stringify } from 'yaml';

/**
 * A kubeconfig for one EKS cluster whose user runs an exec credential plugin (the EKS token), the
 * same shape `aws eks update-kubeconfig` writes, so kubectl refreshes tokens by itself.
 */
export interface KubeconfigInput {
  clusterArn: string;
  endpoint: string;
  /** `certificateAuthority.data` from DescribeCluster (base64 PEM). */
  certificateAuthorityData: string;
  exec: { command: string; args: string[]; env?: Record<string, string> };
}

export function buildKubeconfig(input: KubeconfigInput): string {
  const name = input.clusterArn;
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name, cluster: { server: input.endpoint, 'certificate-authority-data': input.certificateAuthorityData } },
    ],
    contexts: [{ name, context: { cluster: name, user: name } }],
    'current-context': name,
    preferences: {},
    users: [
      {
        name,
        user: {
          exec: {
            apiVersion: 'client.authentication.k8s.io/v1beta1',
            command: input.exec.command,
            args: input.exec.args,
            ...(input.exec.env ? { env: Object.entries(input.exec.env).map(([k, v]) => ({ name: k, value: v })) } : {}),
            interactiveMode: 'Never',
            provideClusterInfo: false,
          },
        },
      },
    ],
  };
  return stringify(config);
}
