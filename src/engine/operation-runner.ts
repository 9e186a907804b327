import type { OperationError } from '../domain/schemas/operations.js';
import type { OperationRecord, OperationsStore, PhaseRecord } from '../store/operations-store.js';
import { StoreUnavailableError } from '../domain/errors.js';
import { describeFailure, EngineStoppedError } from './failures.js';
import type { OperationJournal } from './journal.js';
import { runPhaseLoop } from './phase-loop.js';
import type { PollingOptions, SharedPoller } from './poller.js';
import { isPhaseActive, isPhaseComplete, isTerminal } from './views.js';
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
  /** For an `unpause` run: the line that opens it (how long it was paused and why). */
  note?: string;
}

/** Why the run began, for the first log line. */
export type RunMode = 'start' | 'resume' | 'retry' | 'unpause';

/**
 * How a run ended. `paused`: the store could not be written, so nothing more could be journaled;
 * the journal still shows the phase in flight, and the engine runs the operation again (by
 * observing, as after a crash) once writing works.
 */
export interface RunEnd {
  paused?: StoreUnavailableError;
}

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
 * untouched so that the next engine resumes; a store that cannot be written ends the run `paused`).
 *
 * A phase with `onFailure: 'continue'` that fails is journaled failed and passed; the operation
 * then ends failed with the last failure's error once every later phase ran.
 */
export async function runOperation(deps: RunnerDeps, run: Run, mode: RunMode): Promise<RunEnd> {
  await Promise.resolve(); // let start()/retryPhase() answer before the first phase begins
  const journal = deps.journalFor(run.operationId);
  const signal = run.controller.signal;
  let phaseName: string | undefined;
  try {
    signal.throwIfAborted(); // cancelled or stopped before the first step
    const op = deps.store.getOperation(run.operationId);
    if (!op || isTerminal(op.status)) return {}; // e.g. cancelled while paused
    if (op.status === 'cancelling') {
      finishCancelled(journal, deps.store, op.id); // cancelled just before the store failed
      return {};
    }
    const workflow = deps.workflow(op.kind);
    if (!workflow) throw new Error(`No workflow '${op.kind}' is registered on this server.`);
    journal.together(() => {
      if (op.status !== 'running') journal.operation({ status: 'running' });
      if (mode === 'resume') journal.log('info', 'Resumed after a restart: the phase in flight starts again by observing actual state.');
      if (mode === 'unpause' && run.note) journal.log('info', run.note);
    });
    const stateRef = { current: op.state };

    for (const journaled of deps.store.listPhases(op.id)) {
      // A phase already failed in a running operation is one the workflow went on past (onFailure: 'continue').
      if (isPhaseComplete(journaled.status) || journaled.status === 'failed') continue;
      signal.throwIfAborted();
      phaseName = journaled.name;
      const definition = workflow.phases.find((p) => p.name === journaled.name) as AnyPhase | undefined;
      if (!definition) throw new Error(`Workflow '${op.kind}' no longer has a phase '${journaled.name}'.`);
      const record = journaled.status === 'pending' ? beginAttempt(journal, journaled) : journaled;
      let final: Awaited<ReturnType<typeof runPhaseLoop>>;
      try {
        final = await runPhaseLoop({
          definition,
          record,
          context: phaseContext(journal, deps.store, op, record, signal, stateRef),
          journal,
          signal,
          polling: deps.polling,
          poller: deps.poller,
          random: deps.random,
          nowMs: deps.nowMs,
        });
      } catch (err) {
        if (definition.onFailure !== 'continue' || !isPhaseFailure(err, signal)) throw err;
        failPhaseAndGoOn(journal, describeFailure(err, record.name));
        continue;
      }
      journal.together(() => {
        const done = journal.phase(record.name, { status: final, finishedAt: journal.timestamp() });
        const seconds = done.startedAt ? Math.round((deps.nowMs() - Date.parse(done.startedAt)) / 1000) : 0;
        journal.log('info', final === 'skipped' ? 'Skipped.' : `Succeeded in ${seconds}s.`, record.name);
      });
    }

    phaseName = undefined;
    if (deps.store.listPhases(op.id).some((p) => p.status === 'failed')) {
      failOperation(journal, deps.store, deps.logger); // teardown phases failed and were passed
      return {};
    }
    const result = workflow.result?.(stateRef.current, op.input);
    journal.together(() => {
      journal.operation({ status: 'succeeded', ...(result === undefined ? {} : { result }), finishedAt: journal.timestamp() });
      journal.log('info', 'Operation succeeded.');
    });
    return {};
  } catch (err) {
    if (err instanceof EngineStoppedError || (signal.aborted && !run.cancelRequested)) return {};
    if (err instanceof StoreUnavailableError) return { paused: err };
    try {
      if (run.cancelRequested) finishCancelled(journal, deps.store, run.operationId);
      else failOperation(journal, deps.store, deps.logger, describeFailure(err, phaseName));
    } catch (journalErr) {
      // Failing is a write too: when it cannot be made, pause; the failure recurs on resume and is journaled then.
      if (journalErr instanceof StoreUnavailableError) return { paused: journalErr };
      if (!(journalErr instanceof EngineStoppedError)) {
        deps.logger.error({ err: journalErr, operationId: run.operationId }, 'could not journal the end of an operation');
      }
    }
    return {};
  }
}

/** A failure of the phase's own work — not a stop, a cancel or a store that cannot be written. */
function isPhaseFailure(err: unknown, signal: AbortSignal): boolean {
  return !signal.aborted && !(err instanceof EngineStoppedError) && !(err instanceof StoreUnavailableError);
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
  store: OperationsStore,
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
      // Work abandoned by a cancel or a pause must not overwrite the state a later run reads.
      signal.throwIfAborted();
      const next = { ...stateRef.current, ...patch };
      journal.operation({ state: next }); // throws once the engine stopped: abandoned work must not write
      stateRef.current = next;
    },
    log(message, level = 'info') {
      journal.log(level, message, phase.name);
    },
    signal,
    attempt: phase.attempts,
    get earlierFailures() {
      return store
        .listPhases(op.id)
        .filter((p) => p.index < phase.index && p.status === 'failed')
        .map((p) => p.error ?? { phase: p.name, code: 'InternalError', message: `Phase '${p.name}' failed.` });
    },
  };
}

/** Journals the failure of a teardown phase (onFailure: 'continue'); the run goes on with the next phase. */
function failPhaseAndGoOn(journal: OperationJournal, error: OperationError): void {
  journal.together(() => {
    journal.phase(error.phase!, { status: 'failed', error, finishedAt: journal.timestamp() });
    journal.log('error', `${error.code}: ${error.message}`, error.phase);
    journal.log('warn', 'Going on with the next phases (teardown); the operation will end failed and this phase can be retried.', error.phase);
  });
}


/**
 * Journals the end of a failed run in one transaction: the phase that stopped it (when `error` names
 * one) failed, and the operation failed with the last failure's error — `error`, or else that of the
 * last teardown phase that failed and was passed. When several phases failed, one line names them all.
 */
export function failOperation(journal: OperationJournal, store: OperationsStore, logger: EngineLogger, error?: OperationError): void {
  let failedPhases: string[] = [];
  let final: OperationError | undefined;
  journal.together(() => {
    const finishedAt = journal.timestamp();
    if (error?.phase !== undefined) journal.phase(error.phase, { status: 'failed', error, finishedAt });
    const failed = store.listPhases(journal.operationId).filter((p) => p.status === 'failed');
    failedPhases = failed.map((p) => p.name);
    const last = failed.at(-1);
    final = error ?? last?.error ?? { ...(last ? { phase: last.name } : {}), code: 'InternalError', message: 'The operation failed.' };
    journal.operation({ status: 'failed', error: final, finishedAt });
    if (error) journal.log('error', `${error.code}: ${error.message}`, error.phase);
    if (failed.length > 1 || (!error && failed.length > 0)) {
      const names = failedPhases.map((n) => `'${n}'`).join(', ');
      journal.log('error', `Operation failed: ${failed.length === 1 ? `phase ${names} failed` : `phases ${names} failed`}. Retrying a failed phase runs every failed phase again, in order, each observing first.`);
    }
  });
  logger.warn({ operationId: journal.operationId, error: final, failedPhases }, 'operation failed');
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
