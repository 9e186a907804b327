import type BetterSqlite3 from 'better-sqlite3';
import type { Database } from './database.js';
import { TERMINAL_LIST } from './operation-rows.js';
import { guardWrite } from './store-failures.js';

/** How long finished operations, their log lines and idempotency keys stay in the journal. */
export interface RetentionPolicy {
  /**
   * A finished (succeeded, failed, cancelled) operation is removed this many days after it ended; an
   * idempotency key this many days after its request (a retry later than that is a new request).
   */
  maxAgeDays: number;
  /** At most this many finished operations are kept, and as many idempotency keys: beyond them, the oldest go first. */
  maxOperations: number;
  /** Each operation keeps at most this many log lines: its newest. */
  maxLogLinesPerOperation: number;
}

/** 30 days, 1,000 finished operations, 5,000 log lines each: a year of daily use stays a few MB. */
/** Audit events are kept as long as operations (maxAgeDays), and at most this many times maxOperations of them. */
export const AUDIT_EVENTS_PER_OPERATION = 10;

export const DEFAULT_RETENTION: RetentionPolicy = {
  maxAgeDays: 30,
  maxOperations: 1000,
  maxLogLinesPerOperation: 5000,
};

/** What one batch removed; `more` when it stopped at its bound with work left. */
export interface PruneResult {
  operations: number;
  logLines: number;
  /** Idempotency keys removed (src/store/idempotency-store.ts). */
  idempotencyKeys: number;
  /** Audit events removed (src/store/audit-store.ts), with the cloud calls filed under them. */
  auditEvents: number;
  more: boolean;
}

/** Refuses a policy that would remove everything or nothing sensible (0, negative, not a number). */
export function checkRetentionPolicy(policy: RetentionPolicy): RetentionPolicy {
  if (!(policy.maxAgeDays > 0))
    throw new RangeError(`retention days must be a number greater than 0, got ${policy.maxAgeDays}`);
  for (const [name, value] of [
    ['retention max operations', policy.maxOperations],
    ['retention log lines', policy.maxLogLinesPerOperation],
  ] as const) {
    if (!Number.isInteger(value) || value < 1)
      throw new RangeError(`${name} must be a whole number of at least 1, got ${value}`);
  }
  return policy;
}

/**
 * Removes what the policy no longer keeps, a bounded batch at a time, each batch one transaction:
 * finished operations (their phases and log lines go with them: ON DELETE CASCADE) and the oldest log
 * lines of operations with too many.
 *
 * Never removed, whatever their age: an unfinished operation (it may still be running, or be
 * resumed), and the newest operation of each kind on each target. Views read "the latest operation per
 * target" (a cluster whose create or delete failed is listed from its latest create-cluster or
 * delete-cluster, src/workflows/cluster-views.ts); keeping the newest of every kind keeps that answer
 * the same for any set of kinds, so retention never makes a half-made cluster disappear.
 *
 * @example
 * const retention = new OperationsRetention(db, DEFAULT_RETENTION);
 * while (retention.pruneBatch(new Date()).more) await setImmediate();
 */
export class OperationsRetention {
  private readonly sql: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Database,
    readonly policy: RetentionPolicy = DEFAULT_RETENTION,
    private readonly batchSize = 200,
    /** Told the ids of the operations each batch removed (the store forgets what it cached of them). */
    private readonly removed?: (operationIds: readonly string[]) => void,
  ) {
    checkRetentionPolicy(policy);
    this.sql = prepare(db);
  }

  /** One batch: at most `batchSize` operations removed and `batchSize` operations' logs trimmed. */
  pruneBatch(now: Date): PruneResult {
    const cutoff = new Date(now.getTime() - this.policy.maxAgeDays * 86_400_000).toISOString();
    const result = guardWrite(this.db.name, () =>
      this.db
        .transaction((): PruneResult & { removedIds: string[] } => {
          const expired = (
            this.sql.expired.all(cutoff, this.policy.maxOperations, this.batchSize + 1) as Array<{ id: string }>
          ).map((r) => r.id);
          const doomed = expired.slice(0, this.batchSize);
          const logLinesBefore = doomed.length ? (this.sql.logCount.get(JSON.stringify(doomed)) as { n: number }).n : 0;
          const operations = doomed.length ? this.sql.deleteOperations.run(JSON.stringify(doomed)).changes : 0;
          const long = this.sql.longLogs.all(this.policy.maxLogLinesPerOperation, this.batchSize + 1) as Array<{
            id: string;
            last: number;
          }>;
          let trimmed = 0;
          for (const { id, last } of long.slice(0, this.batchSize)) {
            trimmed += this.sql.trimLog.run(id, last - this.policy.maxLogLinesPerOperation).changes;
          }
          const keys = this.sql.expiredKeys.all(cutoff, this.policy.maxOperations, this.batchSize + 1) as Array<{
            key: string;
          }>;
          const idempotencyKeys = keys.length
            ? this.sql.deleteKeys.run(JSON.stringify(keys.slice(0, this.batchSize).map((k) => k.key))).changes
            : 0;
          const events = this.sql.expiredEvents.all(
            cutoff,
            this.policy.maxOperations * AUDIT_EVENTS_PER_OPERATION,
            this.batchSize + 1,
          ) as Array<{ id: string }>;
          const eventIds = JSON.stringify(events.slice(0, this.batchSize).map((e) => e.id));
          const auditEvents = events.length ? this.sql.deleteEvents.run(eventIds).changes : 0;
          if (events.length) this.sql.deleteEventCalls.run(eventIds);
          // Calls filed under an operation go by age (the event that started it may be newer than the cutoff only
          // when the operation ran that long: its calls then outlive it by at most that).
          const oldCalls = this.sql.deleteOldCalls.run(cutoff, this.batchSize * 10).changes;
          const more =
            expired.length > this.batchSize ||
            long.length > this.batchSize ||
            keys.length > this.batchSize ||
            events.length > this.batchSize ||
            oldCalls >= this.batchSize * 10;
          return {
            operations,
            logLines: logLinesBefore + trimmed,
            idempotencyKeys,
            auditEvents,
            more,
            removedIds: doomed,
          };
        })
        .immediate(),
    );
    const { removedIds, ...pruned } = result;
    if (removedIds.length) this.removed?.(removedIds);
    return pruned;
  }
}

type Statements = Record<
  | 'expired'
  | 'logCount'
  | 'deleteOperations'
  | 'longLogs'
  | 'trimLog'
  | 'expiredKeys'
  | 'deleteKeys'
  | 'expiredEvents'
  | 'deleteEvents'
  | 'deleteEventCalls'
  | 'deleteOldCalls',
  BetterSqlite3.Statement
>;

function prepare(db: Database): Statements {
  return {
    // Finished, not the newest of its kind on its target, and either ended before the cutoff or beyond
    // the newest `maxOperations` finished ones. Oldest first.
    expired: db.prepare(`
      SELECT id FROM (
        SELECT id, status, COALESCE(finished_at, updated_at) AS ended,
          ROW_NUMBER() OVER (PARTITION BY target, kind ORDER BY created_at DESC, rowid DESC) AS newest_of_kind,
          ROW_NUMBER() OVER (PARTITION BY status IN (${TERMINAL_LIST}) ORDER BY created_at DESC, rowid DESC) AS finished_rank
        FROM operations
      )
      WHERE status IN (${TERMINAL_LIST}) AND newest_of_kind > 1 AND (ended < ? OR finished_rank > ?)
      ORDER BY ended LIMIT ?`),
    logCount: db.prepare(
      'SELECT COUNT(*) AS n FROM operation_log WHERE operation_id IN (SELECT value FROM json_each(?))',
    ),
    deleteOperations: db.prepare('DELETE FROM operations WHERE id IN (SELECT value FROM json_each(?))'),
    // Sequence numbers run 1, 2, 3… per operation and only a prefix is ever removed, so last - first + 1
    // is the count; each MIN/MAX is one index probe.
    longLogs: db.prepare(`
      SELECT id, last FROM (
        SELECT o.id,
          (SELECT MAX(seq) FROM operation_log l WHERE l.operation_id = o.id) AS last,
          (SELECT MIN(seq) FROM operation_log l WHERE l.operation_id = o.id) AS first
        FROM operations o
      ) WHERE last - first + 1 > ? LIMIT ?`),
    trimLog: db.prepare('DELETE FROM operation_log WHERE operation_id = ? AND seq <= ?'),
    // Keys sent before the cutoff, or beyond the newest `maxOperations`: a replay that late is answered
    // as a new request (docs/API.md → Idempotency-Key). Oldest first.
    expiredKeys: db.prepare(`
      SELECT key FROM (SELECT key, created_at, ROW_NUMBER() OVER (ORDER BY created_at DESC, key) AS rank FROM idempotency_keys)
      WHERE created_at < ? OR rank > ? ORDER BY created_at LIMIT ?`),
    deleteKeys: db.prepare('DELETE FROM idempotency_keys WHERE key IN (SELECT value FROM json_each(?))'),
    // Audit events before the cutoff, or beyond the newest `maxOperations × AUDIT_EVENTS_PER_OPERATION`. Oldest first.
    expiredEvents: db.prepare(`
      SELECT id FROM (SELECT id, seq, at, ROW_NUMBER() OVER (ORDER BY seq DESC) AS rank FROM audit_events)
      WHERE at < ? OR rank > ? ORDER BY seq LIMIT ?`),
    deleteEvents: db.prepare('DELETE FROM audit_events WHERE id IN (SELECT value FROM json_each(?))'),
    deleteEventCalls: db.prepare('DELETE FROM audit_calls WHERE event_id IN (SELECT value FROM json_each(?))'),
    deleteOldCalls: db.prepare(
      'DELETE FROM audit_calls WHERE seq IN (SELECT seq FROM audit_calls WHERE at < ? ORDER BY seq LIMIT ?)',
    ),
  };
}
