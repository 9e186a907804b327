import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createEksToken, environmentKeys, execCredential } from '../src/cloud/aws/eks-token.js';
import { UsageError } from '../sandbox/usage-error.js';

/**
 * `instantstart kubeconfig CLUSTER` and `instantstart token --cluster CLUSTER`: the product's own
 * EKS access code (src/cloud), so they work against real EKS exactly as against the sandbox —
 * wherever the standard AWS settings (AWS_ENDPOINT_URL, credentials, region) point.
 */

export const KUBECONFIG_USAGE = `usage: instantstart kubeconfig CLUSTER [--region REGION]

Prints a kubeconfig for the EKS cluster: its endpoint and certificate authority from
DescribeCluster, and a user that runs 'instantstart token' for a fresh EKS token. The token
plugin gets the AWS endpoint, profile and config files this command ran with (and the sandbox's
throwaway keys), so kubectl works from a fresh shell; real AWS keys are never written: the command
says what to export instead.
  instantstart kubeconfig my-cluster > kubeconfig && KUBECONFIG=kubeconfig kubectl get nodes`;

export const TOKEN_USAGE = `usage: instantstart token --cluster CLUSTER [--region REGION]

Prints an ExecCredential with an EKS bearer token (like 'aws eks get-token'), for kubeconfig exec plugins.`;

function regionOf(value: string | undefined): string {
  const region = value ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  if (!region)
    throw new UsageError(
      'no region: pass --region or set AWS_REGION (for the sandbox, first run the export lines `instantstart serve` printed: they set the endpoint, the throwaway keys and the Region)',
    );
  return region;
}

export async function runTokenCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { cluster: { type: 'string' }, region: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) return void process.stdout.write(`${TOKEN_USAGE}\n`);
  if (!values.cluster) throw new UsageError('--cluster is required');
  const token = await createEksToken({
    clusterName: values.cluster,
    region: regionOf(values.region),
    credentials: environmentKeys(process.env),
  });
  process.stdout.write(`${JSON.stringify(execCredential(token))}\n`);
}

export async function runKubeconfigCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { region: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return void process.stdout.write(`${KUBECONFIG_USAGE}\n`);
  const [cluster, ...extra] = positionals;
  if (!cluster || extra.length > 0) throw new UsageError('give exactly one cluster name');
  const region = regionOf(values.region);
  // Loaded here, not at the top: `token` (run before every kubectl call) needs no EKS client.
  const { describeClusterAccess } = await import('../src/cloud/aws/eks-cluster-access.js');
  const { buildKubeconfig } = await import('../src/cloud/k8s/kubeconfig.js');
  const { execCredentialSettings } = await import('./kubeconfig-credentials.js');
  const access = await describeClusterAccess(cluster, region);
  const launcher = fileURLToPath(new URL('../../bin/instantstart.mjs', import.meta.url));
  const credentials = execCredentialSettings(process.env);
  process.stdout.write(
    buildKubeconfig({
      clusterArn: access.arn,
      endpoint: access.endpoint,
      certificateAuthorityData: access.certificateAuthorityData,
      exec: {
        command: process.execPath,
        args: [launcher, 'token', '--cluster', cluster, '--region', region],
        ...(Object.keys(credentials.env).length ? { env: credentials.env } : {}),
      },
    }),
  );
  if (credentials.advice) process.stderr.write(`instantstart: ${credentials.advice}\n`);
}
