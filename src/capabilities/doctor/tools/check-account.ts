import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { doctorText } from '../../../domain/doctor-text.js';
import { type DoctorReport, DoctorReportSchema } from '../../../domain/schemas/doctor.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { DOCTOR_PATHS } from '../paths.js';

/** `check_account` → GET /api/v1/doctor. */
export function registerCheckAccountTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'check_account',
    title: 'Check the account',
    description:
      "Before a first create: credentials, every IAM permission the product needs (simulated), quotas, Kubernetes versions, Elastic IPs, a cluster's add-ons. Read-only; each line's fix is for the user to apply.",
    input: z
      .object({
        region: RegionSchema.optional(),
        cluster: ClusterRefSchema.optional(),
        instanceTypes: z.string().max(400).optional().describe('Comma-separated instance types whose quotas to check.'),
        principalArn: z
          .string()
          .max(2048)
          .optional()
          .describe('An IAM role or user ARN to check instead of the caller.'),
      })
      .strict(),
    output: DoctorReportSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ region, cluster, instanceTypes, principalArn }, { api, signal }) {
      const data = await api.get<DoctorReport>(DOCTOR_PATHS.check, {
        query: { region, cluster, instanceTypes, principalArn },
        signal,
      });
      return { text: doctorText(data), data };
    },
  });
}
