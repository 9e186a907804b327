import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { InstanceGroupNameSchema, UpdateInstanceGroupRequestSchema } from '../../../domain/schemas/instance-groups.js';
import { OperationStartedSchema, startedAnswer, POLL_UNTIL_DONE } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { GROUP_PATHS } from '../paths.js';

const fields = UpdateInstanceGroupRequestSchema.shape;

/**
 * `update_instance_group` → PATCH /api/v1/clusters/{cluster}/instance-groups/{group} with only the changed
 * settings. It takes no count: scale_instance_group is the one tool that sets a group's count (and asks for
 * confirm when that terminates nodes), so this tool never adds or removes nodes.
 */
export function registerUpdateInstanceGroupTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'update_instance_group',
    title: "Change an instance group's settings",
    description: `Change a group's settings besides its count, sending ONLY what changes. A NoExecute taint evicts running pods, and AMI updates and patching restart nodes: get their yes first. ${POLL_UNTIL_DONE}`,
    input: z
      .object({
        cluster: ClusterRefSchema,
        group: InstanceGroupNameSchema.describe('Name of the instance group (from list_instance_groups).'),
        region: RegionSchema.optional(),
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
    // Destructive: a taint evicts pods and patching restarts nodes, though no node is added or removed.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    async run({ cluster, group, ...body }, { api, signal }) {
      const accepted = await api.patch(apiPath(GROUP_PATHS.one, { name: cluster, group }), { body, signal });
      return startedAnswer(
        accepted,
        `update_instance_group ${group} (${Object.keys(body)
          .filter((k) => k !== 'region')
          .join(', ')})`,
      );
    },
  });
}
