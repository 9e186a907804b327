import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  AUTOSCALING_SCOPE,
  AutoscalingViewSchema,
  SetAutoscalingRequestSchema,
  type AutoscalingView,
} from '../../../domain/schemas/autoscaling.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { OperationStartedSchema, startedAnswer } from '../../../mcp/operation-report.js';
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
      'Show whether HyperPod-managed Karpenter autoscaling is on for a cluster, which instance groups it may scale, the ClusterRole HyperPod uses, and whether ' +
      `Karpenter's HyperpodNodeClass and NodePool are Ready. ${AUTOSCALING_SCOPE}`,
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
    description:
      'Turn HyperPod-managed Karpenter autoscaling on for chosen instance groups (enabled: true with groups, 1–10; ' +
      'call again to change the list) or off (enabled: false; node counts stay). Karpenter adds nodes for pods ' +
      'that cannot be scheduled (groups can start at 0) and removes nodes empty for 5 minutes; it scales HyperPod ' +
      'instance groups only, and groups on training plans or with deep health checks are refused. Once on, ' +
      "Karpenter terminates the groups' empty nodes on its own: tell the user and get their yes first. The answer " +
      'is an operation that is NOT done: call wait_for_operation with its operationId until status is "succeeded" ' +
      'or "failed".',
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
