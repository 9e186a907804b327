import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ClusterRefSchema } from '../../../domain/schemas/common.js';
import { nodeActionRequestSchema, StartDeepHealthCheckRequestSchema } from '../../../domain/schemas/nodes.js';
import type { NodeAction } from '../../../domain/instance-groups.js';
import { OperationStartedSchema, POLL_UNTIL_DONE, startedAnswer } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { NODE_PATHS } from '../paths.js';

/**
 * `reboot_nodes`, `replace_nodes`, `delete_nodes` and `start_deep_health_check`: each starts an
 * operation that ends when every node reached a terminal state, with one result per node. The
 * descriptions carry the escalation order and say to poll wait_for_operation.
 */

const ESCALATION = 'investigate → reboot_nodes → replace_nodes';
const POLL = `${POLL_UNTIL_DONE} An id that is not a node fails for that node alone.`;

const TOOLS: Record<NodeAction, { title: string; description: string; destructive: boolean }> = {
  reboot: {
    title: 'Reboot nodes',
    description:
      `Reboot nodes (volumes stay), the first remedy (${ESCALATION}). It stops every pod on the nodes: get their ` +
      `yes first. ${POLL}`,
    destructive: true,
  },
  replace: {
    title: 'Replace nodes',
    description:
      "Replace nodes with new hardware. DESTRUCTIVE: their volumes' data is lost; only when a reboot did not help " +
      `(${ESCALATION}). Get an explicit yes, then pass confirm: true. ${POLL}`,
    destructive: true,
  },
  delete: {
    title: 'Delete nodes',
    description:
      'Delete nodes, shrinking their groups. DESTRUCTIVE and no way to heal a node ' +
      `(${ESCALATION}): only to give capacity back, after an explicit yes, with confirm: true. ${POLL}`,
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
      'Deep health checks (GPU, EFA, NCCL) on nodes whose fault is unclear. They are taken out of service until the ' +
      `checks end (pods are evicted): get their yes first. ${POLL}`,
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
