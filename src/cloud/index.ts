import { AwsClients } from './aws/clients.js';
import { EksAdapter } from './aws/eks.js';
import { HyperPodAdapter } from './aws/hyperpod.js';
import { type CallerIdentity, callerAccount, callerOf } from './aws/identity.js';
import { HyperPodGroupsAdapter } from './aws/hyperpod-groups.js';
import { HyperPodNodesAdapter } from './aws/hyperpod-nodes.js';
import { IamOidcProviders } from './aws/iam-oidc-providers.js';
import { IamRoles } from './aws/iam-roles.js';
import { MlflowAdapter } from './aws/mlflow.js';
import { NetworkAdapter } from './aws/network.js';
import { NetworkTeardown } from './aws/network-teardown.js';
import { PricingAdapter } from './aws/pricing.js';
import { StorageAdapter } from './aws/storage.js';
import { TaggedResources } from './aws/tagged-resources.js';
import { KubeClients } from './k8s/client-cache.js';
import type { CloudPort, KubePort } from './ports.js';

/**
 * Everything the workflows use to reach the cloud, built once per server. Workflows depend on this
 * bundle, never on SDK clients directly, so a test can hand them the same bundle pointed at the sandbox.
 */
export class Cloud implements CloudPort {
  readonly network: NetworkAdapter;
  readonly teardown: NetworkTeardown;
  readonly iam: IamRoles;
  readonly oidcProviders: IamOidcProviders;
  readonly eks: EksAdapter;
  readonly hyperpod: HyperPodAdapter;
  readonly storage: StorageAdapter;
  readonly hyperpodGroups: HyperPodGroupsAdapter;
  readonly hyperpodNodes: HyperPodNodesAdapter;
  readonly mlflow: MlflowAdapter;
  readonly tagged: TaggedResources;
  readonly pricing: PricingAdapter;
  private account?: Promise<string>;
  private readonly kubeClients: KubeClients;

  constructor(readonly clients: AwsClients) {
    this.network = new NetworkAdapter(clients);
    this.teardown = new NetworkTeardown(clients, this.network);
    this.iam = new IamRoles(clients);
    this.oidcProviders = new IamOidcProviders(clients);
    this.eks = new EksAdapter(clients, (region, name) => this.kubeClients.forget(region, name));
    this.hyperpod = new HyperPodAdapter(clients);
    this.storage = new StorageAdapter(clients);
    this.hyperpodGroups = new HyperPodGroupsAdapter(clients);
    this.hyperpodNodes = new HyperPodNodesAdapter(clients);
    this.mlflow = new MlflowAdapter(clients);
    this.tagged = new TaggedResources(clients);
    this.pricing = new PricingAdapter(clients);
    this.kubeClients = new KubeClients((region, name) => this.eks.describeCluster(region, name), {
      requestMs: clients.timeouts.requestMs,
      observer: clients.observer,
    });
  }

  get defaultRegion(): string {
    return this.clients.defaultRegion;
  }

  /** The caller's AWS account (STS GetCallerIdentity, asked once). */
  accountId(): Promise<string> {
    this.account ??= callerAccount(this.clients);
    this.account.catch(() => (this.account = undefined));
    return this.account;
  }

  /** Who the credentials are now (STS GetCallerIdentity, asked every time: `instantstart doctor`). */
  caller(): Promise<CallerIdentity> {
    return callerOf(this.clients);
  }

  /** The cluster's cached Kubernetes client (one DescribeCluster per cluster, not per use). */
  kube(region: string, eksClusterName: string): Promise<KubePort> {
    return this.kubeClients.get(region, eksClusterName);
  }

  forgetKube(region: string, eksClusterName: string): void {
    this.kubeClients.forget(region, eksClusterName);
  }
}

export { AwsClients };
export { DEFAULT_CLOUD_TIMEOUTS, type CloudTimeouts } from './timeouts.js';
export { checkCallerIdentity, type CallerIdentity } from './aws/identity.js';
export { tell } from './observer.js';
export type {
  CloudObserver,
  ObservedAwsRequest,
  ObservedAwsResponse,
  ObservedKubeApply,
  ObservedKubeWrite,
} from './observer.js';
