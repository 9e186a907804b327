import { z } from 'zod';
import { checkCapacityAndPlacement, CreateClusterRequestSchema, type CreateClusterRequest } from './clusters.js';
import { ClusterNameSchema } from './common.js';

/**
 * create_cluster's and check_cluster_request's arguments: the REST create request with the new
 * cluster's name called `cluster`, as every other tool calls a cluster (docs/MCP.md → Names). The
 * fields and rules are the REST request's own; only the name's key differs.
 */
const { name: _name, ...fields } = CreateClusterRequestSchema.shape;

export const CreateClusterToolInputSchema = z
  .object({
    cluster: ClusterNameSchema.describe(`Name of the new cluster. ${ClusterNameSchema.description}`),
    ...fields,
  })
  .strict()
  .superRefine(checkCapacityAndPlacement)
  .describe(CreateClusterRequestSchema.description!);
export type CreateClusterToolInput = z.output<typeof CreateClusterToolInputSchema>;

/** The REST body for these arguments. */
export function createClusterRequest({ cluster, ...rest }: CreateClusterToolInput): CreateClusterRequest {
  return { name: cluster, ...rest };
}

/** The REST request's field names as the tools call them (RestToolSpec.restFields). */
export const CREATE_CLUSTER_REST_FIELDS = { name: 'cluster' } as const;
