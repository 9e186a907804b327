import type { CloudKind, LogLine, OperationError, OperationStatus, PhaseStatus } from '../domain/schemas/operations.js';
import { TERMINAL_OPERATION_STATUSES } from '../domain/schemas/operations.js';

/**
 * How the journal's records look in SQLite and back: row types, the converters, and the SQL that
 * reads an operation together with its phases. Kept apart from the store class so the class reads as
 * its operations only.
 */

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
  /**
   * When the phase's current change first journaled "acting" (kept when act runs again after a restart or a
   * transient error): its act deadline counts from here. Absent until it acts; cleared by a new attempt and by
   * `observeAgain`.
   */
  actStartedAt?: string;
  /** When the phase began waiting for its current change: its wait deadline counts from here (cleared likewise). */
  waitStartedAt?: string;
}

/** An operation with its phases in order, read in one query. */
export interface OperationEntry {
  operation: OperationRecord;
  phases: PhaseRecord[];
}

export interface OperationRow {
  id: string;
  kind: string;
  target: string;
  status: string;
  input: string;
  state: string;
  result: string | null;
  error: string | null;
  idempotency_key: string | null;
  cloud: string | null;
  account_id: string | null;
  region: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}
export interface PhaseRow {
  operation_id: string;
  idx: number;
  name: string;
  title: string;
  status: string;
  attempts: number;
  acted: number;
  started_at: string | null;
  finished_at: string | null;
  progress: string | null;
  error: string | null;
  expected_seconds: number;
  act_started_at: string | null;
  wait_started_at: string | null;
}
export interface LogRow {
  seq: number;
  at: string;
  phase: string | null;
  level: string;
  message: string;
}

/** `'succeeded', 'failed', 'cancelled'` for SQL `IN (…)`: constants of this build, never user input. */
export const TERMINAL_LIST = TERMINAL_OPERATION_STATUSES.map((s) => `'${s}'`).join(', ');

/** The phase columns, in the order of each array in `phases_json`. */
const PHASE_TUPLE =
  'p.idx, p.name, p.title, p.status, p.attempts, p.acted, p.started_at, p.finished_at, p.progress, p.error, p.expected_seconds, p.act_started_at, p.wait_started_at';
type PhaseTuple = [
  number,
  string,
  string,
  string,
  number,
  number,
  string | null,
  string | null,
  string | null,
  string | null,
  number,
  string | null,
  string | null,
];

/**
 * Selects every operation column plus `phases_json`: the operation's phases as one JSON array of
 * arrays (PHASE_TUPLE), in order, built by SQLite in the same statement (json_group_array … ORDER BY,
 * SQLite ≥ 3.44). Reading a list of operations is then one query, not one more per operation; arrays
 * rather than objects because they are half the work for SQLite and for JSON.parse. `o` is the
 * operations table's alias.
 */
export const WITH_PHASES = `o.*, (
  SELECT json_group_array(json_array(${PHASE_TUPLE}) ORDER BY p.idx) FROM phases p WHERE p.operation_id = o.id
) AS phases_json`;

export type OperationWithPhasesRow = OperationRow & { phases_json: string };

/** JSON-encodes objects, keeps strings and numbers, maps `null` to SQL NULL. */
export function encode(value: unknown): unknown {
  if (value === null) return null;
  return typeof value === 'object' ? JSON.stringify(value) : value;
}

export function toOperation(row: OperationRow): OperationRecord {
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

export function toPhase(row: PhaseRow): PhaseRecord {
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
    ...(row.act_started_at === null ? {} : { actStartedAt: row.act_started_at }),
    ...(row.wait_started_at === null ? {} : { waitStartedAt: row.wait_started_at }),
  };
}

/** An operation row with its `phases_json` → the record and its phase records. */
export function toEntry(row: OperationWithPhasesRow): OperationEntry {
  // json_group_array over no rows gives '[]'.
  const phases = (JSON.parse(row.phases_json) as PhaseTuple[]).map(
    ([
      idx,
      name,
      title,
      status,
      attempts,
      acted,
      started_at,
      finished_at,
      progress,
      error,
      expected_seconds,
      act_started_at,
      wait_started_at,
    ]) =>
      toPhase({
        operation_id: row.id,
        idx,
        name,
        title,
        status,
        attempts,
        acted,
        started_at,
        finished_at,
        progress,
        error,
        expected_seconds,
        act_started_at,
        wait_started_at,
      }),
  );
  return { operation: toOperation(row), phases };
}

export function toLogLine(r: LogRow): LogLine {
  return {
    seq: r.seq,
    at: r.at,
    ...(r.phase === null ? {} : { phase: r.phase }),
    level: r.level as LogLine['level'],
    message: r.message,
  };
}
