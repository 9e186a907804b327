import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DeletePlanSchema } from '../../../domain/schemas/clusters.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { deletePlanText } from './delete-plan-text.js';
import { OperationStartedSchema, startedAnswer, POLL_UNTIL_DONE } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { CLUSTER_PATHS } from '../paths.js';

const InputSchema = z
  .object({
    cluster: ClusterRefSchema.describe('Name of the HyperPod cluster to delete (from list_clusters).'),
    region: RegionSchema.optional(),
    confirm: z
      .literal(true, 'must be true: set it only after the user explicitly confirmed deleting this cluster by name')
      .describe(
        'Must be true. Set it only after the user explicitly confirmed, by name, that this cluster and everything ' +
          'in it may be deleted.',
      ),
    keepStorage: z
      .boolean()
      .default(false)
      .describe(
        "true keeps the buckets and file systems holding the cluster's data. False (default) deletes them too; storages removed keeping their data stay either way. Ask the user if data matters.",
      ),
  })
  .strict();

/** `delete_cluster` → DELETE /api/v1/clusters/{name}?confirm=true (202 + operation). */
export function registerDeleteClusterTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'delete_cluster',
    title: 'Delete a HyperPod cluster',
    description: `Delete a cluster and all InstantStart made for it (storage unless keepStorage). DESTRUCTIVE: show get_cluster_delete_plan, get an explicit yes, pass confirm: true. ${POLL_UNTIL_DONE}`,
    input: InputSchema,
    output: OperationStartedSchema.extend({
      plan: DeletePlanSchema.optional().describe('What the delete removes and keeps, by name.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    async run({ cluster, region, keepStorage }, { api, signal }) {
      const accepted = await api.delete(apiPath(CLUSTER_PATHS.one, { name: cluster }), {
        query: { confirm: 'true', keepStorage: String(keepStorage), region },
        signal,
      });
      const answer = startedAnswer(accepted, `delete_cluster ${cluster}`);
      const parsed = DeletePlanSchema.safeParse((accepted as { plan?: unknown }).plan);
      if (!parsed.success) return answer;
      const plan = parsed.data;
      return {
        text: `${answer.text}\n${deletePlanText(plan)}`,
        data: { ...(answer.data as Record<string, unknown>), plan },
      };
    },
  });
}
