import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { InstanceGroupNameSchema, UpdateInstanceGroupRequestSchema } from '../../../domain/schemas/instance-groups.js';
import { OperationStartedSchema, startedAnswer } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { GROUP_PATHS } from '../paths.js';

const fields = UpdateInstanceGroupRequestSchema.shape;

/** `update_instance_group` → PATCH /api/v1/clusters/{cluster}/instance-groups/{name} with only the changed settings. */
export function registerUpdateInstanceGroupTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'update_instance_group',
    title: 'Change an instance group\'s settings',
    description:
      'Change what HyperPod lets change on a live group: Kubernetes labels and taints (each sent as the complete new set), deep health checks on ' +
      'new nodes, lifecycle scripts, scheduled AMI updates, automatic patching, the minimum count, and the count. Send ONLY what changes; what already ' +
      'matches is not sent to AWS, and a request that changes nothing succeeds without touching AWS. Instance type, capacity type, EFA mode, zone and ' +
      'threads per core are fixed (add a new group instead). The answer is an operation that is NOT done: call wait_for_operation with its operationId ' +
      'until status is "succeeded" or "failed".',
    input: z
      .object({
        cluster: ClusterRefSchema,
        name: InstanceGroupNameSchema,
        region: RegionSchema.optional(),
        instanceCount: fields.instanceCount,
        minInstanceCount: fields.minInstanceCount,
        labels: fields.labels,
        taints: fields.taints,
        deepHealthChecks: fields.deepHealthChecks,
        lifecycleConfig: fields.lifecycleConfig,
        scheduledUpdate: fields.scheduledUpdate,
        autoPatch: fields.autoPatch,
      })
      .strict(),
    output: OperationStartedSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run({ cluster, name, ...body }, { api, signal }) {
      const accepted = await api.patch(apiPath(GROUP_PATHS.one, { name: cluster, group: name }), { body, signal });
      return startedAnswer(accepted, `update_instance_group ${name} (${Object.keys(body).filter((k) => k !== 'region').join(', ')})`);
    },
  });
}
