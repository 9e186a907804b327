import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DeletePlanSchema, type DeletePlan } from '../../../domain/schemas/clusters.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { CLUSTER_PATHS } from '../paths.js';
import { deletePlanText } from './delete-plan-text.js';

/** `get_cluster_delete_plan` → GET /api/v1/clusters/{name}/delete-plan. */
export function registerGetClusterDeletePlanTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_cluster_delete_plan',
    title: 'What deleting a cluster removes and keeps',
    description:
      'Changes nothing: what delete_cluster would remove (load balancers, HyperPod, EKS, MLflow servers, buckets, file systems, roles, network) and keep, with why. Show it before delete_cluster.',
    input: z
      .object({
        cluster: ClusterRefSchema.describe('Name of the cluster (from list_clusters).'),
        region: RegionSchema.optional(),
        keepStorage: z.boolean().default(false).describe("As delete_cluster's keepStorage."),
      })
      .strict(),
    output: DeletePlanSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, region, keepStorage }, { api, signal }) {
      const plan = await api.get<DeletePlan>(apiPath(CLUSTER_PATHS.deletePlan, { name: cluster }), {
        query: { region, keepStorage: String(keepStorage) },
        signal,
      });
      return {
        text: `Deleting ${plan.cluster} (${plan.region})${plan.keepStorage ? ' keeping its storage' : ''}:\n${deletePlanText(plan)}`,
        data: plan,
      };
    },
  });
}
