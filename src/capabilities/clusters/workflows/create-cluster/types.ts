import type { FeatureFacts } from '../../../../workflows/feature-reconciliation/feature-facts.js';
import type { ReconcileState } from '../../../../workflows/feature-reconciliation/reconcile.js';

/** The stored input: the request with its Region resolved (its schema is in src/domain/schemas/clusters.ts). */
export type { CreateClusterInput } from '../../../../domain/schemas/clusters.js';

/** Ids found or made by the phases (the operation's scratch state). */
export interface CreateClusterState {
  accountId?: string;
  zones?: string[];
  vpcId?: string;
  subnets?: { public: string[]; private: string[]; compute: string };
  securityGroupId?: string;
  natGatewayId?: string;
  eksClusterRoleArn?: string;
  executionRoleArn?: string;
  eksClusterArn?: string;
  /** The EKS cluster's Kubernetes version: chosen (journaled) before CreateCluster, then as EKS reports it. */
  kubernetesVersion?: string;
  hyperpodClusterArn?: string;
  /** A failed HyperPod cluster is being deleted so that it can be made again. */
  hyperpodReplacing?: boolean;
  /** Newest cluster event when the nodes were requested (capacity trouble after it is ours). */
  capacityEventMark?: number;
  /** Base add-ons seen ACTIVE or DEGRADED during the current wait, with that status: not asked again. */
  baseAddonsSettled?: Record<string, string>;
  /** The default features' progress and resolved add-on versions (the features reconciler's state). */
  featureProgress?: ReconcileState['featureProgress'];
  addonVersions?: ReconcileState['addonVersions'];
  /** The cluster's facts the default features are installed with (read once). */
  featureFacts?: FeatureFacts;
  bucket?: string;
  fileSystemId?: string;
}
