import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ActiveClusterSchema, SetActiveClusterRequestSchema } from '../../../domain/schemas/clusters.js';

const fields = SetActiveClusterRequestSchema.shape;
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { CLUSTER_PATHS } from '../paths.js';

/** `set_active_cluster` → PUT /api/v1/active-cluster. Synchronous: the answer is final (no operation). */
export function registerSetActiveClusterTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'set_active_cluster',
    title: 'Select the active cluster',
    description:
      'Select the active cluster the web UI opens (tools never default to it); immediate. create_cluster selects its new cluster itself: call this only when the user switches clusters.',
    input: z
      .object({
        cluster: fields.name.describe('Name of the cluster to select (from list_clusters).'),
        region: fields.region,
      })
      .strict(),
    restFields: { name: 'cluster' },
    output: ActiveClusterSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run({ cluster, region }, { api, signal }) {
      const active = await api.put<z.infer<typeof ActiveClusterSchema>>(CLUSTER_PATHS.active, {
        body: { name: cluster, region },
        signal,
      });
      return {
        text: `Active cluster is now ${active.name ?? '(none)'}${active.region ? ` (${active.region})` : ''}. This change is complete.`,
        data: active,
      };
    },
  });
}
