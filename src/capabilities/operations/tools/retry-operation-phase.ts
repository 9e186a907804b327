import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { OperationStartedSchema, startedAnswer, POLL_UNTIL_DONE } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { OperationIdSchema, registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { OPERATION_PATHS } from '../paths.js';

/** `retry_operation_phase` → POST /api/v1/operations/{id}/phases/{phase}/retry (202). */
export function registerRetryOperationPhaseTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'retry_operation_phase',
    title: 'Retry a failed phase',
    description: `Retry a failed operation from its failed phase (read get_operation_logs first). It runs the operation's mutations again: get their yes before retrying. ${POLL_UNTIL_DONE}`,
    input: z
      .object({
        operationId: OperationIdSchema,
        phase: z
          .string()
          .min(1)
          .max(64)
          .describe(
            'The failed phase: failedPhase from wait_for_operation / get_operation. It is the phases[].name whose ' +
              'status is failed and retryable is true.',
          ),
      })
      .strict(),
    output: OperationStartedSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    async run({ operationId, phase }, { api, signal }) {
      const accepted = await api.post(apiPath(OPERATION_PATHS.retryPhase, { id: operationId, phase }), { signal });
      return startedAnswer(accepted, `retry_operation_phase ${phase}`);
    },
  });
}
