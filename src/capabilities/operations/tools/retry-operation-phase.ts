import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { OperationStartedSchema, startedAnswer } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { OperationIdSchema, registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { OPERATION_PATHS } from '../paths.js';

/** `retry_operation_phase` → POST /api/v1/operations/{id}/phases/{phase}/retry (202). */
export function registerRetryOperationPhaseTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'retry_operation_phase',
    title: 'Retry a failed phase',
    description:
      'Retry the failed phase of a failed operation, which then continues with the phases after it (done phases ' +
      'are not repeated; the phase observes actual state first). Use it after wait_for_operation reported "failed" ' +
      "and the cause is fixed or was transient (read get_operation_logs first). It runs the operation's mutations " +
      'again from that phase on (a delete deletes, a replace terminates nodes): tell the user what the operation ' +
      'does and get their yes before retrying it. The answer is NOT the end: call wait_for_operation with the ' +
      'operationId until status is "succeeded" or "failed".',
    input: z
      .object({
        operationId: OperationIdSchema,
        phase: z
          .string()
          .min(1)
          .max(64)
          .describe(
            'Name of the failed phase: failedPhase from wait_for_operation / get_operation (phases[].name whose ' +
              'status is failed and retryable is true).',
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
