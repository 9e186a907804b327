import type { CreateClusterRequest } from '../../../../domain/schemas/clusters.js';

/** The stored input: the request with its Region resolved. */
export type CreateClusterInput = CreateClusterRequest & { region: string };

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
  /** Newest cluster event when the nodes were requested (capacity trouble after it is ours). */
  capacityEventMark?: number;
  bucket?: string;
  fileSystemId?: string;
}
