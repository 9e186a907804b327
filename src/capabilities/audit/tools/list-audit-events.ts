import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { AuditPageSchema, ListAuditQuerySchema, type AuditPage } from '../../../domain/schemas/audit.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { AUDIT_PATHS } from '../paths.js';

// The list's query (ListAuditQuerySchema) with the field descriptions short: tools/list has a budget (docs/MCP.md).
const InputSchema = z
  .object({
    since: ListAuditQuerySchema.shape.since.describe('From this time.'),
    until: ListAuditQuerySchema.shape.until.describe('Before this time.'),
    face: z.enum(['ui', 'rest', 'mcp']).optional().describe('The face.'),
    kind: ListAuditQuerySchema.shape.kind.describe('An action (rebootNodes) or operation kind.'),
    target: ListAuditQuerySchema.shape.target.describe('Text in the target.'),
    outcome: z.enum(['accepted', 'refused', 'failed']).optional().describe('The answer.'),
    limit: z.number().int().min(1).max(500).default(20).describe('Per page.'),
    nextToken: ListAuditQuerySchema.shape.nextToken.describe('From the last page.'),
  })
  .strict();

/** `list_audit_events` → GET /api/v1/audit. */
export function registerListAuditEventsTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_audit_events',
    title: 'List audit events',
    description:
      'Who changed what, newest first: each mutating request through the UI, REST or MCP, with its token id, outcome and AWS request ids.',
    input: InputSchema,
    output: AuditPageSchema,
    annotations: { ...READ_ONLY, openWorldHint: false },
    async run(query, { api, signal }) {
      const data = await api.get<AuditPage>(AUDIT_PATHS.list, { query, signal });
      const lines = data.events.map(
        (e) =>
          `- ${e.at} ${e.face}${e.client ? ` (${e.client})` : ''} ${e.actor.tokenId ?? e.actor.kind}: ${e.action} ${e.target} → ${e.status} ${e.outcome}${e.replay ? ' (replay)' : ''}${e.operationStatus ? `, operation ${e.operationId} ${e.operationStatus}` : ''}, ${e.awsCalls.length} AWS call(s)`,
      );
      const more = data.nextToken ? `\nMore: call again with nextToken ${data.nextToken}.` : '';
      return {
        text: lines.length ? `${lines.length} event(s):\n${lines.join('\n')}${more}` : 'No matching audit events.',
        data,
      };
    },
  });
}
