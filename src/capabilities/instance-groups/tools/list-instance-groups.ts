import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { InstanceGroupViewSchema, type InstanceGroupView } from '../../../domain/schemas/instance-groups.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { GROUP_PATHS } from '../paths.js';

/** `list_instance_groups` → GET /api/v1/clusters/{name}/instance-groups. */
export function registerListInstanceGroupsTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_instance_groups',
    title: 'List instance groups',
    description:
      "A cluster's instance groups: type, capacity type, EFA mode, subnets, current/target counts, status, any operation on one. Use it before adding (free name), scaling or deleting a group.",
    input: z.object({ cluster: ClusterRefSchema, region: RegionSchema.optional() }).strict(),
    output: z.object({ cluster: z.string(), region: z.string(), instanceGroups: z.array(InstanceGroupViewSchema) }),
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, region }, { api, signal }) {
      const data = await api.get<{ cluster: string; region: string; instanceGroups: InstanceGroupView[] }>(
        apiPath(GROUP_PATHS.list, { name: cluster }),
        { query: { region }, signal },
      );
      const lines = data.instanceGroups.map(
        (g) =>
          `- ${g.name}: ${g.currentCount}/${g.targetCount} × ${g.instanceType} (${g.capacityType}${g.networkInterface ? `, ${g.networkInterface}` : ''}), ${g.status}` +
          (g.shortfall
            ? ` — ${g.shortfall.missing} not launched (${g.shortfall.state})${g.shortfall.reason ? `: ${g.shortfall.reason}` : ''}`
            : '') +
          (g.activeOperation ? ` — operation ${g.activeOperation.id} (${g.activeOperation.kind})` : ''),
      );
      return {
        text: lines.length
          ? `${lines.length} instance group(s) in ${cluster}:\n${lines.join('\n')}`
          : `${cluster} has no instance groups.`,
        data,
      };
    },
  });
}
