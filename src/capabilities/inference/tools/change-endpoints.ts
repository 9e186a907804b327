import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import {
  ContainerAutoscalingSchema,
  DeleteEndpointAnswerSchema,
  RouterPolicySchema,
  type EndpointView,
} from '../../../domain/schemas/inference.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { INFERENCE_PATHS } from '../paths.js';
import { EndpointRefInput, EndpointSummarySchema, endpointText } from './endpoint-text.js';

const CHANGE_HINTS = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

/** `scale_endpoint` → PUT …/endpoints/{namespace}/{endpoint}/scale. */
export function registerScaleEndpointTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'scale_endpoint',
    title: 'Scale an inference endpoint',
    description:
      "Set an endpoint's replicas (0 stops serving and frees its GPUs). Refused while KEDA scales it (set_endpoint_autoscaling); a pool endpoint grows by assign_pool_worker.",
    input: z
      .object({ ...EndpointRefInput, replicas: z.number().int().min(0).max(100).describe('Replicas wanted.') })
      .strict(),
    output: EndpointSummarySchema,
    annotations: CHANGE_HINTS,
    async run({ cluster, namespace, endpoint, region, replicas }, { api, signal }) {
      const view = await api.put<EndpointView>(
        apiPath(INFERENCE_PATHS.endpointScale, { name: cluster, namespace, endpoint }),
        { body: { replicas, ...(region ? { region } : {}) }, signal },
      );
      return { text: `Scaling to ${replicas}.\n${endpointText(view)}`, data: view };
    },
  });
}

/** `set_endpoint_autoscaling` → PUT …/autoscaling. */
export function registerSetEndpointAutoscalingTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'set_endpoint_autoscaling',
    title: 'Set KEDA autoscaling of an endpoint',
    description:
      'KEDA scaling of a container endpoint from a Prometheus metric (router queue depth or running requests): min/max, threshold per replica, cooldown. null removes it (replicas stay).',
    input: z
      .object({
        ...EndpointRefInput,
        autoscaling: ContainerAutoscalingSchema.nullable().describe('The scaling; null removes it.'),
      })
      .strict(),
    output: EndpointSummarySchema,
    annotations: CHANGE_HINTS,
    async run({ cluster, namespace, endpoint, region, autoscaling }, { api, signal }) {
      const view = await api.put<EndpointView>(
        apiPath(INFERENCE_PATHS.endpointAutoscaling, { name: cluster, namespace, endpoint }),
        { body: { autoscaling, ...(region ? { region } : {}) }, signal },
      );
      return { text: `${autoscaling ? 'Autoscaling set' : 'Autoscaling removed'}.\n${endpointText(view)}`, data: view };
    },
  });
}

/** `deploy_router` → PUT …/router. */
export function registerDeployRouterTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'deploy_router',
    title: 'Put the SGLang router in front of an endpoint',
    description:
      'Add or re-apply the SGLang router (Deployment and Service <endpoint>-router) to an sglang container endpoint; invoke_endpoint then goes through it.',
    input: z.object({ ...EndpointRefInput, policy: RouterPolicySchema.default('cache_aware') }).strict(),
    output: EndpointSummarySchema,
    annotations: CHANGE_HINTS,
    async run({ cluster, namespace, endpoint, region, policy }, { api, signal }) {
      const view = await api.put<EndpointView>(
        apiPath(INFERENCE_PATHS.endpointRouter, { name: cluster, namespace, endpoint }),
        { body: { policy, ...(region ? { region } : {}) }, signal },
      );
      return { text: `Router applied.\n${endpointText(view)}`, data: view };
    },
  });
}

/** `delete_endpoint` → DELETE …/endpoints/{namespace}/{endpoint}?confirm=true. */
export function registerDeleteEndpointTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'delete_endpoint',
    title: 'Delete an inference endpoint',
    description:
      "Delete an endpoint's objects (the operator removes the rest of a managed one): serving stops. DESTRUCTIVE: show get_endpoint, get an explicit yes for this name, pass confirm: true.",
    input: z
      .object({
        ...EndpointRefInput,
        confirm: z
          .literal(true, 'must be true: set it only after the user confirmed deleting this endpoint by name')
          .describe("true, after the user's yes."),
      })
      .strict(),
    output: DeleteEndpointAnswerSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    async run({ cluster, namespace, endpoint, region }, { api, signal }) {
      const answer = await api.delete<z.infer<typeof DeleteEndpointAnswerSchema>>(
        apiPath(INFERENCE_PATHS.endpoint, { name: cluster, namespace, endpoint }),
        { query: { confirm: 'true', region }, signal },
      );
      return {
        text: `Deleted ${namespace}/${endpoint}: ${answer.deleted.map((o) => `${o.kind}/${o.name}`).join(', ')}.`,
        data: answer,
      };
    },
  });
}
