import type { OperationError } from '../domain/schemas/operations.js';
import type { OperationRecord, OperationsStore, PhaseRecord } from '../store/operations-store.js';
import { describeFailure, EngineStoppedError } from './failures.js';
import type { OperationJournal } from './journal.js';
import { runPhaseLoop } from './phase-loop.js';
import type { PollingOptions, SharedPoller } from './poller.js';
import { isPhaseActive, isPhaseComplete } from './views.js';
import type { AnyWorkflow, PhaseContext, PhaseDefinition } from './workflow.js';

/** A pino-compatible logger (only the three methods the engine uses). */
export interface EngineLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** One operation being driven by this process. */
export interface Run {
  readonly operationId: string;
  readonly controller: AbortController;
  /** Set by cancel(): an abort then journals "cancelled" instead of a failure. */
  cancelRequested: boolean;
}

/** Why the run began, for the first log line. */
export type RunMode = 'start' | 'resume' | 'retry';

/** What a run borrows from the engine. */
export interface RunnerDeps {
  store: OperationsStore;
  journalFor(operationId: string): OperationJournal;
  workflow(kind: string): AnyWorkflow | undefined;
  polling: PollingOptions;
  poller: SharedPoller;
  random: () => number;
  nowMs: () => number;
  logger: EngineLogger;
}

type AnyPhase = PhaseDefinition<unknown, Record<string, unknown>>;

/**
 * Drives an operation from its first unfinished phase to a terminal status, journaling as it goes.
 * Never rejects: failures, cancellation and engine stops all end here (a stop leaves the journal
 * untouched so that the next engine resumes).
 */
export async function runOperation(deps: RunnerDeps, run: Run, mode: RunMode): Promise<void> {
  await Promise.resolve(); // let start()/retryPhase() answer before the first phase begins
  const journal = deps.journalFor(run.operationId);
  const signal = run.controller.signal;
  let phaseName: string | undefined;
  try {
    signal.throwIfAborted(); // cancelled or stopped before the first step
    const op = deps.store.getOperation(run.operationId);
    if (!op) return;
    const workflow = deps.workflow(op.kind);
    if (!workflow) throw new Error(`No workflow '${op.kind}' is registered on this server.`);
    if (op.status !== 'running') journal.operation({ status: 'running' });
    if (mode === 'resume') journal.log('info', 'Resumed after a restart: the phase in flight starts again by observing actual state.');
    const stateRef = { current: op.state };

    for (const journaled of deps.store.listPhases(op.id)) {
      if (isPhaseComplete(journaled.status)) continue;
      signal.throwIfAborted();
      phaseName = journaled.name;
      const definition = workflow.phases.find((p) => p.name === journaled.name) as AnyPhase | undefined;
      if (!definition) throw new Error(`Workflow '${op.kind}' no longer has a phase '${journaled.name}'.`);
      const record = journaled.status === 'pending' ? beginAttempt(journal, journaled) : journaled;
      const final = await runPhaseLoop({
        definition,
        record,
        context: phaseContext(journal, op, record, signal, stateRef),
        journal,
        signal,
        polling: deps.polling,
        poller: deps.poller,
        random: deps.random,
        nowMs: deps.nowMs,
      });
      journal.together(() => {
        const done = journal.phase(record.name, { status: final, finishedAt: journal.timestamp() });
        const seconds = done.startedAt ? Math.round((deps.nowMs() - Date.parse(done.startedAt)) / 1000) : 0;
        journal.log('info', final === 'skipped' ? 'Skipped.' : `Succeeded in ${seconds}s.`, record.name);
      });
    }

    phaseName = undefined;
    const result = workflow.result?.(stateRef.current, op.input);
    journal.together(() => {
      journal.operation({ status: 'succeeded', ...(result === undefined ? {} : { result }), finishedAt: journal.timestamp() });
      journal.log('info', 'Operation succeeded.');
    });
  } catch (err) {
    if (err instanceof EngineStoppedError || (signal.aborted && !run.cancelRequested)) return;
    try {
      if (run.cancelRequested) finishCancelled(journal, deps.store, run.operationId);
      else failOperation(journal, describeFailure(err, phaseName), deps.logger);
    } catch (journalErr) {
      if (!(journalErr instanceof EngineStoppedError)) {
        deps.logger.error({ err: journalErr, operationId: run.operationId }, 'could not journal the end of an operation');
      }
    }
  }
}

/** Counts a new attempt of a pending phase and stamps its start. */
function beginAttempt(journal: OperationJournal, phase: PhaseRecord): PhaseRecord {
  return journal.together(() => {
    const started = journal.phase(phase.name, {
      status: 'observing',
      attempts: phase.attempts + 1,
      startedAt: journal.timestamp(),
      finishedAt: null,
      error: null,
      progress: null,
    });
    journal.log('info', `${phase.title}: started.`, phase.name);
    return started;
  });
}

function phaseContext(
  journal: OperationJournal,
  op: OperationRecord,
  phase: PhaseRecord,
  signal: AbortSignal,
  stateRef: { current: Record<string, unknown> },
): PhaseContext<unknown, Record<string, unknown>> {
  return {
    operationId: op.id,
    input: op.input,
    get state() {
      return stateRef.current;
    },
    setState(patch) {
      const next = { ...stateRef.current, ...patch };
      journal.operation({ state: next }); // throws once the engine stopped: abandoned work must not write
      stateRef.current = next;
    },
    log(message, level = 'info') {
      journal.log(level, message, phase.name);
    },
    signal,
    attempt: phase.attempts,
  };
}

/** Journals a failure: the phase and the operation failed together, with one error line. */
export function failOperation(journal: OperationJournal, error: OperationError, logger: EngineLogger): void {
  journal.together(() => {
    const finishedAt = journal.timestamp();
    if (error.phase !== undefined) journal.phase(error.phase, { status: 'failed', error, finishedAt });
    journal.operation({ status: 'failed', error, finishedAt });
    journal.log('error', `${error.code}: ${error.message}`, error.phase);
  });
  logger.warn({ operationId: journal.operationId, error }, 'operation failed');
}

/** Journals a cancellation: the phase in flight and the operation become cancelled; later phases stay pending. */
export function finishCancelled(journal: OperationJournal, store: OperationsStore, operationId: string): void {
  journal.together(() => {
    const finishedAt = journal.timestamp();
    const inFlight = store.listPhases(operationId).find((p) => isPhaseActive(p.status));
    if (inFlight) journal.phase(inFlight.name, { status: 'cancelled', finishedAt });
    journal.operation({ status: 'cancelled', finishedAt });
    const mayLinger = inFlight && (inFlight.status === 'acting' || inFlight.status === 'awaiting');
    journal.log(
      'warn',
      mayLinger
        ? `Cancelled during '${inFlight.title}'. The change already requested from the cloud may still complete; check the resource before retrying.`
        : 'Cancelled.',
      inFlight?.name,
    );
  });
}
