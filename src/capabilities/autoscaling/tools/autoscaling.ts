import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  AUTOSCALING_SCOPE,
  AutoscalingViewSchema,
  SetAutoscalingRequestSchema,
  type AutoscalingView,
} from '../../../domain/schemas/autoscaling.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { OperationStartedSchema, startedAnswer, POLL_UNTIL_DONE } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { AUTOSCALING_PATHS } from '../paths.js';

const fields = SetAutoscalingRequestSchema.shape;

const readiness = (label: string, c?: { ready: boolean; reason?: string; message?: string }) =>
  c ? `${label} ${c.ready ? 'Ready' : `not Ready (${c.message || c.reason || 'no reason yet'})`}` : '';

/** `get_autoscaling` → GET /api/v1/clusters/{cluster}/autoscaling. */
export function registerGetAutoscalingTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_autoscaling',
    title: 'Show managed node autoscaling',
    description:
      'Whether managed Karpenter autoscaling is on, the groups it may scale (never training-plan groups or groups with deep health checks) and whether its NodeClass and NodePool are Ready.',
    input: z.object({ cluster: ClusterRefSchema, region: RegionSchema.optional() }).strict(),
    output: AutoscalingViewSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, region }, { api, signal }) {
      const v = await api.get<AutoscalingView>(apiPath(AUTOSCALING_PATHS.one, { name: cluster }), {
        query: { region },
        signal,
      });
      const state = v.mode === 'Enable' ? `on (${v.status ?? 'status unknown'})` : 'off';
      const parts = [
        `Autoscaling of ${cluster} is ${state}${v.failureMessage ? `: ${v.failureMessage}` : ''}.`,
        v.instanceGroups.length ? `Groups Karpenter may scale: ${v.instanceGroups.join(', ')}.` : '',
        [readiness('HyperpodNodeClass', v.nodeClass), readiness('NodePool', v.nodePool)].filter(Boolean).join('; '),
        v.continuous ? '' : 'The cluster does not provision nodes continuously, so autoscaling cannot be enabled.',
        v.activeOperation ? `Operation ${v.activeOperation.id} is changing it.` : '',
        v.scope,
      ];
      return { text: parts.filter(Boolean).join('\n'), data: v };
    },
  });
}

/** `set_autoscaling` → PUT /api/v1/clusters/{cluster}/autoscaling. */
export function registerSetAutoscalingTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'set_autoscaling',
    title: 'Turn managed node autoscaling on or off',
    description: `Managed Karpenter autoscaling on for groups (enabled: true, groups) or off (counts stay). It adds nodes for unschedulable pods and terminates the groups' empty nodes on its own: get their yes first. ${POLL_UNTIL_DONE}`,
    input: z
      .object({
        cluster: ClusterRefSchema,
        region: fields.region,
        enabled: fields.enabled,
        groups: fields.instanceGroups,
      })
      .strict(),
    restFields: { instanceGroups: 'groups' },
    output: OperationStartedSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    async run({ cluster, groups, ...rest }, { api, signal }) {
      const body = { ...rest, ...(groups ? { instanceGroups: groups } : {}) };
      const accepted = await api.put(apiPath(AUTOSCALING_PATHS.one, { name: cluster }), { body, signal });
      return startedAnswer(
        accepted,
        `set_autoscaling ${cluster} ${rest.enabled ? `on for ${(groups ?? []).join(', ')}` : 'off'}`,
      );
    },
  });
}
