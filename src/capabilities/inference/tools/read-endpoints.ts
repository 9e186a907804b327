import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import {
  EndpointDetailSchema,
  EndpointListSchema,
  type EndpointDetail,
  type EndpointList,
} from '../../../domain/schemas/inference.js';
import { StorageNamespaceSchema } from '../../../domain/schemas/storage.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { INFERENCE_PATHS } from '../paths.js';
import { ClusterInput, EndpointListItemSchema, EndpointRefInput, endpointLine, endpointText } from './endpoint-text.js';

/** `list_endpoints` → GET /api/v1/clusters/{cluster}/endpoints. */
export function registerListEndpointsTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_endpoints',
    title: 'List inference endpoints',
    description:
      "A cluster's inference endpoints, managed and container, read live: state, replicas ready/desired, model, URL; and whether the inference operator is on.",
    input: z
      .object({ ...ClusterInput, namespace: StorageNamespaceSchema.optional().describe('Only this namespace.') })
      .strict(),
    output: EndpointListSchema.extend({ endpoints: z.array(EndpointListItemSchema) }),
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, namespace, region }, { api, signal }) {
      const list = await api.get<EndpointList>(apiPath(INFERENCE_PATHS.endpoints, { name: cluster }), {
        query: { namespace, region },
        signal,
      });
      const head = list.endpoints.length
        ? `Endpoints of ${cluster}:\n${list.endpoints.map(endpointLine).join('\n')}`
        : `No endpoints on ${cluster} (deploy_container_endpoint or deploy_managed_endpoint).`;
      const operator = list.inferenceOperator
        ? ''
        : '\nThe inference operator is off: managed endpoints need set_features.';
      return { text: head + operator, data: list };
    },
  });
}

/** `get_endpoint` → GET /api/v1/clusters/{cluster}/endpoints/{namespace}/{endpoint}. */
export function registerGetEndpointTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_endpoint',
    title: 'Describe an inference endpoint',
    description:
      'One endpoint now: state, replicas, URLs, router, autoscaling, its objects, pods (why one waits: image pull, GPUs) and events. Follow a deploy with it until Ready.',
    input: z.object(EndpointRefInput).strict(),
    output: EndpointDetailSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, namespace, endpoint, region }, { api, signal }) {
      const view = await api.get<EndpointDetail>(
        apiPath(INFERENCE_PATHS.endpoint, { name: cluster, namespace, endpoint }),
        { query: { region }, signal },
      );
      return { text: endpointText(view), data: view };
    },
  });
}
