import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ActiveClusterSchema } from '../../../domain/schemas/clusters.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { CLUSTER_PATHS } from '../paths.js';

/** `get_active_cluster` → GET /api/v1/active-cluster (a server setting; no cloud call). */
export function registerGetActiveClusterTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_active_cluster',
    title: 'Get the active cluster',
    description:
      'The active cluster: selected last (web UI, set_active_cluster) or created last; null when none. Pass its name as cluster: tools never default to the active cluster.',
    input: z.object({}).strict(),
    output: ActiveClusterSchema,
    annotations: { ...READ_ONLY, openWorldHint: false },
    async run(_args, { api, signal }) {
      const active = await api.get<z.infer<typeof ActiveClusterSchema>>(CLUSTER_PATHS.active, { signal });
      return {
        text: active.name
          ? `Active cluster: ${active.name} (${active.region ?? 'default region'}).`
          : 'No active cluster is selected.',
        data: active,
      };
    },
  });
}
