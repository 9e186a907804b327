import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { RegionSchema } from '../../../domain/schemas/common.js';
import { AvailabilityZoneViewSchema } from '../../../domain/schemas/preflight.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { CATALOG_PATHS } from '../paths.js';

const OutputSchema = z.object({ region: z.string(), availabilityZones: z.array(AvailabilityZoneViewSchema) });

/** `list_availability_zones` → GET /api/v1/availability-zones: AWS's answer, never a hard-coded list. */
export function registerListAvailabilityZonesTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_availability_zones',
    title: 'List availability zones',
    description:
      "A Region's availability zones (name, zone id, state). Check before create: offer the user only these, then call list_instance_types with the chosen zone.",
    input: z.object({ region: RegionSchema.optional() }).strict(),
    output: OutputSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ region }, { api, signal }) {
      const data = await api.get<z.infer<typeof OutputSchema>>(CATALOG_PATHS.availabilityZones, {
        query: { region },
        signal,
      });
      const zones = data.availabilityZones.map((z) => `${z.name} (${z.zoneId}, ${z.state})`).join(', ');
      return { text: `Availability zones of ${data.region}: ${zones || 'none'}`, data };
    },
  });
}
