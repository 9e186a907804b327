import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import {
  FeatureChangesSchema,
  FeaturePlanAnswerSchema,
  FeaturesAnswerSchema,
  type FeaturePlanAnswer,
  type FeaturesAnswer,
  type FeaturesUnchanged,
} from '../../../domain/schemas/features.js';
import { OperationStartedSchema, startedAnswer, POLL_UNTIL_DONE } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { FEATURES_PATHS } from '../paths.js';

const ChangeInput = z
  .object({
    cluster: ClusterRefSchema,
    region: RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region."),
    changes: FeatureChangesSchema.describe(
      'ONLY the features the user asked to change, e.g. {"inference-operator": true, "cert-manager": false}. ' +
        'A feature with settings takes them, e.g. {"tiered-checkpointing": {"instanceMemoryAllocationPercentage": 40}}; ' +
        'never send features the user did not mention: they are left as they are.',
    ),
  })
  .strict();

/** One line of a plan, for the answer's text. */
function planText(p: FeaturePlanAnswer): string {
  const lines = [
    ...p.refused.map((r) =>
      r.providedBy
        ? `REFUSED: ${r.feature} cannot be turned off: it is provided by ${r.providedBy}, which InstantStart did not install.`
        : r.inUseBy?.length
          ? `REFUSED: ${r.feature} cannot be turned off while ${r.inUseBy.join(', ')} ${r.inUseBy.length === 1 ? 'uses' : 'use'} it (delete them first).`
          : `REFUSED: ${r.feature} cannot be turned off while ${r.neededBy.join(', ')} ${r.neededBy.length === 1 ? 'needs' : 'need'} it.`,
    ),
    ...p.remove.map(
      (r) => `remove ${r.feature}: ${r.objects.map((o) => `${o.action} ${o.kind} ${o.name}`).join('; ')}`,
    ),
    ...p.install.map(
      (i) =>
        `install ${i.feature}${i.reason === 'needed' ? ` (needed by ${i.neededBy.join(', ')})` : i.reason === 'reconfigure' ? ' (new settings)' : ''}: ${i.objects.map((o) => `${o.action} ${o.kind} ${o.name}`).join('; ')}`,
    ),
    p.unchanged.length ? `already as asked: ${p.unchanged.join(', ')}` : '',
  ];
  return lines.filter(Boolean).join('\n') || 'Nothing to do.';
}

/** `get_features` → GET /api/v1/clusters/{cluster}/features. */
export function registerGetFeaturesTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_features',
    title: "Show a cluster's managed features",
    description:
      "A cluster's managed features as they are now (operators, KubeRay, tiered checkpointing, autoscaling, add-ons, CSI drivers): state, version, health, needs, IAM roles.",
    input: z
      .object({
        cluster: ClusterRefSchema,
        region: RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region."),
      })
      .strict(),
    output: FeaturesAnswerSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, region }, { api, signal }) {
      const a = await api.get<FeaturesAnswer>(apiPath(FEATURES_PATHS.list, { name: cluster }), {
        query: { region },
        signal,
      });
      const lines = a.features.map(
        (f) =>
          `${f.id}: ${f.state}${f.version ? ` ${f.version}` : ''}${f.providedBy ? ` [provided by ${f.providedBy}, not InstantStart]` : ''}${f.health ? ` — ${f.health}` : ''}${f.needs.length ? ` (needs ${f.needs.join(', ')})` : ''}${f.toggleable ? '' : ' [part of every cluster]'}`,
      );
      const running = a.runningOperationId ? `\nOperation ${a.runningOperationId} is changing them.` : '';
      return { text: `Features of ${cluster}:\n${lines.join('\n')}${running}`, data: a };
    },
  });
}

/** `plan_features` → POST /api/v1/clusters/{cluster}/features/plan. */
export function registerPlanFeaturesTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'plan_features',
    title: 'Plan a change of managed features (dry run)',
    description:
      'Changes nothing: what set_features would do with the same changes — installs (in order), removals, objects created or deleted, refusals. Show the plan to the user before set_features.',
    input: ChangeInput,
    output: FeaturePlanAnswerSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, region, changes }, { api, signal }) {
      const p = await api.post<FeaturePlanAnswer>(apiPath(FEATURES_PATHS.plan, { name: cluster }), {
        query: { region },
        body: changes,
        signal,
      });
      return { text: `Plan for ${cluster}${p.noOp ? ' (nothing would change)' : ''}:\n${planText(p)}`, data: p };
    },
  });
}

const SetFeaturesOutput = OperationStartedSchema.partial().safeExtend({
  noOp: z
    .boolean()
    .describe('True when every feature named already was as asked: no operation was started and nothing changed.'),
  message: z.string().optional(),
});

/** `set_features` → PATCH /api/v1/clusters/{cluster}/features. */
export function registerSetFeaturesTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'set_features',
    title: 'Turn managed features on or off',
    description: `Turn managed features on or off, naming ONLY those the user asked to change; needs are installed first. Call plan_features first. Nothing to change: noOp. ${POLL_UNTIL_DONE}`,
    input: ChangeInput,
    output: SetFeaturesOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    async run({ cluster, region, changes }, { api, signal }) {
      const answer = await api.patch<unknown>(apiPath(FEATURES_PATHS.list, { name: cluster }), {
        query: { region },
        body: changes,
        signal,
      });
      const what = Object.entries(changes)
        .map(([k, v]) => `${k} ${v === false ? 'off' : 'on'}`)
        .join(', ');
      if ((answer as FeaturesUnchanged).noOp === true) {
        const u = answer as FeaturesUnchanged;
        return { text: `set_features ${cluster} ${what}: ${u.message}`, data: { noOp: true, message: u.message } };
      }
      const started = startedAnswer(answer, `set_features ${cluster} ${what}`);
      return { text: started.text, data: { ...(started.data as Record<string, unknown>), noOp: false } };
    },
  });
}
