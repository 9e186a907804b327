import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import {
  EndpointNameSchema,
  ModelPoolListSchema,
  type ModelPoolList,
  type ModelPoolView,
} from '../../../domain/schemas/inference.js';
import { StorageNamespaceSchema } from '../../../domain/schemas/storage.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { INFERENCE_PATHS } from '../paths.js';
import { ClusterInput } from './endpoint-text.js';

const PoolNameInput = z
  .string()
  .regex(/^[a-z]([-a-z0-9]*[a-z0-9])?$/, 'must be a pool name')
  .max(40)
  .describe('Model pool name (list_model_pool).');

const poolText = (p: ModelPoolView) =>
  [
    `Pool ${p.namespace}/${p.name} (${p.engine}, ${p.model}); endpoints: ${p.endpoints.join(', ') || 'none'}.`,
    ...p.workers.map((w) => `- ${w.pod}: ${w.endpoint ?? 'unassigned'}${w.ready ? '' : ' (not ready)'}`),
  ].join('\n');

/** `list_model_pool` → GET /api/v1/clusters/{cluster}/model-pools (or one pool). */
export function registerListModelPoolTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_model_pool',
    title: 'List model pools and their workers',
    description:
      "A cluster's model pools (or one): each warm worker pod and the endpoint it serves (its model label), and the pool's endpoints. Use it before assign_pool_worker.",
    input: z
      .object({
        ...ClusterInput,
        namespace: StorageNamespaceSchema.optional().describe(
          'Only this namespace (required with pool; default: default).',
        ),
        pool: PoolNameInput.optional(),
      })
      .strict(),
    output: ModelPoolListSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, namespace, pool, region }, { api, signal }) {
      const list: ModelPoolList = pool
        ? {
            pools: [
              await api.get<ModelPoolView>(
                apiPath(INFERENCE_PATHS.pool, { name: cluster, namespace: namespace ?? 'default', pool }),
                { query: { region }, signal },
              ),
            ],
          }
        : await api.get<ModelPoolList>(apiPath(INFERENCE_PATHS.pools, { name: cluster }), {
            query: { namespace, region },
            signal,
          });
      return {
        text: list.pools.length ? list.pools.map(poolText).join('\n') : `No model pools on ${cluster}.`,
        data: list,
      };
    },
  });
}

/** `assign_pool_worker` → PUT …/model-pools/{namespace}/{pool}/workers/{pod}. */
export function registerAssignPoolWorkerTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'assign_pool_worker',
    title: 'Reassign a warm pool worker',
    description:
      "Move a model pool's warm worker to another endpoint of the pool by its model label: that endpoint's Service routes to it from the next request; the worker keeps running.",
    input: z
      .object({
        ...ClusterInput,
        namespace: StorageNamespaceSchema.default('default').describe('Pool namespace; default: default.'),
        pool: PoolNameInput,
        pod: z.string().min(1).max(253).describe('The worker pod (list_model_pool).'),
        endpoint: EndpointNameSchema.describe('The pool endpoint it serves from now on.'),
      })
      .strict(),
    output: ModelPoolListSchema.shape.pools.element,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run({ cluster, namespace, pool, pod, endpoint, region }, { api, signal }) {
      const view = await api.put<ModelPoolView>(
        apiPath(INFERENCE_PATHS.poolWorker, { name: cluster, namespace, pool, pod }),
        { body: { endpoint, namespace, ...(region ? { region } : {}) }, signal },
      );
      return { text: `${pod} now serves ${endpoint}.\n${poolText(view)}`, data: view };
    },
  });
}
