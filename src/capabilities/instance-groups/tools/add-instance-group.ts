import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ClusterRefSchema } from '../../../domain/schemas/common.js';
import { AddInstanceGroupRequestSchema, checkNewGroup } from '../../../domain/schemas/instance-groups.js';
import { OperationStartedSchema, startedAnswer } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { GROUP_PATHS } from '../paths.js';

/** The REST request with the new group's name called `group`, as every tool calls a group (docs/MCP.md → Names). */
const { name: groupName, ...fields } = AddInstanceGroupRequestSchema.shape;
const InputSchema = z
  .object({
    cluster: ClusterRefSchema.describe('The cluster to add the group to (from list_clusters).'),
    group: groupName.describe(`Name of the new instance group. ${groupName.description}`),
    ...fields,
  })
  .strict()
  .superRefine(checkNewGroup);

/** `add_instance_group` → POST /api/v1/clusters/{cluster}/instance-groups (202 + operation). */
export function registerAddInstanceGroupTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'add_instance_group',
    title: 'Add an instance group',
    description:
      'Add GPU/CPU capacity to a HyperPod cluster as a new instance group in the /20 compute subnet of its zone ' +
      '(reused or created by the control plane). Instance type, zone, capacity type (on-demand, spot, training ' +
      'plan) and EFA mode are fixed once created.\nCheck before create: list_instance_groups (the name must be ' +
      'free), list_availability_zones, list_instance_types for the zone, list_training_plans for a plan, ' +
      'check_quotas. Ask the user only for zone, instance type, capacity type and count.\nThe answer is an ' +
      'operation that is NOT done: call wait_for_operation with its operationId until status is "succeeded" or ' +
      '"failed".',
    input: InputSchema,
    restFields: { name: 'group' },
    output: OperationStartedSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run({ cluster, group, ...settings }, { api, signal }) {
      const accepted = await api.post(apiPath(GROUP_PATHS.list, { name: cluster }), {
        body: { name: group, ...settings },
        signal,
      });
      return startedAnswer(accepted, `add_instance_group ${group} to ${cluster}`);
    },
  });
}
