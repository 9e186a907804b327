import type { AuditEvent } from '../../domain/schemas/audit.js';

/** An audit event as kept: everything but the operation's status, which the service reads from the operation. */
export type KeptAuditEvent = Omit<AuditEvent, 'operationStatus'>;

/** The audit filters the store applies (src/domain/schemas/audit.ts: ListAuditQuerySchema without paging). */
export interface AuditLogFilter {
  since?: string;
  until?: string;
  face?: AuditEvent['face'];
  kind?: string;
  target?: string;
  outcome?: AuditEvent['outcome'];
}

/** The audit timeline as the capability reads it (src/store/audit-store.ts answers it; the API layer writes it). */
export interface AuditLogPort {
  /** One page, newest first; `before` is the previous page's nextToken. */
  list(filter: AuditLogFilter, limit: number, before?: number): { events: KeptAuditEvent[]; nextToken?: string };
  /** Every matching event, oldest first. */
  all(filter: AuditLogFilter): Iterable<KeptAuditEvent>;
}

/** The audit capability's own ports, supplied by the composition root. */
export interface AuditPorts {
  auditLog: AuditLogPort;
}
