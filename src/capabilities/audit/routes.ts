import { Readable } from 'node:stream';
import { AuditPageSchema, ExportAuditQuerySchema, ListAuditQuerySchema } from '../../domain/schemas/audit.js';
import type { RouteContext } from '../capability.js';
import { AUDIT_PATHS } from './paths.js';
import type { AuditService } from './service.js';

export function registerAuditRoutes({ app, routes, service }: RouteContext<AuditService>): void {
  routes.define(
    app,
    {
      method: 'GET',
      url: AUDIT_PATHS.list,
      operationId: 'listAuditEvents',
      tags: ['audit'],
      summary: 'The audit timeline: every mutating request through any face, newest first, filtered and paged',
      description:
        'One event per mutating request (UI, REST or MCP): when, who (the token’s non-secret id and scope, or local), the face and client the request claimed, the action, target and secret-free input, the answer, and the AWS request ids and Kubernetes objects of the mutating calls it — or the operation it started — made. docs/AUDIT.md.',
      query: ListAuditQuerySchema,
      responses: { 200: { description: 'One page of events', schema: AuditPageSchema } },
    },
    async ({ query }) => service().list(query),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: AUDIT_PATHS.export,
      operationId: 'exportAuditEvents',
      tags: ['audit'],
      summary: 'Every matching audit event as JSON lines (application/x-ndjson), oldest first',
      query: ExportAuditQuerySchema,
      responses: { 200: { description: 'One audit event (as in listAuditEvents) per line' } },
    },
    async ({ query, reply }) => {
      reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit.jsonl"');
      return Readable.from(service().exportLines(query));
    },
  );
}
