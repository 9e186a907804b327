import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { OperationKindSchema } from '../../../domain/operation-kinds.js';
import { OperationStatusSchema, OperationViewSchema, type OperationView } from '../../../domain/schemas/operations.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { OPERATION_PATHS } from '../paths.js';

const InputSchema = z
  .object({
    status: OperationStatusSchema.optional().describe('Only operations in this status, e.g. running or failed.'),
    kind: OperationKindSchema.optional().describe('Only operations of this kind.'),
    target: z
      .string()
      .max(256)
      .optional()
      .describe('Only operations on this target, e.g. cluster/us-west-2/my-cluster.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(200)
      .default(20)
      .describe('How many to return, newest first (1–200, default 20).'),
  })
  .strict();

/** `list_operations` → GET /api/v1/operations. */
export function registerListOperationsTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_operations',
    title: 'List operations',
    description:
      'InstantStart operations, newest first, by status, kind or target. After a lost session, find the running or failed one and continue it instead of starting again.',
    input: InputSchema,
    output: z.object({ operations: z.array(OperationViewSchema) }),
    annotations: { ...READ_ONLY, openWorldHint: false },
    async run(query, { api, signal }) {
      const data = await api.get<{ operations: OperationView[] }>(OPERATION_PATHS.list, { query, signal });
      const lines = data.operations.map(
        (o) => `- ${o.id}: ${o.kind} ${o.target} — ${o.status}${phasesOf(o)}, created ${o.createdAt}`,
      );
      return {
        text: lines.length ? `${lines.length} operation(s):\n${lines.join('\n')}` : 'No matching operations.',
        data,
      };
    },
  });
}

/** ` (phases nat-ready, eks)` while several run side by side, else ` (phase <current>)`. */
function phasesOf(o: OperationView): string {
  const running = o.runningPhases ?? []; // absent from an older server's answer
  if (running.length > 1) return ` (phases ${running.join(', ')})`;
  return o.currentPhase ? ` (phase ${o.currentPhase})` : '';
}
