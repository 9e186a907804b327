import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ClusterRefSchema } from '../../../domain/schemas/common.js';
import { ListNodesQuerySchema, NodeListSchema, type NodeList } from '../../../domain/schemas/nodes.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { NODE_PATHS } from '../paths.js';

/** `list_nodes` → GET /api/v1/clusters/{cluster}/nodes (server-side filters and pages). */
export function registerListNodesTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_nodes',
    title: 'List nodes and their health',
    description:
      "A cluster's nodes with health (healthy, degraded, failed, transitional), reason and next step, and groups short of target. Heal in order: investigate (get_node, diagnose_node) → reboot_nodes → replace_nodes.",
    input: ListNodesQuerySchema.omit({ limit: true, nextToken: true })
      .extend({
        cluster: ClusterRefSchema,
        limit: z.number().int().min(1).max(500).optional().describe('Page size (1–500, default 50).'),
        nextToken: z.string().max(2048).optional().describe('nextToken of the previous answer, for the next page.'),
      })
      .strict(),
    output: NodeListSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, ...query }, { api, signal }) {
      const data = await api.get<NodeList>(apiPath(NODE_PATHS.list, { name: cluster }), {
        query: query as Record<string, string | number | undefined>,
        signal,
      });
      const c = data.counts;
      const head = `${data.total} node(s) match in ${cluster} (healthy ${c.healthy}, degraded ${c.degraded}, failed ${c.failed}, transitional ${c.transitional}).`;
      const lines = data.nodes.map(
        (n) =>
          `- ${n.instanceId} (${n.instanceGroupName}, ${n.instanceType}${n.availabilityZone ? `, ${n.availabilityZone}` : ''}): ${n.health.state} — ${n.health.reason}${n.health.suggestedAction !== 'none' ? ` Next: ${n.health.suggestedAction}.` : ''}`,
      );
      const short = data.shortfalls.map(
        (s) =>
          `! group ${s.instanceGroupName} has ${s.launched} of ${s.targetCount} ${s.instanceType} instance(s): ${s.missing} not launched (${s.state})` +
          `${s.reason ? ` — ${s.reason}` : ''}${s.unlaunched.length ? ` [slots ${s.unlaunched.map((u) => u.nodeLogicalId).join(', ')}]` : ''}`,
      );
      return {
        text: [
          head,
          ...short,
          ...lines,
          ...(data.nextToken ? [`More: call list_nodes again with nextToken "${data.nextToken}".`] : []),
        ].join('\n'),
        data,
      };
    },
  });
}
