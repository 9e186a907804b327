import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { OperationReportSchema, reportAnswer } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { OperationIdSchema, READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { OPERATION_PATHS } from '../paths.js';

/** `get_operation` → GET /api/v1/operations/{id}: a snapshot, no waiting. */
export function registerGetOperationTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_operation',
    title: 'Read an operation',
    description:
      "An operation's status and phases now, without waiting (wait_for_operation follows one to its end). Finished only when succeeded, failed or cancelled.",
    input: z.object({ operationId: OperationIdSchema }).strict(),
    output: OperationReportSchema,
    annotations: { ...READ_ONLY, openWorldHint: false },
    async run({ operationId }, { api, signal }) {
      return reportAnswer(await api.get(apiPath(OPERATION_PATHS.one, { id: operationId }), { signal }));
    },
  });
}
