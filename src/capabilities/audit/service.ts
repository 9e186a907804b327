import { NotFoundError } from '../../domain/errors.js';
import type { AuditEvent, AuditPage, ExportAuditQuery, ListAuditQuery } from '../../domain/schemas/audit.js';
import type { ServiceOperations } from '../capability.js';
import type { AuditLogFilter, AuditLogPort, KeptAuditEvent } from './ports.js';

/**
 * The audit timeline's reads (docs/AUDIT.md): events newest first, filtered and paged, or every one as JSON lines.
 * An event that started an operation answers that operation's status as it is now — read from the operation, never a
 * copy — or `unknown` once retention removed it.
 */
export class AuditService {
  constructor(
    private readonly log: AuditLogPort,
    private readonly operations: Pick<ServiceOperations, 'get'>,
  ) {}

  list(query: ListAuditQuery): AuditPage {
    const page = this.log.list(filterOf(query), query.limit, query.nextToken ? Number(query.nextToken) : undefined);
    return {
      events: page.events.map((e) => this.withStatus(e)),
      ...(page.nextToken ? { nextToken: page.nextToken } : {}),
    };
  }

  /** Every matching event, oldest first, each one line of JSON. */
  *exportLines(query: ExportAuditQuery): Generator<string> {
    for (const e of this.log.all(filterOf(query))) yield `${JSON.stringify(this.withStatus(e))}\n`;
  }

  private withStatus(e: KeptAuditEvent): AuditEvent {
    if (!e.operationId) return e;
    try {
      return { ...e, operationStatus: this.operations.get(e.operationId).status };
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      return { ...e, operationStatus: 'unknown' };
    }
  }
}

function filterOf(q: ExportAuditQuery): AuditLogFilter {
  return {
    ...(q.since ? { since: q.since } : {}),
    ...(q.until ? { until: q.until } : {}),
    ...(q.face ? { face: q.face } : {}),
    ...(q.kind ? { kind: q.kind } : {}),
    ...(q.target ? { target: q.target } : {}),
    ...(q.outcome ? { outcome: q.outcome } : {}),
  };
}
