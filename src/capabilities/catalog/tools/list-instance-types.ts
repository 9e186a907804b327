import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { AvailabilityZoneSchema, RegionSchema } from '../../../domain/schemas/common.js';
import {
  InstanceFamilySchema,
  InstanceTypeViewSchema,
  type InstanceTypeView,
} from '../../../domain/schemas/preflight.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { CATALOG_PATHS } from '../paths.js';

const OutputSchema = z.object({
  region: z.string(),
  availabilityZone: z.string().optional(),
  instanceTypes: z.array(InstanceTypeViewSchema),
});

/** `list_instance_types` → GET /api/v1/instance-types: the HyperPod types EC2 really offers there. */
export function registerListInstanceTypesTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_instance_types',
    title: 'List HyperPod instance types',
    description:
      "HyperPod instance types offered in a Region or zone: accelerators, EFA, spot, the account's quota (0: needs an increase). Check before create: offer only types listed for the chosen zone.",
    input: z
      .object({
        region: RegionSchema.optional(),
        availabilityZone: AvailabilityZoneSchema.optional().describe(
          'Only types offered in this zone. Recommended once the user chose a zone.',
        ),
        acceleratorsOnly: z.boolean().optional().describe('true: only types with GPUs, Trainium or Inferentia.'),
        family: InstanceFamilySchema.optional(),
      })
      .strict(),
    output: OutputSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ region, availabilityZone, acceleratorsOnly, family }, { api, signal }) {
      const query = { region, availabilityZone, accelerators: acceleratorsOnly ? 'true' : undefined, family };
      const data = await api.get<z.infer<typeof OutputSchema>>(CATALOG_PATHS.instanceTypes, { query, signal });
      const where = data.availabilityZone ?? data.region;
      const text =
        data.instanceTypes.length === 0
          ? `No HyperPod instance types${family ? ` of family ${family}` : ''}${acceleratorsOnly ? ' with accelerators' : ''} are offered in ${where}.`
          : `${data.instanceTypes.length} instance type(s) offered in ${where}:\n${data.instanceTypes.map(describeType).join('\n')}`;
      return { text, data };
    },
  });
}

function describeType(t: InstanceTypeView): string {
  const parts: string[] = [];
  if (t.acceleratorCount) parts.push(`${t.acceleratorCount}× ${t.acceleratorName ?? 'accelerator'}`);
  if (t.vcpus) parts.push(`${t.vcpus} vCPU`);
  if (t.memoryGiB) parts.push(`${t.memoryGiB} GiB`);
  if (t.efaSupported) parts.push('EFA');
  if (t.spotSupported) parts.push('spot');
  if (t.clusterUsageQuota !== undefined) parts.push(`quota ${t.clusterUsageQuota}`);
  return `- ${t.instanceType}: ${parts.join(', ')}`;
}
