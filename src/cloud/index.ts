import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { AwsClients } from './aws/clients.js';
import { EksAdapter } from './aws/eks.js';
import { awsCall } from './aws/errors.js';
import { HyperPodAdapter } from './aws/hyperpod.js';
import { HyperPodGroupsAdapter } from './aws/hyperpod-groups.js';
import { HyperPodNodesAdapter } from './aws/hyperpod-nodes.js';
import { IamRoles } from './aws/iam-roles.js';
import { NetworkAdapter } from './aws/network.js';
import { NetworkTeardown } from './aws/network-teardown.js';
import { StorageAdapter } from './aws/storage.js';
import { KubeClusterClient } from './k8s/cluster-client.js';
import type { CloudPort } from './ports.js';

/**
 * Everything the workflows use to reach the cloud, built once per server. Workflows depend on this
 * bundle, never on SDK clients directly, so a test can hand them the same bundle pointed at the sandbox.
 */
export class Cloud implements CloudPort {
  readonly network: NetworkAdapter;
  readonly teardown: NetworkTeardown;
  readonly iam: IamRoles;
  readonly eks: EksAdapter;
  readonly hyperpod: HyperPodAdapter;
  readonly storage: StorageAdapter;
  readonly hyperpodGroups: HyperPodGroupsAdapter;
  readonly hyperpodNodes: HyperPodNodesAdapter;
  private account?: Promise<string>;

  constructor(readonly clients: AwsClients) {
    this.network = new NetworkAdapter(clients);
    this.teardown = new NetworkTeardown(clients, this.network);
    this.iam = new IamRoles(clients);
    this.eks = new EksAdapter(clients);
    this.hyperpod = new HyperPodAdapter(clients);
    this.storage = new StorageAdapter(clients);
    this.hyperpodGroups = new HyperPodGroupsAdapter(clients);
    this.hyperpodNodes = new HyperPodNodesAdapter(clients);
  }

  get defaultRegion(): string {
    return this.clients.defaultRegion;
  }

  /** The caller's AWS account (STS GetCallerIdentity, asked once). */
  accountId(): Promise<string> {
    this.account ??= awsCall('sts', 'GetCallerIdentity', () => this.clients.sts().send(new GetCallerIdentityCommand({}))).then((r) => r.Account!);
    this.account.catch(() => (this.account = undefined));
    return this.account;
  }

  /** A Kubernetes client for an ACTIVE EKS cluster. */
  async kube(region: string, eksClusterName: string): Promise<KubeClusterClient> {
    const c = await this.eks.describeCluster(region, eksClusterName);
    if (!c?.endpoint || !c.certificateAuthority?.data) {
      throw new Error(`EKS cluster ${eksClusterName} has no API endpoint yet (status ${c?.status ?? 'missing'}).`);
    }
    return new KubeClusterClient(
      { clusterName: eksClusterName, region, endpoint: c.endpoint, certificateAuthorityData: c.certificateAuthority.data },
      { requestMs: this.clients.timeouts.requestMs },
    );
  }
}

export { AwsClients };
export { DEFAULT_CLOUD_TIMEOUTS, type CloudTimeouts } from './timeouts.js';
export { checkCallerIdentity, type CallerIdentity } from './aws/identity.js';
