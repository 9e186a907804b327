import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  QuotaCheckRequestSchema,
  QuotaCheckResultSchema,
  type QuotaCheckResult,
} from '../../../domain/schemas/preflight.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { describeCheck } from '../../../mcp/preflight-text.js';
import { CATALOG_PATHS } from '../paths.js';

/** The shared schema leaves instanceCount undescribed; agents need every field explained. */
const InputSchema = QuotaCheckRequestSchema.extend({
  instanceCount: QuotaCheckRequestSchema.shape.instanceCount.describe(
    'How many instances of instanceType the user wants (1–1000).',
  ),
});

/** `check_quotas` → POST /api/v1/preflight/quotas (read-only despite the POST). */
export function registerCheckQuotasTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'check_quotas',
    title: 'Check quotas and training plan for an instance choice',
    description:
      "Changes nothing: may the account run instanceCount × instanceType on HyperPod (quota against use; a training plan's cover)? Call it once type and count are chosen, to explain a shortfall early.",
    input: InputSchema,
    output: QuotaCheckResultSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run(args, { api, signal }) {
      const result = await api.post<QuotaCheckResult>(CATALOG_PATHS.quotaCheck, { body: args, signal });
      return { text: describeCheck(result, 'The quotas allow this request.'), data: result };
    },
  });
}
