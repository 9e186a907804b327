import type { CloudKind, LogLine, OperationError, OperationStatus, PhaseStatus } from '../domain/schemas/operations.js';
import { TERMINAL_OPERATION_STATUSES } from '../domain/schemas/operations.js';
import { probeWrite, type Database } from './database.js';
import { guardWrite } from './store-failures.js';

/** One operation as journaled. JSON columns come back parsed. */
export interface OperationRecord {
  id: string;
  kind: string;
  target: string;
  status: OperationStatus;
  input: Record<string, unknown>;
  state: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: OperationError;
  idempotencyKey?: string;
  /** Where the operation acts; absent on operations journaled before this was recorded (unknown). */
  cloud?: CloudKind;
  accountId?: string;
  region?: string;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}

/** One phase of an operation as journaled. */
export interface PhaseRecord {
  operationId: string;
  index: number;
  name: string;
  title: string;
  status: PhaseStatus;
  /** How many times the phase started; a retry adds one, a resume after a restart does not. */
  attempts: number;
  /** True once any attempt journaled "acting": the phase may have changed something in the cloud. */
  acted: boolean;
  startedAt?: string;
  finishedAt?: string;
  progress?: string;
  error?: OperationError;
  expectedSeconds: number;
}

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
}

export interface OperationFilter {
  status?: OperationStatus;
  kind?: string;
  target?: string;
  limit?: number;
}

interface OperationRow {
  id: string; kind: string; target: string; status: string; input: string; state: string;
  result: string | null; error: string | null; idempotency_key: string | null;
  cloud: string | null; account_id: string | null; region: string | null;
  created_at: string; updated_at: string; finished_at: string | null;
}
interface PhaseRow {
  operation_id: string; idx: number; name: string; title: string; status: string; attempts: number; acted: number;
  started_at: string | null; finished_at: string | null; progress: string | null; error: string | null; expected_seconds: number;
}
interface LogRow { seq: number; at: string; phase: string | null; level: string; message: string }

const OPERATION_COLUMNS: Record<keyof OperationPatch, string> = {
  status: 'status', state: 'state', result: 'result', error: 'error', finishedAt: 'finished_at',
};
const PHASE_COLUMNS: Record<keyof PhasePatch, string> = {
  status: 'status', attempts: 'attempts', acted: 'acted', startedAt: 'started_at',
  finishedAt: 'finished_at', progress: 'progress', error: 'error',
};
const TERMINAL_LIST = TERMINAL_OPERATION_STATUSES.map((s) => `'${s}'`).join(', ');

/**
 * The operation journal: operations, their phases and their log lines. Every write is synchronous
 * and durable when the call returns, so the engine can journal "acting" and only then call the cloud.
 * Callers group related writes with {@link OperationsStore.transaction}. A write the store itself
 * cannot make (disk full, read-only, I/O error, lock held elsewhere) throws StoreUnavailableError.
 *
 * @example
 * const store = new OperationsStore(openMemoryDatabase());
 * store.createOperation({ id: 'op-1', kind: 'k', target: 't', status: 'pending', input: {}, state: {}, createdAt: now }, [{ name: 'a', title: 'A', expectedSeconds: 5 }]);
 */
export class OperationsStore {
  constructor(readonly db: Database) {}

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
      this.db
        .prepare(
          `INSERT INTO operations (id, kind, target, status, input, state, idempotency_key, cloud, account_id, region, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          op.id, op.kind, op.target, op.status, JSON.stringify(op.input), JSON.stringify(op.state), op.idempotencyKey ?? null,
          op.cloud ?? null, op.accountId ?? null, op.region ?? null, op.createdAt, op.createdAt,
        );
      const insertPhase = this.db.prepare(
        `INSERT INTO phases (operation_id, idx, name, title, status, expected_seconds) VALUES (?, ?, ?, ?, 'pending', ?)`,
      );
      phases.forEach((p, index) => insertPhase.run(op.id, index, p.name, p.title, p.expectedSeconds));
      return this.getOperation(op.id)!;
    });
  }

  getOperation(id: string): OperationRecord | undefined {
    const row = this.db.prepare('SELECT * FROM operations WHERE id = ?').get(id) as OperationRow | undefined;
    return row && toOperation(row);
  }

  findByIdempotencyKey(key: string): OperationRecord | undefined {
    const row = this.db.prepare('SELECT * FROM operations WHERE idempotency_key = ?').get(key) as OperationRow | undefined;
    return row && toOperation(row);
  }

  /** Operations matching every given filter, newest first (default limit 50). */
  listOperations(filter: OperationFilter = {}): OperationRecord[] {
    const where: string[] = [];
    const params: unknown[] = [];
    for (const column of ['status', 'kind', 'target'] as const) {
      if (filter[column] !== undefined) {
        where.push(`${column} = ?`);
        params.push(filter[column]);
      }
    }
    const sql = `SELECT * FROM operations ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
                 ORDER BY created_at DESC, rowid DESC LIMIT ?`;
    const rows = this.db.prepare(sql).all(...params, filter.limit ?? 50) as OperationRow[];
    return rows.map(toOperation);
  }

  /**
   * The newest operation of one of `kinds` on each target, in one query (oldest target first): e.g.
   * for every cluster, its last create-cluster or delete-cluster and how it ended.
   */
  latestPerTarget(kinds: readonly string[]): OperationRecord[] {
    if (kinds.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT * FROM (
           SELECT *, ROW_NUMBER() OVER (PARTITION BY target ORDER BY created_at DESC, rowid DESC) AS newest
           FROM operations WHERE kind IN (${kinds.map(() => '?').join(', ')})
         ) WHERE newest = 1 ORDER BY created_at, id`,
      )
      .all(...kinds) as OperationRow[];
    return rows.map(toOperation);
  }

  /** Operations not yet succeeded, failed or cancelled, oldest first; `target` narrows to one target. */
  listActive(target?: string): OperationRecord[] {
    const rows = (
      target === undefined
        ? this.db.prepare(`SELECT * FROM operations WHERE status NOT IN (${TERMINAL_LIST}) ORDER BY created_at, rowid`).all()
        : this.db.prepare(`SELECT * FROM operations WHERE target = ? AND status NOT IN (${TERMINAL_LIST}) ORDER BY created_at, rowid`).all(target)
    ) as OperationRow[];
    return rows.map(toOperation);
  }

  /** Applies `patch` and stamps `updatedAt`; returns the updated record. */
  updateOperation(id: string, patch: OperationPatch, updatedAt: string): OperationRecord {
    const sets = ['updated_at = ?'];
    const params: unknown[] = [updatedAt];
    for (const [key, value] of Object.entries(patch) as [keyof OperationPatch, unknown][]) {
      if (value === undefined) continue;
      sets.push(`${OPERATION_COLUMNS[key]} = ?`);
      params.push(encode(value));
    }
    const info = guardWrite(this.db.name, () => this.db.prepare(`UPDATE operations SET ${sets.join(', ')} WHERE id = ?`).run(...params, id));
    if (info.changes === 0) throw new Error(`Operation ${id} is not in the journal.`);
    return this.getOperation(id)!;
  }

  listPhases(operationId: string): PhaseRecord[] {
    const rows = this.db.prepare('SELECT * FROM phases WHERE operation_id = ? ORDER BY idx').all(operationId) as PhaseRow[];
    return rows.map(toPhase);
  }

  getPhase(operationId: string, name: string): PhaseRecord | undefined {
    const row = this.db.prepare('SELECT * FROM phases WHERE operation_id = ? AND name = ?').get(operationId, name) as PhaseRow | undefined;
    return row && toPhase(row);
  }

  /** Applies `patch` to one phase; returns the updated record. */
  updatePhase(operationId: string, name: string, patch: PhasePatch): PhaseRecord {
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [key, value] of Object.entries(patch) as [keyof PhasePatch, unknown][]) {
      if (value === undefined) continue;
      sets.push(`${PHASE_COLUMNS[key]} = ?`);
      params.push(typeof value === 'boolean' ? Number(value) : encode(value));
    }
    if (sets.length > 0) {
      const info = guardWrite(this.db.name, () => this.db.prepare(`UPDATE phases SET ${sets.join(', ')} WHERE operation_id = ? AND name = ?`).run(...params, operationId, name));
      if (info.changes === 0) throw new Error(`Phase ${name} of operation ${operationId} is not in the journal.`);
    }
    return this.getPhase(operationId, name)!;
  }

  /** Appends a log line with the next sequence number of its operation. */
  appendLog(operationId: string, line: Omit<LogLine, 'seq'>): LogLine {
    return this.transaction(() => {
      const { next } = this.db
        .prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM operation_log WHERE operation_id = ?')
        .get(operationId) as { next: number };
      this.db
        .prepare('INSERT INTO operation_log (operation_id, seq, at, phase, level, message) VALUES (?, ?, ?, ?, ?, ?)')
        .run(operationId, next, line.at, line.phase ?? null, line.level, line.message);
      return { seq: next, ...line };
    });
  }

  /** Log lines with `seq > after`, oldest first, at most `limit`. */
  logLines(operationId: string, after = 0, limit = 200): LogLine[] {
    const rows = this.db
      .prepare('SELECT seq, at, phase, level, message FROM operation_log WHERE operation_id = ? AND seq > ? ORDER BY seq LIMIT ?')
      .all(operationId, after, limit) as LogRow[];
    return rows.map((r) => ({
      seq: r.seq,
      at: r.at,
      ...(r.phase === null ? {} : { phase: r.phase }),
      level: r.level as LogLine['level'],
      message: r.message,
    }));
  }
}

/** JSON-encodes objects, keeps strings and numbers, maps `null` to SQL NULL. */
function encode(value: unknown): unknown {
  if (value === null) return null;
  return typeof value === 'object' ? JSON.stringify(value) : value;
}

function toOperation(row: OperationRow): OperationRecord {
  return {
    id: row.id,
    kind: row.kind,
    target: row.target,
    status: row.status as OperationStatus,
    input: JSON.parse(row.input) as Record<string, unknown>,
    state: JSON.parse(row.state) as Record<string, unknown>,
    ...(row.result === null ? {} : { result: JSON.parse(row.result) as Record<string, unknown> }),
    ...(row.error === null ? {} : { error: JSON.parse(row.error) as OperationError }),
    ...(row.idempotency_key === null ? {} : { idempotencyKey: row.idempotency_key }),
    ...(row.cloud === null ? {} : { cloud: row.cloud as CloudKind }),
    ...(row.account_id === null ? {} : { accountId: row.account_id }),
    ...(row.region === null ? {} : { region: row.region }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.finished_at === null ? {} : { finishedAt: row.finished_at }),
  };
}

function toPhase(row: PhaseRow): PhaseRecord {
  return {
    operationId: row.operation_id,
    index: row.idx,
    name: row.name,
    title: row.title,
    status: row.status as PhaseStatus,
    attempts: row.attempts,
    acted: row.acted !== 0,
    ...(row.started_at === null ? {} : { startedAt: row.started_at }),
    ...(row.finished_at === null ? {} : { finishedAt: row.finished_at }),
    ...(row.progress === null ? {} : { progress: row.progress }),
    ...(row.error === null ? {} : { error: JSON.parse(row.error) as OperationError }),
    expectedSeconds: row.expected_seconds,
  };
}
