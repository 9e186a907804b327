import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { InstanceGroupNameSchema, ScaleInstanceGroupRequestSchema } from '../../../domain/schemas/instance-groups.js';
import { OperationStartedSchema, startedAnswer, POLL_UNTIL_DONE } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { GROUP_PATHS } from '../paths.js';

const fields = ScaleInstanceGroupRequestSchema.shape;

/**
 * `scale_instance_group` → PATCH /api/v1/clusters/{cluster}/instance-groups/{group} with only the
 * count: the one tool that sets a group's count (update_instance_group changes the other settings).
 */
export function registerScaleInstanceGroupTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'scale_instance_group',
    title: 'Scale an instance group',
    description: `Set a group's instance count (0 allowed). DESTRUCTIVE when shrinking: nodes terminate, their jobs stop — get an explicit yes for the new count, then pass confirm: true. ${POLL_UNTIL_DONE}`,
    input: z
      .object({
        cluster: ClusterRefSchema,
        group: InstanceGroupNameSchema.describe('Name of the instance group (from list_instance_groups).'),
        instanceCount: fields.instanceCount,
        confirm: fields.confirm,
        region: RegionSchema.optional(),
      })
      .strict(),
    output: OperationStartedSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    async run({ cluster, group, instanceCount, confirm, region }, { api, signal }) {
      const body = { instanceCount, ...(confirm ? { confirm } : {}), ...(region ? { region } : {}) };
      const accepted = await api.patch(apiPath(GROUP_PATHS.one, { name: cluster, group }), { body, signal });
      return startedAnswer(accepted, `scale_instance_group ${group} to ${instanceCount}`);
    },
  });
}
