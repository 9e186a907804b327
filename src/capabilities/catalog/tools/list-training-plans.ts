import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { RegionSchema } from '../../../domain/schemas/common.js';
import { TrainingPlanViewSchema, type TrainingPlanView } from '../../../domain/schemas/preflight.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { CATALOG_PATHS } from '../paths.js';

/** `list_training_plans` → GET /api/v1/training-plans. */
export function registerListTrainingPlansTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_training_plans',
    title: 'List training plans',
    description:
      "A Region's training plans (reserved capacity): type, zone, available count, window. For capacity type training-plan offer only Active or Scheduled plans that fit (a plan fixes the zone).",
    input: z.object({ region: RegionSchema.optional() }).strict(),
    output: z.object({ trainingPlans: z.array(TrainingPlanViewSchema) }),
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ region }, { api, signal }) {
      const data = await api.get<{ trainingPlans: TrainingPlanView[] }>(CATALOG_PATHS.trainingPlans, {
        query: { region },
        signal,
      });
      const lines = data.trainingPlans.map(
        (p) =>
          `- ${p.name} (${p.status}): ${p.availableInstanceCount ?? '?'}/${p.totalInstanceCount ?? '?'} × ${p.instanceType ?? '?'} available in ${p.availabilityZone ?? '?'}` +
          `${p.startTime ? `, ${p.startTime} → ${p.endTime ?? '?'}` : ''}; ARN ${p.arn}`,
      );
      return {
        text: lines.length
          ? `${lines.length} training plan(s):\n${lines.join('\n')}`
          : 'No training plans in this region.',
        data,
      };
    },
  });
}
