import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { LogLine } from '../../../domain/schemas/operations.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { OperationIdSchema, READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { OPERATION_PATHS } from '../paths.js';

/** `get_operation_logs` → GET /api/v1/operations/{id}/events: paged, so a huge log never floods the context. */
export function registerGetOperationLogsTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_operation_logs',
    title: "Read an operation's log",
    description:
      "An operation's log lines (phase, level, time), oldest first, as text in pages; the last line gives the `after` that reads on. Read it before retry_operation_phase.",
    input: z
      .object({
        operationId: OperationIdSchema,
        after: z
          .number()
          .int()
          .min(0)
          .default(0)
          .describe('Lines after this seq (0: from the start). Use nextAfter to page.'),
        limit: z.number().int().min(1).max(1000).default(200).describe('How many lines at most (1–1000, default 200).'),
      })
      .strict(),
    textOnly: 'log lines are text: sent once, in the text, not again as structured content',
    annotations: { ...READ_ONLY, openWorldHint: false },
    async run({ operationId, after, limit }, { api, signal }) {
      const data = await api.get<{ lines: LogLine[]; nextAfter: number }>(
        apiPath(OPERATION_PATHS.events, { id: operationId }),
        {
          query: { after, limit },
          signal,
        },
      );
      const body = data.lines
        .map((l) => `${l.at} ${l.level.toUpperCase()}${l.phase ? ` [${l.phase}]` : ''} ${l.message}`)
        .join('\n');
      const more = data.lines.length >= limit ? 'more may follow: ' : '';
      const next = `(${more}call again with after=${data.nextAfter} for the lines that follow)`;
      return {
        text: data.lines.length ? `${body}\n${next}` : `No log lines after that point ${next}.`,
        data: undefined,
      };
    },
  });
}
