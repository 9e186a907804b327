import type {
  OperationPause,
  OperationSnapshot,
  OperationStatus,
  PhaseStatus,
  PhaseView,
} from '../domain/schemas/operations.js';
import { TERMINAL_OPERATION_STATUSES } from '../domain/schemas/operations.js';
import type { OperationRecord, PhaseRecord } from '../store/operations-store.js';
import type { PhaseNeeds } from './phase-graph.js';

export function isTerminal(status: OperationStatus): boolean {
  return TERMINAL_OPERATION_STATUSES.includes(status);
}

/** Phase states in which a phase has finished for good (the operation moves past it). */
export function isPhaseComplete(status: PhaseStatus): boolean {
  return status === 'succeeded' || status === 'skipped';
}

/** Phase states in which work is (or was, before a crash) under way. */
export function isPhaseActive(status: PhaseStatus): boolean {
  return status === 'observing' || status === 'acting' || status === 'awaiting';
}

/**
 * The phase a person should look at: the first one working (several may run side by side: see
 * `runningPhases`); else the failed or cancelled one; else, while the operation is still going, the
 * next pending one; nothing once it succeeded. (A teardown goes on past a failed phase: the phase
 * working then is the current one, not the failure behind it.)
 */
export function currentPhaseOf(status: OperationStatus, phases: PhaseRecord[]): PhaseRecord | undefined {
  const working =
    phases.find((p) => isPhaseActive(p.status)) ??
    phases.find((p) => p.status === 'failed' || p.status === 'cancelled');
  if (working) return working;
  return isTerminal(status) ? undefined : phases.find((p) => p.status === 'pending');
}

/**
 * An operation as the engine answers it (OperationSnapshotSchema) from its journal rows. `now` gives a
 * running phase its duration so far; `paused` is the engine's in-memory note while the store
 * cannot be written. What a client calls to follow it is the faces' to add (src/api/operation-links.ts).
 */
export function toOperationSnapshot(
  op: OperationRecord,
  phases: PhaseRecord[],
  now: Date,
  paused?: OperationPause,
  needs?: PhaseNeeds,
): OperationSnapshot {
  const current = currentPhaseOf(op.status, phases);
  // A terminal operation has nothing running, whatever a crash left in its rows.
  const running = isTerminal(op.status) ? [] : phases.filter((p) => isPhaseActive(p.status)).map((p) => p.name);
  return {
    id: op.id,
    kind: op.kind,
    target: op.target,
    status: op.status,
    cloud: op.cloud ?? null,
    accountId: op.accountId ?? null,
    region: op.region ?? null,
    input: op.input,
    ...(op.result === undefined ? {} : { result: op.result }),
    ...(op.error === undefined ? {} : { error: op.error }),
    ...(current === undefined ? {} : { currentPhase: current.name }),
    runningPhases: running,
    ...(paused === undefined ? {} : { paused }),
    // A phase waits only for phases of this operation (those that do not apply to its input were left out).
    phases: phases.map((p) =>
      toPhaseView(
        op,
        p,
        now,
        needs?.get(p.name)?.filter((n) => phases.some((q) => q.name === n)),
      ),
    ),
    createdAt: op.createdAt,
    updatedAt: op.updatedAt,
    ...(op.finishedAt === undefined ? {} : { finishedAt: op.finishedAt }),
  };
}

function toPhaseView(op: OperationRecord, p: PhaseRecord, now: Date, after: readonly string[] | undefined): PhaseView {
  const end = p.finishedAt
    ? Date.parse(p.finishedAt)
    : isPhaseActive(p.status) && !isTerminal(op.status)
      ? now.getTime()
      : undefined;
  const durationMs = p.startedAt && end !== undefined ? Math.max(0, end - Date.parse(p.startedAt)) : undefined;
  return {
    name: p.name,
    title: p.title,
    status: p.status,
    attempts: p.attempts,
    ...(p.startedAt === undefined ? {} : { startedAt: p.startedAt }),
    ...(p.finishedAt === undefined ? {} : { finishedAt: p.finishedAt }),
    ...(durationMs === undefined ? {} : { durationMs }),
    expectedSeconds: p.expectedSeconds,
    ...(after === undefined ? {} : { after: [...after] }),
    ...(p.progress === undefined ? {} : { progress: p.progress }),
    ...(p.error === undefined ? {} : { error: p.error }),
    retryable: op.status === 'failed' && p.status === 'failed',
  };
}
