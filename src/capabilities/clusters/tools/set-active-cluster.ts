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
      'Select the active cluster: the one the web UI opens and the user is working with (tools do not default to it: every cluster-scoped tool takes cluster). ' +
      'It takes effect immediately (no operation to poll); the answer is the new selection. create_cluster selects its new cluster itself (one of its phases), ' +
      'so call this only when the user switches between existing clusters (names from list_clusters).',
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
