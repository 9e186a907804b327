import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CREATE_CLUSTER_REST_FIELDS,
  CreateClusterToolInputSchema,
  createClusterRequest,
} from '../../../domain/schemas/create-cluster-tool-input.js';
import { QuotaCheckResultSchema, type QuotaCheckResult } from '../../../domain/schemas/preflight.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { describeCheck } from '../../../mcp/preflight-text.js';
import { CATALOG_PATHS } from '../paths.js';

/**
 * `check_cluster_request` → POST /api/v1/preflight/clusters: the whole create request, dry. It takes
 * exactly create_cluster's arguments, so the agent checks the very request it is about to send.
 */
export function registerCheckClusterRequestTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'check_cluster_request',
    title: 'Check a create-cluster request (dry run)',
    description:
      'Dry run of create_cluster with its exact arguments: free name, valid zone, type offered there, quotas, training plan. Call it right before create_cluster; fix what it reports and check again.',
    input: CreateClusterToolInputSchema,
    argumentsOf: 'create_cluster',
    restFields: CREATE_CLUSTER_REST_FIELDS,
    output: QuotaCheckResultSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run(args, { api, signal }) {
      const result = await api.post<QuotaCheckResult>(CATALOG_PATHS.clusterCheck, {
        body: createClusterRequest(args),
        signal,
      });
      return { text: describeCheck(result, 'You may call create_cluster with the same arguments.'), data: result };
    },
  });
}
