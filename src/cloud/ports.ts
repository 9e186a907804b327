import type { NetworkTeardownPort } from './ports/ec2-network-teardown.js';
import type { NetworkPort } from './ports/ec2-network.js';
import type { EksPort } from './ports/eks.js';
import type { FsxPort } from './ports/fsx.js';
import type { HyperPodGroupsPort } from './ports/hyperpod-groups.js';
import type { HyperPodNodesPort } from './ports/hyperpod-nodes.js';
import type { HyperPodPort } from './ports/hyperpod.js';
import type { IamOidcProvidersPort } from './ports/iam-oidc-providers.js';
import type { IamPort } from './ports/iam.js';
import type { KubePort } from './ports/kubernetes.js';
import type { MlflowPort } from './ports/mlflow.js';
import type { PricingPort } from './ports/pricing.js';
import type { S3Port } from './ports/s3.js';
import type { TaggedResourcesPort } from './ports/tagged-resources.js';

/**
 * The ports: what workflows and read models need from the cloud, as interfaces, one file per port in
 * ports/ (named for what it reaches). The adapters in aws/ (AWS SDK v3) and k8s/ (client-node)
 * implement them; a test can hand a workflow its own. Ports answer in the project's own types — no
 * AWS SDK type crosses them: where AWS defines a shape the product reads or restates (a HyperPod
 * instance group, an EKS cluster), the port's type keeps AWS's member names for the members read, so
 * the adapters return the SDK's answer typed as ours and the product reads it as before.
 * This file is the one list: importers take every port and type from here.
 */

export type * from './ports/ec2-network-teardown.js';
export type * from './ports/ec2-network.js';
export type * from './ports/eks.js';
export type * from './ports/fsx.js';
export type * from './ports/hyperpod-groups.js';
export type * from './ports/hyperpod-nodes.js';
export type * from './ports/hyperpod.js';
export type * from './ports/iam-oidc-providers.js';
export type * from './ports/iam.js';
export type * from './ports/kubernetes.js';
export type * from './ports/log.js';
export type * from './ports/mlflow.js';
export type * from './ports/pricing.js';
export type * from './ports/s3.js';
export type * from './ports/tagged-resources.js';

/** A cluster's data stores, S3 and FSx, as one port (`cloud.storage`). */
export interface StoragePort extends S3Port, FsxPort {}

// ── everything together ──────────────────────────────────────────────────────────────────────────
export interface CloudPort {
  readonly defaultRegion: string;
  readonly network: NetworkPort;
  readonly teardown: NetworkTeardownPort;
  readonly iam: IamPort;
  readonly oidcProviders: IamOidcProvidersPort;
  readonly eks: EksPort;
  readonly hyperpod: HyperPodPort;
  readonly storage: StoragePort;
  readonly hyperpodGroups: HyperPodGroupsPort;
  readonly hyperpodNodes: HyperPodNodesPort;
  readonly mlflow: MlflowPort;
  readonly tagged: TaggedResourcesPort;
  readonly pricing: PricingPort;
  accountId(): Promise<string>;
  /** Who the credentials are now: account and ARN (STS GetCallerIdentity, not cached). */
  caller(): Promise<{ accountId: string; arn: string }>;
  /**
   * The Kubernetes API of an EKS cluster, one cached client per cluster (DescribeCluster once);
   * KubeApiUnavailable while the cluster has no endpoint.
   */
  kube(region: string, eksClusterName: string): Promise<KubePort>;
  /** Drops the cached client of a cluster being deleted (its endpoint is about to go). */
  forgetKube(region: string, eksClusterName: string): void;
}
