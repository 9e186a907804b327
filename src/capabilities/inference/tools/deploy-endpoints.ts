import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { RegionSchema } from '../../../domain/schemas/common.js';
import { InstanceGroupNameSchema } from '../../../domain/schemas/instance-groups.js';
import {
  DeployContainerEndpointRequestSchema,
  DeployManagedEndpointRequestSchema,
  EndpointNameSchema,
  type EndpointView,
} from '../../../domain/schemas/inference.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { INFERENCE_PATHS } from '../paths.js';
import { ClusterInput, EndpointSummarySchema, endpointText, withoutName } from './endpoint-text.js';

const withoutGroup = <T extends { instanceGroup: unknown }>({
  instanceGroup: _group,
  ...rest
}: T): Omit<T, 'instanceGroup'> => rest;

const DEPLOY_HINTS = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

const next = (cluster: string, e: EndpointView) =>
  `Applied; ${e.state}. Follow it with get_endpoint {cluster: "${cluster}", namespace: "${e.namespace}", endpoint: "${e.name}"} until Ready, then invoke_endpoint.`;

/** `deploy_managed_endpoint` → POST /api/v1/clusters/{cluster}/endpoints/managed. */
export function registerDeployManagedEndpointTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'deploy_managed_endpoint',
    title: 'Deploy a managed inference endpoint',
    description:
      'Serve a model with the HyperPod inference operator from a storage, Hugging Face or JumpStart: KV cache, routing (fixed once set), autoscaling. Needs the inference-operator feature.',
    input: z
      .object({
        ...ClusterInput,
        endpoint: EndpointNameSchema,
        ...withoutName(DeployManagedEndpointRequestSchema.shape),
        region: RegionSchema.optional(),
      })
      .strict(),
    output: EndpointSummarySchema.extend({ nextStep: z.string() }),
    annotations: DEPLOY_HINTS,
    restFields: { name: 'endpoint' },
    async run({ cluster, endpoint, ...rest }, { api, signal }) {
      const view = await api.post<EndpointView>(apiPath(INFERENCE_PATHS.managedEndpoints, { name: cluster }), {
        body: { ...rest, name: endpoint },
        signal,
      });
      const nextStep = next(cluster, view);
      return { text: `${nextStep}\n${endpointText(view)}`, data: { ...view, nextStep } };
    },
  });
}

/** `deploy_container_endpoint` → POST /api/v1/clusters/{cluster}/endpoints/container. */
export function registerDeployContainerEndpointTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'deploy_container_endpoint',
    title: 'Deploy a container inference endpoint',
    description:
      'Serve a model with vLLM, SGLang or a custom image (Deployment + Service) on one group: service.variant external (load balancer), internal or pool; router; KEDA autoscaling.',
    input: z
      .object({
        ...ClusterInput,
        endpoint: EndpointNameSchema,
        ...withoutGroup(withoutName(DeployContainerEndpointRequestSchema.shape)),
        group: InstanceGroupNameSchema.describe('The instance group the replicas run on (list_instance_groups).'),
        region: RegionSchema.optional(),
      })
      .strict(),
    output: EndpointSummarySchema.extend({ nextStep: z.string() }),
    annotations: DEPLOY_HINTS,
    restFields: { name: 'endpoint', instanceGroup: 'group' },
    async run({ cluster, endpoint, group, ...rest }, { api, signal }) {
      const view = await api.post<EndpointView>(apiPath(INFERENCE_PATHS.containerEndpoints, { name: cluster }), {
        body: { ...rest, name: endpoint, instanceGroup: group },
        signal,
      });
      const nextStep = next(cluster, view);
      return { text: `${nextStep}\n${endpointText(view)}`, data: { ...view, nextStep } };
    },
  });
}
