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
      'Dry-run a create_cluster request without changing anything: the name is free, the zone is valid, the instance type is offered in that zone, ' +
      'quotas suffice, and the training plan (if any) covers it. Takes exactly the arguments of create_cluster (less idempotencyKey). Call it right before create_cluster ' +
      '(check before create); if it reports problems, fix them — ask the user only when the fix is their choice (zone, instance type, capacity type, count) — and check again.',
    input: CreateClusterToolInputSchema,
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
