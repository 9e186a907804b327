import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { NodeDetailSchema, NodeIdSchema, type NodeDetail } from '../../../domain/schemas/nodes.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { NODE_PATHS } from '../paths.js';

/** `get_node` → GET /api/v1/clusters/{cluster}/nodes/{nodeId}. */
export function registerGetNodeTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_node',
    title: 'Investigate a node',
    description:
      'One node: health and why, SageMaker status, labels, conditions, pods, recent events. The investigate step: before reboot_nodes, and reboot before replace_nodes.',
    input: z.object({ cluster: ClusterRefSchema, nodeId: NodeIdSchema, region: RegionSchema.optional() }).strict(),
    output: NodeDetailSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, nodeId, region }, { api, signal }) {
      const data = await api.get<NodeDetail>(apiPath(NODE_PATHS.one, { name: cluster, nodeId }), {
        query: { region },
        signal,
      });
      const n = data.node;
      const text = [
        `${n.instanceId} (${n.instanceGroupName}, ${n.instanceType}): ${n.health.state} — ${n.health.reason}`,
        `Suggested next step: ${n.health.suggestedAction}. SageMaker status: ${n.instanceStatus.status}${n.instanceStatus.message ? ` (${n.instanceStatus.message})` : ''}.`,
        `Pods on it: ${data.pods.length}. Conditions: ${data.conditions.map((c) => `${c.type}=${c.status}`).join(', ') || 'none (not in Kubernetes)'}.`,
        ...data.events.slice(0, 10).map((e) => `- ${e.time} [${e.source} ${e.level}] ${e.kind}: ${e.message}`),
      ].join('\n');
      return { text, data };
    },
  });
}
