import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { OperationView } from '../../../domain/schemas/operations.js';
import { isTerminal, OperationProgressSchema, progressAnswer } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { OperationIdSchema, READ_ONLY, registerRestTool, type ToolContext } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { OPERATION_PATHS } from '../paths.js';

/**
 * Node's fetch (undici) gives up on an answer whose headers take 300 s, which is exactly the
 * server's longest wait, so a long wait is made of shorter server-side waits.
 */
const MAX_SERVER_WAIT_SECONDS = 240;
/** Progress heartbeats keep clients that reset their timeout on progress from giving up. */
const HEARTBEAT_MS = 10_000;

const InputSchema = z
  .object({
    operationId: OperationIdSchema,
    timeoutSeconds: z
      .number()
      .min(0)
      .max(300)
      .default(50)
      .describe(
        'Seconds to block at most for a terminal status. Many MCP clients abort a tool call after 60 s, so keep the default ' +
          'unless your client allows longer calls; calling again costs nothing.',
      ),
  })
  .strict();

/** `wait_for_operation` → GET /api/v1/operations/{id}/wait?timeoutSeconds=N: THE status tool of every mutation. */
export function registerWaitForOperationTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'wait_for_operation',
    title: 'Wait for an operation',
    description:
      'The status tool of every mutating tool: blocks until the operation is terminal (succeeded, failed, cancelled) or timeoutSeconds pass; NOT finished: call it again. On failed: get_operation_logs.',
    input: InputSchema,
    output: OperationProgressSchema,
    annotations: { ...READ_ONLY, openWorldHint: false },
    holdsAnswer: true,
    async run({ operationId, timeoutSeconds }, ctx) {
      const started = Date.now();
      const stopHeartbeat = heartbeat(ctx, started, timeoutSeconds);
      try {
        let op: OperationView;
        let remaining = timeoutSeconds;
        let chunk: number;
        do {
          chunk = Math.min(remaining, MAX_SERVER_WAIT_SECONDS);
          op = await ctx.api.get<OperationView>(apiPath(OPERATION_PATHS.wait, { id: operationId }), {
            query: { timeoutSeconds: chunk },
            signal: ctx.signal,
            // The server holds the answer up to `chunk` seconds by design.
            timeoutMs: (chunk + 30) * 1000,
          });
          remaining = timeoutSeconds - (Date.now() - started) / 1000;
          // Only a wait we split ourselves goes on; an early answer from the server is reported as it is.
        } while (!isTerminal(op) && chunk === MAX_SERVER_WAIT_SECONDS && remaining >= 1);
        return progressAnswer(op, Math.round((Date.now() - started) / 1000));
      } finally {
        stopHeartbeat();
      }
    },
  });
}

function heartbeat(ctx: ToolContext, started: number, total: number): () => void {
  const timer = setInterval(() => {
    const elapsed = Math.round((Date.now() - started) / 1000);
    void ctx.progress(elapsed, total, `still waiting for the operation (${elapsed} s of up to ${total} s)`);
  }, HEARTBEAT_MS);
  return () => clearInterval(timer);
}
