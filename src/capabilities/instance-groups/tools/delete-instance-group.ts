import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { InstanceGroupNameSchema } from '../../../domain/schemas/instance-groups.js';
import { OperationStartedSchema, startedAnswer, POLL_UNTIL_DONE } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { GROUP_PATHS } from '../paths.js';

/** `delete_instance_group` → DELETE /api/v1/clusters/{cluster}/instance-groups/{group}?confirm=true. */
export function registerDeleteInstanceGroupTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'delete_instance_group',
    title: 'Delete an instance group',
    description: `Delete an instance group and its nodes (their jobs stop). DESTRUCTIVE: get an explicit yes for this name, pass confirm: true. ${POLL_UNTIL_DONE}`,
    input: z
      .object({
        cluster: ClusterRefSchema,
        group: InstanceGroupNameSchema.describe('Name of the instance group to delete (from list_instance_groups).'),
        region: RegionSchema.optional(),
        confirm: z
          .literal(true, 'must be true: set it only after the user confirmed deleting this group by name')
          .describe("true, after the user's yes."),
      })
      .strict(),
    output: OperationStartedSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    async run({ cluster, group, region }, { api, signal }) {
      const accepted = await api.delete(apiPath(GROUP_PATHS.one, { name: cluster, group }), {
        query: { confirm: 'true', region },
        signal,
      });
      return startedAnswer(accepted, `delete_instance_group ${group}`);
    },
  });
}
