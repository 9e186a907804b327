import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { OperationStartedSchema, startedAnswer } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { OperationIdSchema, registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { OPERATION_PATHS } from '../paths.js';

/** `cancel_operation` → POST /api/v1/operations/{id}/cancel (202). */
export function registerCancelOperationTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'cancel_operation',
    title: 'Cancel an operation',
    description:
      "Stop a pending or running operation after its current step, only at the user's request; what it made stays. Then call wait_for_operation until it reports cancelled (or another terminal status).",
    input: z.object({ operationId: OperationIdSchema }).strict(),
    output: OperationStartedSchema,
    // Destructive: it abandons work the user asked for; clients should confirm.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async run({ operationId }, { api, signal }) {
      const accepted = await api.post(apiPath(OPERATION_PATHS.cancel, { id: operationId }), { signal });
      return startedAnswer(accepted, `cancel_operation ${operationId}`);
    },
  });
}
