import { defineCapability } from '../capability.js';
import type { AuditPorts } from './ports.js';
import { registerAuditRoutes } from './routes.js';
import { AuditService } from './service.js';
import { registerListAuditEventsTool } from './tools/list-audit-events.js';

/**
 * The audit timeline (issue 30, docs/AUDIT.md): every mutating request through any face, read back with filters and
 * paging, as JSON lines, through MCP and on the UI's Audit page. The events are written by the API layer
 * (src/api/audit-trail.ts) and their cloud calls by the cloud observer (src/cli/audit-observer.ts); this capability
 * only reads them.
 */
export const audit = defineCapability<AuditService, AuditPorts>({
  name: 'audit',
  ports: { auditLog: 'the audit timeline kept in the server’s database (read)' },
  service: (deps) => new AuditService(deps.auditLog, deps.operations),
  routes: registerAuditRoutes,
  tools: [registerListAuditEventsTool],
});

export type { AuditLogPort, AuditPorts } from './ports.js';
/** Its service, as `deps.service(audit)` answers it. */
export type { AuditService };
