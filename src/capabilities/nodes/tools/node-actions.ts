import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ClusterRefSchema } from '../../../domain/schemas/common.js';
import { nodeActionRequestSchema, StartDeepHealthCheckRequestSchema } from '../../../domain/schemas/nodes.js';
import type { NodeAction } from '../../../domain/instance-groups.js';
import { OperationStartedSchema, startedAnswer } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { NODE_PATHS } from '../paths.js';

/**
 * `reboot_nodes`, `replace_nodes`, `delete_nodes` and `start_deep_health_check`: each starts an
 * operation that ends when every node reached a terminal state, with one result per node. The
 * descriptions carry the escalation order and say to poll wait_for_operation.
 */

const ESCALATION = 'Escalation order: investigate (get_node, list_cluster_events) → reboot_nodes → replace_nodes.';
const POLL =
  'The answer is an operation that is NOT done: call wait_for_operation with its operationId until it reports "succeeded"; its result.results has one ' +
  'outcome per node, and a nodeIds entry that is not a node id fails for that node alone.';

const TOOLS: Record<NodeAction, { title: string; description: string; destructive: boolean }> = {
  reboot: {
    title: 'Reboot nodes',
    description:
      `Reboot HyperPod nodes (BatchRebootClusterNodes); instances and volumes stay. The first remedy after investigating a failed or degraded node. ${ESCALATION} ` +
      'It stops every pod on the nodes (a training job there restarts or fails): tell the user which nodes and jobs, and get their yes first (no confirm field). ' +
      POLL,
    destructive: true,
  },
  replace: {
    title: 'Replace nodes',
    description:
      'Replace HyperPod nodes with new hardware (BatchReplaceClusterNodes). DESTRUCTIVE: the instance is terminated and data on its volumes is lost; only after a ' +
      `reboot did not help. ${ESCALATION} Get the user's explicit yes for these nodes, then pass confirm: true. ${POLL}`,
    destructive: true,
  },
  delete: {
    title: 'Delete nodes',
    description:
      'Delete HyperPod nodes (BatchDeleteClusterNodes): terminates the instances and shrinks their groups. DESTRUCTIVE, and not a way to heal a node — ' +
      `${ESCALATION} Use it only to give capacity back; get the user's explicit yes, then pass confirm: true. ${POLL}`,
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
      output: OperationStartedSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: t.destructive,
        idempotentHint: action !== 'reboot',
        openWorldHint: true,
      },
      async run({ cluster, ...body }, { api, signal }) {
        return startedAnswer(
          await api.post(apiPath(NODE_PATHS[action], { name: cluster }), { body, signal }),
          `${action}_nodes`,
        );
      },
    });
  }
}

export function registerStartDeepHealthCheckTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'start_deep_health_check',
    title: 'Run deep health checks',
    description:
      'Run deep health checks (StartClusterHealthCheck: InstanceStress — GPU/Neuron stress, DCGM, EFA loopback; InstanceConnectivity — NCCL across nodes) on ' +
      'nodes of one group, to investigate a node whose fault is unclear. The checked nodes are taken out of service until the checks end (their pods are evicted, ' +
      `a training job on them restarts or fails): tell the user and get their yes first. ${POLL}`,
    // `group`, as every tool names a group (docs/MCP.md → Names); the REST body calls it instanceGroupName.
    input: StartDeepHealthCheckRequestSchema.omit({ instanceGroupName: true }).extend({
      cluster: ClusterRefSchema,
      group: StartDeepHealthCheckRequestSchema.shape.instanceGroupName,
    }),
    restFields: { instanceGroupName: 'group' },
    output: OperationStartedSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    async run({ cluster, group, ...rest }, { api, signal }) {
      const body = { instanceGroupName: group, ...rest };
      return startedAnswer(
        await api.post(apiPath(NODE_PATHS.deepHealthCheck, { name: cluster }), { body, signal }),
        'start_deep_health_check',
      );
    },
  });
}
