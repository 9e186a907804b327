import type { Database } from './database.js';
import { guardWrite } from './store-failures.js';
import type {
  AuditActor,
  AuditAwsCall,
  AuditEvent,
  AuditFace,
  AuditKubeRef,
  AuditOutcome,
} from '../domain/schemas/audit.js';

/** One audit event as the store keeps it: everything but the operation's status, which is read from the operation. */
export type AuditEventRecord = Omit<AuditEvent, 'operationStatus'>;

/** What is recorded when a mutating request has been answered (its calls are recorded as they are made). */
export type NewAuditEvent = Omit<AuditEventRecord, 'awsCalls' | 'kubeRefs'>;

/** Which event a cloud call belongs to: the request's own, or the operation it started. */
export type AuditCallOwner = { eventId: string } | { operationId: string };

export interface AuditFilter {
  since?: string;
  until?: string;
  face?: AuditFace;
  /** A route action (rebootNodes) or an operation kind (create-cluster). */
  kind?: string;
  /** Text the target contains. */
  target?: string;
  outcome?: AuditOutcome;
}

/**
 * The audit timeline's store (docs/AUDIT.md): events and the mutating cloud calls filed under them. Events are read
 * newest first by their sequence number (the paging token); an event that started an operation (and is not a replay)
 * lists the calls of that operation's phases too. Pruned by retention.ts. Writes the store cannot make throw
 * StoreUnavailableError — the audit trail's callers catch it: a request is not failed for its audit line.
 *
 * @example
 * const audit = new AuditStore(db);
 * audit.addAwsCall({ eventId: 'e1' }, { service: 'sagemaker', operation: 'CreateCluster', region, requestId, at });
 * audit.record({ id: 'e1', … });
 * audit.list({ face: 'mcp' }, 50); // → { events: [{ id: 'e1', awsCalls: [{ requestId, … }], … }] }
 */
export class AuditStore {
  private readonly sql: ReturnType<typeof prepare>;

  constructor(private readonly db: Database) {
    this.sql = prepare(db);
  }

  record(e: NewAuditEvent): void {
    guardWrite(this.db.name, () =>
      this.sql.insert.run({
        id: e.id,
        at: e.at,
        actor: JSON.stringify(e.actor),
        face: e.face,
        client: e.client ?? null,
        method: e.method,
        route: e.route,
        action: e.action,
        target: e.target,
        input: e.input === undefined ? null : JSON.stringify(e.input),
        input_digest: e.inputDigest ?? null,
        status: e.status,
        outcome: e.outcome,
        replay: e.replay ? 1 : 0,
        error: e.error ?? null,
        operation_id: e.operationId ?? null,
        operation_kind: e.operationKind ?? null,
      }),
    );
  }

  addAwsCall(owner: AuditCallOwner, call: AuditAwsCall): void {
    this.addCall(owner, 'aws', call.at, call);
  }

  addKubeRef(owner: AuditCallOwner, ref: AuditKubeRef): void {
    this.addCall(owner, 'kube', ref.at, ref);
  }

  private addCall(owner: AuditCallOwner, type: 'aws' | 'kube', at: string, detail: object): void {
    guardWrite(this.db.name, () =>
      this.sql.insertCall.run(
        'eventId' in owner ? owner.eventId : null,
        'operationId' in owner ? owner.operationId : null,
        type,
        at,
        JSON.stringify(detail),
      ),
    );
  }

  /** One page, newest first: `before` is the previous page's nextToken (a sequence number). */
  list(filter: AuditFilter, limit: number, before?: number): { events: AuditEventRecord[]; nextToken?: string } {
    const rows = this.sql.list.all({ ...params(filter), before: before ?? null, limit: limit + 1 }) as Row[];
    const page = rows.slice(0, limit);
    const events = page.map((r) => this.withCalls(r));
    return rows.length > limit ? { events, nextToken: String(page.at(-1)!.seq) } : { events };
  }

  /** Every matching event, oldest first, a batch at a time (the JSON-lines export). */
  *all(filter: AuditFilter, batch = 500): Generator<AuditEventRecord> {
    let after = 0;
    for (;;) {
      const rows = this.sql.forward.all({ ...params(filter), after, limit: batch }) as Row[];
      for (const r of rows) yield this.withCalls(r);
      if (rows.length < batch) return;
      after = rows.at(-1)!.seq;
    }
  }

  get(id: string): AuditEventRecord | undefined {
    const row = this.sql.one.get(id) as Row | undefined;
    return row ? this.withCalls(row) : undefined;
  }

  private withCalls(r: Row): AuditEventRecord {
    const operationId = r.replay ? null : r.operation_id;
    const calls = this.sql.calls.all({ event: r.id, op: operationId }) as Array<{ type: string; detail: string }>;
    const awsCalls: AuditAwsCall[] = [];
    const kubeRefs: AuditKubeRef[] = [];
    for (const c of calls) {
      if (c.type === 'aws') awsCalls.push(JSON.parse(c.detail) as AuditAwsCall);
      else kubeRefs.push(JSON.parse(c.detail) as AuditKubeRef);
    }
    return {
      id: r.id,
      at: r.at,
      actor: JSON.parse(r.actor) as AuditActor,
      face: r.face as AuditFace,
      ...(r.client !== null ? { client: r.client } : {}),
      method: r.method,
      route: r.route,
      action: r.action,
      target: r.target,
      ...(r.input !== null ? { input: JSON.parse(r.input) as unknown } : {}),
      ...(r.input_digest !== null ? { inputDigest: r.input_digest } : {}),
      status: r.status,
      outcome: r.outcome as AuditOutcome,
      replay: r.replay === 1,
      ...(r.error !== null ? { error: r.error } : {}),
      ...(r.operation_id !== null ? { operationId: r.operation_id } : {}),
      ...(r.operation_kind !== null ? { operationKind: r.operation_kind } : {}),
      awsCalls,
      kubeRefs,
    };
  }
}

interface Row {
  seq: number;
  id: string;
  at: string;
  actor: string;
  face: string;
  client: string | null;
  method: string;
  route: string;
  action: string;
  target: string;
  input: string | null;
  input_digest: string | null;
  status: number;
  outcome: string;
  replay: number;
  error: string | null;
  operation_id: string | null;
  operation_kind: string | null;
}

const params = (f: AuditFilter) => ({
  since: f.since ? new Date(f.since).toISOString() : null,
  until: f.until ? new Date(f.until).toISOString() : null,
  face: f.face ?? null,
  kind: f.kind ?? null,
  target: f.target ?? null,
  outcome: f.outcome ?? null,
});

const WHERE = `(@since IS NULL OR at >= @since) AND (@until IS NULL OR at < @until)
  AND (@face IS NULL OR face = @face) AND (@kind IS NULL OR action = @kind OR operation_kind = @kind)
  AND (@target IS NULL OR instr(target, @target) > 0) AND (@outcome IS NULL OR outcome = @outcome)`;

function prepare(db: Database) {
  return {
    insert: db.prepare(`INSERT INTO audit_events (id, at, actor, face, client, method, route, action, target, input,
      input_digest, status, outcome, replay, error, operation_id, operation_kind) VALUES (@id, @at, @actor, @face,
      @client, @method, @route, @action, @target, @input, @input_digest, @status, @outcome, @replay, @error,
      @operation_id, @operation_kind)`),
    insertCall: db.prepare('INSERT INTO audit_calls (event_id, operation_id, type, at, detail) VALUES (?, ?, ?, ?, ?)'),
    list: db.prepare(
      `SELECT * FROM audit_events WHERE ${WHERE} AND (@before IS NULL OR seq < @before) ORDER BY seq DESC LIMIT @limit`,
    ),
    forward: db.prepare(`SELECT * FROM audit_events WHERE ${WHERE} AND seq > @after ORDER BY seq LIMIT @limit`),
    one: db.prepare('SELECT * FROM audit_events WHERE id = ?'),
    calls: db.prepare(
      `SELECT type, detail FROM audit_calls WHERE event_id = @event OR (@op IS NOT NULL AND operation_id = @op) ORDER BY seq`,
    ),
  };
}
