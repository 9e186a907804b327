import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ClusterRefSchema } from '../../../domain/schemas/common.js';
import { AddInstanceGroupRequestSchema, checkNewGroup } from '../../../domain/schemas/instance-groups.js';
import { OperationStartedSchema, startedAnswer, POLL_UNTIL_DONE } from '../../../mcp/operation-report.js';
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
    description: `Add capacity as a new instance group (type, zone, capacity type and EFA fixed once made). Check first: list_instance_types for the zone, check_quotas; ask only zone, type, capacity type, count. ${POLL_UNTIL_DONE}`,
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
