import type { LogLine, OperationError, OperationStatus, PhaseStatus } from '../domain/schemas/operations.js';
import type BetterSqlite3 from 'better-sqlite3';
import { probeWrite, type Database } from './database.js';
import {
  encode,
  TERMINAL_LIST,
  toEntry,
  toLogLine,
  toOperation,
  toPhase,
  WITH_PHASES,
  type LogRow,
  type OperationEntry,
  type OperationRecord,
  type OperationRow,
  type OperationWithPhasesRow,
  type PhaseRecord,
  type PhaseRow,
} from './operation-rows.js';
import { guardWrite } from './store-failures.js';

export type { OperationEntry, OperationRecord, PhaseRecord } from './operation-rows.js';

export type NewOperation = Omit<OperationRecord, 'updatedAt' | 'finishedAt' | 'result' | 'error'>;
export type NewPhase = Pick<PhaseRecord, 'name' | 'title' | 'expectedSeconds'>;

/** Fields of an operation that change while it runs; `null` clears an optional field. */
export interface OperationPatch {
  status?: OperationStatus;
  state?: Record<string, unknown>;
  result?: Record<string, unknown> | null;
  error?: OperationError | null;
  finishedAt?: string | null;
}

/** Fields of a phase that change while it runs; `null` clears an optional field. */
export interface PhasePatch {
  status?: PhaseStatus;
  attempts?: number;
  acted?: boolean;
  startedAt?: string | null;
  finishedAt?: string | null;
  progress?: string | null;
  error?: OperationError | null;
  actStartedAt?: string | null;
  waitStartedAt?: string | null;
}

export interface OperationFilter {
  status?: OperationStatus;
  kind?: string;
  target?: string;
  limit?: number;
}

type Statement = BetterSqlite3.Statement;

const OPERATION_COLUMNS: Record<keyof OperationPatch, string> = {
  status: 'status',
  state: 'state',
  result: 'result',
  error: 'error',
  finishedAt: 'finished_at',
};
const PHASE_COLUMNS: Record<keyof PhasePatch, string> = {
  status: 'status',
  attempts: 'attempts',
  acted: 'acted',
  startedAt: 'started_at',
  finishedAt: 'finished_at',
  progress: 'progress',
  error: 'error',
  actStartedAt: 'act_started_at',
  waitStartedAt: 'wait_started_at',
};
/** How many operations' entries {@link OperationsStore.readOperation} keeps (a few KB each). */
const CACHED_ENTRIES = 256;
const FILTER_COLUMNS = ['status', 'kind', 'target'] as const;
const NEWEST_FIRST = 'ORDER BY o.created_at DESC, o.rowid DESC';

/**
 * The operation journal: operations, their phases and their log lines. Every write is synchronous
 * and durable when the call returns, so the engine can journal "acting" and only then call the cloud.
 * Callers group related writes with {@link OperationsStore.transaction}. A write the store itself
 * cannot make (disk full, read-only, I/O error, lock held elsewhere) throws StoreUnavailableError.
 *
 * Statements are prepared once: the fixed ones here in the constructor, the few shapes that depend
 * on which fields a patch or filter names on first use (cached by shape). Reads that return views
 * (`readOperation`, `readOperations`, …) bring each operation's phases in the same query.
 *
 * @example
 * const store = new OperationsStore(openMemoryDatabase());
 * store.createOperation({ id: 'op-1', kind: 'k', target: 't', status: 'pending', input: {}, state: {}, createdAt: now
 * }, [{ name: 'a', title: 'A', expectedSeconds: 5 }]);
 */
export class OperationsStore {
  private readonly sql: ReturnType<typeof prepareFixed>;
  /** Statements whose text depends on a patch's or filter's fields, by that text. */
  private readonly shaped = new Map<string, Statement>();
  /**
   * Entries read by id, until their operation is written: a status page, the wait endpoint and MCP
   * poll one operation over and over, and most of those reads find nothing changed. The journal is
   * this server's alone (the data directory is locked), so its writes are all seen here; retention
   * reports what it removes ({@link forget}). Entries are shared: callers must not change them.
   */
  private readonly entries = new Map<string, OperationEntry>();

  constructor(readonly db: Database) {
    this.sql = prepareFixed(db);
  }

  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE): all its writes land together or not at all. */
  transaction<T>(fn: () => T): T {
    return guardWrite(this.db.name, () => this.db.transaction(fn).immediate());
  }

  /** A committed write that changes nothing: throws StoreUnavailableError while the store cannot be written. */
  probeWrite(): void {
    guardWrite(this.db.name, () => probeWrite(this.db));
  }

  /** Inserts an operation and all its phases (as `pending`, never started) together. */
  createOperation(op: NewOperation, phases: NewPhase[]): OperationRecord {
    return this.transaction(() => {
      const row = this.sql.insertOperation.get(
        op.id,
        op.kind,
        op.target,
        op.status,
        JSON.stringify(op.input),
        JSON.stringify(op.state),
        op.idempotencyKey ?? null,
        op.cloud ?? null,
        op.accountId ?? null,
        op.region ?? null,
        op.createdAt,
        op.createdAt,
      ) as OperationRow;
      phases.forEach((p, index) => this.sql.insertPhase.run(op.id, index, p.name, p.title, p.expectedSeconds));
      return toOperation(row);
    });
  }

  getOperation(id: string): OperationRecord | undefined {
    const row = this.sql.operationById.get(id) as OperationRow | undefined;
    return row && toOperation(row);
  }

  /** The operation with its phases, in one query. */
  readOperation(id: string): OperationEntry | undefined {
    const cached = this.entries.get(id);
    if (cached) return cached;
    const row = this.sql.entryById.get(id) as OperationWithPhasesRow | undefined;
    if (!row) return undefined;
    const entry = toEntry(row);
    // Inside a transaction the row may yet be rolled back: only committed state is kept.
    if (!this.db.inTransaction) this.remember(id, entry);
    return entry;
  }

  /** Drops what is cached of these operations (retention removed them). */
  forget(ids: readonly string[]): void {
    for (const id of ids) this.entries.delete(id);
  }

  findByIdempotencyKey(key: string): OperationRecord | undefined {
    const row = this.sql.operationByKey.get(key) as OperationRow | undefined;
    return row && toOperation(row);
  }

  /** Operations matching every given filter, newest first (default limit 50). */
  listOperations(filter: OperationFilter = {}): OperationRecord[] {
    return (this.filtered('o.*', filter) as OperationRow[]).map(toOperation);
  }

  /** {@link listOperations} with each operation's phases, in one query. */
  readOperations(filter: OperationFilter = {}): OperationEntry[] {
    return (this.filtered(WITH_PHASES, filter) as OperationWithPhasesRow[]).map(toEntry);
  }

  /**
   * The newest operation of one of `kinds` on each target, in one query (oldest target first): e.g.
   * for every cluster, its last create-cluster or delete-cluster and how it ended.
   */
  latestPerTarget(kinds: readonly string[]): OperationRecord[] {
    if (kinds.length === 0) return [];
    return (this.sql.latestPerTarget.all(JSON.stringify(kinds)) as OperationRow[]).map(toOperation);
  }

  /** {@link latestPerTarget} with each operation's phases, in one query. */
  readLatestPerTarget(kinds: readonly string[]): OperationEntry[] {
    if (kinds.length === 0) return [];
    return (this.sql.latestPerTargetEntries.all(JSON.stringify(kinds)) as OperationWithPhasesRow[]).map(toEntry);
  }

  /** Operations not yet succeeded, failed or cancelled, oldest first; `target` narrows to one target. */
  listActive(target?: string): OperationRecord[] {
    const rows = (target === undefined ? this.sql.active.all() : this.sql.activeOn.all(target)) as OperationRow[];
    return rows.map(toOperation);
  }

  /** {@link listActive} with each operation's phases, in one query. */
  readActive(target?: string): OperationEntry[] {
    const rows = (
      target === undefined ? this.sql.activeEntries.all() : this.sql.activeEntriesOn.all(target)
    ) as OperationWithPhasesRow[];
    return rows.map(toEntry);
  }

  /** Applies `patch` and stamps `updatedAt`; returns the updated record. */
  updateOperation(id: string, patch: OperationPatch, updatedAt: string): OperationRecord {
    this.entries.delete(id);
    const sets = ['updated_at = ?'];
    const params: unknown[] = [updatedAt];
    for (const [key, value] of Object.entries(patch) as [keyof OperationPatch, unknown][]) {
      if (value === undefined) continue;
      sets.push(`${OPERATION_COLUMNS[key]} = ?`);
      params.push(encode(value));
    }
    const statement = this.shape(`UPDATE operations SET ${sets.join(', ')} WHERE id = ? RETURNING *`);
    const row = guardWrite(this.db.name, () => statement.get(...params, id)) as OperationRow | undefined;
    if (!row) throw new Error(`Operation ${id} is not in the journal.`);
    return toOperation(row);
  }

  listPhases(operationId: string): PhaseRecord[] {
    return (this.sql.phasesOf.all(operationId) as PhaseRow[]).map(toPhase);
  }

  getPhase(operationId: string, name: string): PhaseRecord | undefined {
    const row = this.sql.phaseByName.get(operationId, name) as PhaseRow | undefined;
    return row && toPhase(row);
  }

  /** Applies `patch` to one phase; returns the updated record. */
  updatePhase(operationId: string, name: string, patch: PhasePatch): PhaseRecord {
    this.entries.delete(operationId);
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [key, value] of Object.entries(patch) as [keyof PhasePatch, unknown][]) {
      if (value === undefined) continue;
      sets.push(`${PHASE_COLUMNS[key]} = ?`);
      params.push(typeof value === 'boolean' ? Number(value) : encode(value));
    }
    if (sets.length === 0) {
      const phase = this.getPhase(operationId, name);
      if (!phase) throw new Error(`Phase ${name} of operation ${operationId} is not in the journal.`);
      return phase;
    }
    const statement = this.shape(
      `UPDATE phases SET ${sets.join(', ')} WHERE operation_id = ? AND name = ? RETURNING *`,
    );
    const row = guardWrite(this.db.name, () => statement.get(...params, operationId, name)) as PhaseRow | undefined;
    if (!row) throw new Error(`Phase ${name} of operation ${operationId} is not in the journal.`);
    return toPhase(row);
  }

  /** Appends a log line with the next sequence number of its operation (one statement: atomic). */
  appendLog(operationId: string, line: Omit<LogLine, 'seq'>): LogLine {
    const { seq } = guardWrite(this.db.name, () =>
      this.sql.appendLog.get(operationId, line.at, line.phase ?? null, line.level, line.message, operationId),
    ) as { seq: number };
    return { seq, ...line };
  }

  /** Log lines with `seq > after`, oldest first, at most `limit`. */
  logLines(operationId: string, after = 0, limit = 200): LogLine[] {
    return (this.sql.logLines.all(operationId, after, limit) as LogRow[]).map(toLogLine);
  }

  private remember(id: string, entry: OperationEntry): void {
    // Oldest out first: a Map iterates in insertion order.
    if (this.entries.size >= CACHED_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, entry);
  }

  private filtered(columns: string, filter: OperationFilter): unknown[] {
    const named = FILTER_COLUMNS.filter((column) => filter[column] !== undefined);
    const where = named.length ? `WHERE ${named.map((column) => `o.${column} = ?`).join(' AND ')}` : '';
    const statement = this.shape(`SELECT ${columns} FROM operations o ${where} ${NEWEST_FIRST} LIMIT ?`);
    return statement.all(...named.map((column) => filter[column]), filter.limit ?? 50);
  }

  /** The prepared statement for `sql`, prepared on its first use (a handful of shapes ever exist). */
  private shape(sql: string): Statement {
    let statement = this.shaped.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.shaped.set(sql, statement);
    }
    return statement;
  }
}

/** Every statement whose text is fixed, prepared once per store. */
function prepareFixed(db: Database) {
  // The newest row per target is picked first, so phases are gathered for the answers only.
  const latest = (columns: string) => `SELECT ${columns} FROM operations o WHERE o.rowid IN (
      SELECT rowid FROM (
        SELECT rowid, ROW_NUMBER() OVER (PARTITION BY target ORDER BY created_at DESC, rowid DESC) AS newest
        FROM operations WHERE kind IN (SELECT value FROM json_each(?))
      ) WHERE newest = 1
    ) ORDER BY o.created_at, o.id`;
  const active = (columns: string, where = '') =>
    `SELECT ${columns} FROM operations o WHERE ${where} o.status NOT IN (${TERMINAL_LIST}) ORDER BY o.created_at, o.rowid`;
  return {
    insertOperation: db.prepare(
      `INSERT INTO operations (id, kind, target, status, input, state, idempotency_key, cloud, account_id, region, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    ),
    insertPhase: db.prepare(
      `INSERT INTO phases (operation_id, idx, name, title, status, expected_seconds) VALUES (?, ?, ?, ?, 'pending', ?)`,
    ),
    operationById: db.prepare('SELECT * FROM operations WHERE id = ?'),
    entryById: db.prepare(`SELECT ${WITH_PHASES} FROM operations o WHERE o.id = ?`),
    operationByKey: db.prepare('SELECT * FROM operations WHERE idempotency_key = ?'),
    latestPerTarget: db.prepare(latest('o.*')),
    latestPerTargetEntries: db.prepare(latest(WITH_PHASES)),
    active: db.prepare(active('o.*')),
    activeOn: db.prepare(active('o.*', 'o.target = ? AND')),
    activeEntries: db.prepare(active(WITH_PHASES)),
    activeEntriesOn: db.prepare(active(WITH_PHASES, 'o.target = ? AND')),
    phasesOf: db.prepare('SELECT * FROM phases WHERE operation_id = ? ORDER BY idx'),
    phaseByName: db.prepare('SELECT * FROM phases WHERE operation_id = ? AND name = ?'),
    // The next number and the insert in one statement, so two writers can never take the same seq.
    appendLog: db.prepare(
      `INSERT INTO operation_log (operation_id, seq, at, phase, level, message)
       SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ? FROM operation_log WHERE operation_id = ? RETURNING seq`,
    ),
    logLines: db.prepare(
      'SELECT seq, at, phase, level, message FROM operation_log WHERE operation_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    ),
  };
}
