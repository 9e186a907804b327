import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ClusterRefSchema } from '../../../domain/schemas/common.js';
import { nodeActionRequestSchema, NodeActionResultsSchema, StartDeepHealthCheckRequestSchema, type NodeActionResults } from '../../../domain/schemas/nodes.js';
import type { NodeAction } from '../../../domain/instance-groups.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { NODE_PATHS } from '../paths.js';

/**
 * `reboot_nodes`, `replace_nodes`, `delete_nodes` and `start_deep_health_check`: synchronous
 * HyperPod node actions with one result per node. The descriptions carry the escalation order.
 */

const ESCALATION = 'Escalation order: investigate (get_node, list_cluster_events) → reboot_nodes → replace_nodes.';

const TOOLS: Record<NodeAction, { title: string; description: string; destructive: boolean }> = {
  reboot: {
    title: 'Reboot nodes',
    description:
      `Reboot HyperPod nodes (BatchRebootClusterNodes): the instances and their volumes stay. The first remedy after investigating a failed or degraded node. ${ESCALATION} ` +
      'The answer has one result per node (accepted or refused with why); the reboot itself takes minutes: follow list_nodes until the nodes are healthy.',
    destructive: false,
  },
  replace: {
    title: 'Replace nodes',
    description:
      `Replace HyperPod nodes with new hardware (BatchReplaceClusterNodes). DESTRUCTIVE: the instance is terminated and data on its volumes is lost. ` +
      `Only after a reboot did not help. ${ESCALATION} Get the user's explicit yes for these nodes, then pass confirm: true. One result per node; follow list_nodes ` +
      'until the replacements are healthy (they get new instance ids).',
    destructive: true,
  },
  delete: {
    title: 'Delete nodes',
    description:
      'Delete HyperPod nodes (BatchDeleteClusterNodes): terminates the instances and shrinks their groups. DESTRUCTIVE, and not a way to heal a node — ' +
      `${ESCALATION} Use it only to give capacity back; get the user's explicit yes, then pass confirm: true. One result per node.`,
    destructive: true,
  },
};

export function registerNodeActionTools(server: McpServer, api: RestClient): void {
  for (const action of ['reboot', 'replace', 'delete'] as const) {
    const t = TOOLS[action];
    registerRestTool(server, api, {
      name: `${action}_nodes`,
      title: t.title,
      description: t.description,
      input: nodeActionRequestSchema(action).extend({ cluster: ClusterRefSchema }),
      output: NodeActionResultsSchema,
      annotations: { readOnlyHint: false, destructiveHint: t.destructive, idempotentHint: action !== 'reboot', openWorldHint: true },
      async run({ cluster, ...body }, { api, signal }) {
        const data = await api.post<NodeActionResults>(apiPath(NODE_PATHS[action], { name: cluster }), { body, signal });
        return { text: resultsText(data), data };
      },
    });
  }
}

export function registerStartDeepHealthCheckTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'start_deep_health_check',
    title: 'Run deep health checks',
    description:
      'Run deep health checks on nodes of one instance group (StartClusterHealthCheck): InstanceStress (GPU/Neuron stress, DCGM, EFA loopback) and ' +
      'InstanceConnectivity (NCCL across nodes). Part of investigating a node whose fault is unclear. The checked nodes take no new work until the ' +
      'checks end: follow list_nodes (transitional, then healthy or failed with deep-health-check-failed).',
    // `group`, as every tool names a group (docs/MCP.md → Names); the REST body calls it instanceGroupName.
    input: StartDeepHealthCheckRequestSchema.omit({ instanceGroupName: true }).extend({
      cluster: ClusterRefSchema,
      group: StartDeepHealthCheckRequestSchema.shape.instanceGroupName,
    }),
    restFields: { instanceGroupName: 'group' },
    output: NodeActionResultsSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run({ cluster, group, ...rest }, { api, signal }) {
      const body = { instanceGroupName: group, ...rest };
      const data = await api.post<NodeActionResults>(apiPath(NODE_PATHS.deepHealthCheck, { name: cluster }), { body, signal });
      return { text: resultsText(data), data };
    },
  });
}

function resultsText(r: NodeActionResults): string {
  const lines = r.results.map((x) => `- ${x.nodeId}: ${x.ok ? 'accepted' : `refused (${x.code ?? 'error'}: ${x.message ?? 'no message'})`}`);
  return [`${r.action}: ${r.succeeded} accepted, ${r.failed} refused.`, ...lines, r.next].join('\n');
}
