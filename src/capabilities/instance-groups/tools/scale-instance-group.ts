import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { InstanceGroupNameSchema } from '../../../domain/schemas/instance-groups.js';
import { OperationStartedSchema, startedAnswer } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { GROUP_PATHS } from '../paths.js';

/** `scale_instance_group` → PATCH /api/v1/clusters/{cluster}/instance-groups/{name} with only the count. */
export function registerScaleInstanceGroupTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'scale_instance_group',
    title: 'Scale an instance group',
    description:
      'Set the number of instances of an instance group (0 allowed). When the group already has that count the operation succeeds without changing ' +
      'anything in AWS. Growth needs quota (check_quotas first for large steps). Instance type, capacity type and EFA mode cannot be changed; add a new ' +
      'group instead. The answer is an operation that is NOT done: call wait_for_operation with its operationId until status is "succeeded" or "failed".',
    input: z
      .object({
        cluster: ClusterRefSchema,
        name: InstanceGroupNameSchema,
        instanceCount: z.number().int().min(0).max(1000).describe('The new number of instances.'),
        region: RegionSchema.optional(),
      })
      .strict(),
    output: OperationStartedSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run({ cluster, name, instanceCount, region }, { api, signal }) {
      const accepted = await api.patch(apiPath(GROUP_PATHS.one, { name: cluster, group: name }), { body: { instanceCount, ...(region ? { region } : {}) }, signal });
      return startedAnswer(accepted, `scale_instance_group ${name} to ${instanceCount}`);
    },
  });
}
