import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ClusterRefSchema } from '../../../domain/schemas/common.js';
import { ClusterEventsSchema, ListClusterEventsQuerySchema } from '../../../domain/schemas/nodes.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { NODE_PATHS } from '../paths.js';

/** `list_cluster_events` → GET /api/v1/clusters/{cluster}/events. */
export function registerListClusterEventsTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_cluster_events',
    title: 'List cluster events',
    description:
      "A cluster's events, newest first: HyperPod's (launches, capacity shortfalls, reboots, replacements, health checks, scaling) with Kubernetes events about its nodes.",
    input: ListClusterEventsQuerySchema.omit({ limit: true })
      .extend({
        cluster: ClusterRefSchema,
        limit: z.number().int().min(1).max(200).optional().describe('Most events to return (1–200, default 50).'),
      })
      .strict(),
    output: ClusterEventsSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, ...query }, { api, signal }) {
      const data = await api.get<z.infer<typeof ClusterEventsSchema>>(apiPath(NODE_PATHS.events, { name: cluster }), {
        query: query as Record<string, string | number | undefined>,
        signal,
      });
      const lines = data.events.map(
        (e) =>
          `- ${e.time} [${e.source} ${e.level}] ${e.kind}${e.instanceGroupName ? ` ${e.instanceGroupName}` : ''}${e.instanceId ? ` ${e.instanceId}` : ''}: ${e.message}`,
      );
      return {
        text: [
          `${data.events.length} event(s) of ${cluster}, newest first:`,
          ...lines,
          ...data.notes.map((n) => `Note: ${n}`),
        ].join('\n'),
        data,
      };
    },
  });
}
