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
  kubernetesVersion?: string;
  hyperpodClusterArn?: string;
  /** A failed HyperPod cluster is being deleted so that it can be made again. */
  hyperpodReplacing?: boolean;
  /** Newest cluster event when the nodes were requested (capacity trouble after it is ours). */
  capacityEventMark?: number;
  /** Base add-ons seen ACTIVE or DEGRADED during the current wait, with that status: not asked again. */
  baseAddonsSettled?: Record<string, string>;
  /** Dependency items seen ready during the current wait (their ids): not asked again. */
  dependenciesReady?: string[];
  /** Add-ons whose failed install is being deleted, to be installed again once gone. */
  dependenciesRemoving?: string[];
  bucket?: string;
  fileSystemId?: string;
}
