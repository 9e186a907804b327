import type { OperationError } from '../domain/schemas/operations.js';
import type { OperationRecord, OperationsStore, PhaseRecord } from '../store/operations-store.js';
import { StoreUnavailableError } from '../domain/errors.js';
import { describeFailure, EngineStoppedError } from './failures.js';
import type { OperationJournal } from './journal.js';
import { ancestorsOf, type PhaseNeeds } from './phase-graph.js';
import { FRESH_CLOCKS } from './phase-deadline.js';
import { runPhaseLoop } from './phase-loop.js';
import type { SharedPoller } from './poller.js';
import type { PollingOptions } from './polling.js';
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
  /** The kind's phase graph (phase-graph.ts), resolved at registration. */
  needs(kind: string): PhaseNeeds | undefined;
  polling: PollingOptions;
  poller: SharedPoller;
  random: () => number;
  nowMs: () => number;
  logger: EngineLogger;
}

type AnyPhase = PhaseDefinition<unknown, Record<string, unknown>>;

/**
 * Drives an operation to a terminal status, journaling as it goes: every phase whose needs are done
 * starts (several run side by side), each through its own phase loop, until nothing more can run.
 * Never rejects: failures, cancellation and engine stops all end here (a stop leaves the journal
 * untouched so that the next engine resumes; a store that cannot be written ends the run `paused`).
 *
 * A failed phase stops the phases that need it; the others go on, and the operation ends failed once
 * nothing more can run. A phase with `onFailure: 'continue'` that fails stops nothing. A cancel, a stop
 * or a store that cannot be written ends the run for every phase in flight.
 */
export async function runOperation(deps: RunnerDeps, run: Run, mode: RunMode): Promise<RunEnd> {
  await Promise.resolve(); // let start()/retryPhase() answer before the first phase begins
  const journal = deps.journalFor(run.operationId);
  // The phases' signal: aborted by a cancel or a stop (the run's controller), and by a failure that
  // ends the run for every phase in flight (a store that cannot be written), so none goes on alone.
  const all = new AbortController();
  const relay = () => all.abort(run.controller.signal.reason);
  if (run.controller.signal.aborted) relay();
  else run.controller.signal.addEventListener('abort', relay, { once: true });
  const signal = all.signal;
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
    const needs = deps.needs(op.kind);
    if (!workflow || !needs) throw new Error(`No workflow '${op.kind}' is registered on this server.`);
    journal.together(() => {
      if (op.status !== 'running') journal.operation({ status: 'running' });
      if (mode === 'resume')
        journal.log('info', 'Resumed after a restart: the phases in flight start again by observing actual state.');
      if (mode === 'unpause' && run.note) journal.log('info', run.note);
    });

    const ended = await runPhaseGraph({
      deps,
      op,
      workflow,
      needs,
      journal,
      signal,
      abortAll: (err) => all.abort(err),
    });
    if (ended.fatal) {
      phaseName = ended.fatal.phase;
      throw ended.fatal.err;
    }
    signal.throwIfAborted(); // cancelled between phases

    const phases = deps.store.listPhases(op.id);
    if (phases.some((p) => p.status === 'failed')) {
      failOperation(journal, deps.store, deps.logger, ended.stopFailure, { phaseJournaled: true });
      return {};
    }
    const stuck = phases.filter((p) => !isPhaseComplete(p.status));
    if (stuck.length)
      throw new Error(
        `Phase(s) ${stuck.map((p) => `'${p.name}' (${p.status})`).join(', ')} could not start: what they need is not done.`,
      );
    const result = workflow.result?.(ended.state, op.input);
    journal.together(() => {
      journal.operation({
        status: 'succeeded',
        ...(result === undefined ? {} : { result }),
        finishedAt: journal.timestamp(),
      });
      journal.log('info', 'Operation succeeded.');
    });
    return {};
  } catch (err) {
    if (err instanceof EngineStoppedError || (run.controller.signal.aborted && !run.cancelRequested)) return {};
    if (err instanceof StoreUnavailableError) return { paused: err };
    try {
      if (run.cancelRequested) finishCancelled(journal, deps.store, run.operationId);
      else failOperation(journal, deps.store, deps.logger, describeFailure(err, phaseName));
    } catch (journalErr) {
      // Failing is a write too: when it cannot be made, pause; the failure recurs on resume and is journaled then.
      if (journalErr instanceof StoreUnavailableError) return { paused: journalErr };
      if (!(journalErr instanceof EngineStoppedError)) {
        deps.logger.error(
          { err: journalErr, operationId: run.operationId },
          'could not journal the end of an operation',
        );
      }
    }
    return {};
  } finally {
    run.controller.signal.removeEventListener('abort', relay);
  }
}

interface GraphRun {
  deps: RunnerDeps;
  op: OperationRecord;
  workflow: AnyWorkflow;
  needs: PhaseNeeds;
  journal: OperationJournal;
  signal: AbortSignal;
  /** Stops every phase in flight (their loops throw `err`). */
  abortAll(err: unknown): void;
}

interface GraphEnd {
  /** The final scratch state. */
  state: Record<string, unknown>;
  /** The first phase failure (onFailure: 'stop') of this run: the operation's error. */
  stopFailure?: OperationError;
  /** What ended the run for every phase (cancel, stop, store), and the phase that met it first. */
  fatal?: { err: unknown; phase?: string };
}

/**
 * Starts every phase whose needs are done — a phase already in flight in the journal (a resume, or the
 * first phase of a retry) is run again from observe without counting an attempt — and, each time one
 * ends, the phases it let through, until none is in flight.
 */
async function runPhaseGraph(env: GraphRun): Promise<GraphEnd> {
  const { deps, op, workflow, needs, journal, signal } = env;
  const stateRef = { current: op.state };
  const inFlight = new Map<string, Promise<void>>();
  const end: GraphEnd = { state: op.state };
  const definitionOf = (name: string) => workflow.phases.find((p) => p.name === name) as AnyPhase | undefined;
  // Done for the phases that need it: succeeded, skipped, or failed as a teardown step that stops nothing.
  const letsThrough = (p: PhaseRecord) =>
    isPhaseComplete(p.status) || (p.status === 'failed' && definitionOf(p.name)?.onFailure === 'continue');

  const runPhase = async (row: PhaseRecord): Promise<void> => {
    const definition = definitionOf(row.name);
    let record = row;
    // The phase's own signal: the run's (cancel, stop, a store that cannot be written), and its deadline's.
    const own = new AbortController();
    const relay = () => own.abort(signal.reason);
    if (signal.aborted) relay();
    else signal.addEventListener('abort', relay, { once: true });
    try {
      if (!definition) throw new Error(`Workflow '${op.kind}' no longer has a phase '${row.name}'.`);
      if (row.status === 'pending') record = beginAttempt(journal, row);
      const context = phaseContext(journal, deps.store, op, record, own.signal, stateRef, ancestors.get(row.name));
      const final = await runPhaseLoop({
        definition,
        record,
        context,
        journal,
        signal: own.signal,
        expire: (err) => own.abort(err),
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
    } catch (err) {
      if (!isPhaseFailure(err, signal)) {
        end.fatal ??= { err, phase: row.name };
        env.abortAll(err);
        return;
      }
      const error = describeFailure(err, row.name);
      try {
        if (definition?.onFailure === 'continue') failPhaseAndGoOn(journal, error);
        else {
          end.stopFailure ??= error;
          failPhaseAndStopDependents(
            journal,
            error,
            [...inFlight.keys()].filter((n) => n !== row.name),
          );
        }
      } catch (journalErr) {
        end.fatal ??= { err: journalErr, phase: row.name };
        env.abortAll(journalErr);
      }
    } finally {
      signal.removeEventListener('abort', relay);
    }
  };

  // Every phase a phase needs, directly or not: a retry may run again a phase behind one that is done
  // (a teardown went on past it), and what comes after must wait for it again.
  const ancestors = new Map(workflow.phases.map((p) => [p.name, ancestorsOf(needs, p.name)]));
  const startReady = () => {
    if (end.fatal || signal.aborted) return;
    const rows = deps.store.listPhases(op.id);
    const byName = new Map(rows.map((r) => [r.name, r]));
    // A needed phase without a record was left out of this operation (it does not apply to its input): nothing to wait
    // for.
    const leftOut = (name: string) => definitionOf(name)?.appliesTo?.(op.input as never) === false;
    const ready = (name: string) =>
      [...(ancestors.get(name) ?? [])].every((n) => {
        const need = byName.get(n);
        return need === undefined ? leftOut(n) : letsThrough(need);
      });
    for (const row of rows) {
      if (inFlight.has(row.name) || !(row.status === 'pending' || isPhaseActive(row.status))) continue;
      if (!ready(row.name)) continue;
      const running = runPhase(row).finally(() => inFlight.delete(row.name));
      inFlight.set(row.name, running);
      if (end.fatal) return; // beginAttempt could not be journaled
    }
  };

  startReady();
  while (inFlight.size > 0) {
    await Promise.race(inFlight.values());
    startReady();
  }
  end.state = stateRef.current;
  return end;
}

/** A failure of the phase's own work — not a stop, a cancel or a store that cannot be written. */
function isPhaseFailure(err: unknown, signal: AbortSignal): boolean {
  return !signal.aborted && !(err instanceof EngineStoppedError) && !(err instanceof StoreUnavailableError);
}

/** Counts a new attempt of a pending phase and stamps its start (its deadline clocks start anew). */
function beginAttempt(journal: OperationJournal, phase: PhaseRecord): PhaseRecord {
  return journal.together(() => {
    const started = journal.phase(phase.name, {
      status: 'observing',
      attempts: phase.attempts + 1,
      startedAt: journal.timestamp(),
      finishedAt: null,
      error: null,
      progress: null,
      ...FRESH_CLOCKS,
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
  ancestors: ReadonlySet<string> = new Set(),
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
      // The phases it needs (directly or not) that failed and were gone on past; never a sibling's failure.
      return store
        .listPhases(op.id)
        .filter((p) => ancestors.has(p.name) && p.status === 'failed')
        .map((p) => p.error ?? { phase: p.name, code: 'InternalError', message: `Phase '${p.name}' failed.` });
    },
  };
}

/** Journals the failure of a teardown phase (onFailure: 'continue'); the run goes on with the next phase. */
function failPhaseAndGoOn(journal: OperationJournal, error: OperationError): void {
  journal.together(() => {
    journal.phase(error.phase!, { status: 'failed', error, finishedAt: journal.timestamp() });
    journal.log('error', `${error.code}: ${error.message}`, error.phase);
    journal.log(
      'warn',
      'Going on with the next phases (teardown); the operation will end failed and this phase can be retried.',
      error.phase,
    );
  });
}

/**
 * Journals a phase failure that stops the phases needing it. When others run beside it, one line
 * says they go on: the operation ends failed only once they (and whatever they let through) are done.
 */
function failPhaseAndStopDependents(journal: OperationJournal, error: OperationError, othersInFlight: string[]): void {
  journal.together(() => {
    journal.phase(error.phase!, { status: 'failed', error, finishedAt: journal.timestamp() });
    journal.log('error', `${error.code}: ${error.message}`, error.phase);
    if (othersInFlight.length) {
      const names = othersInFlight.map((n) => `'${n}'`).join(', ');
      const others =
        othersInFlight.length === 1
          ? `Phase ${names}, running beside it, goes on`
          : `Phases ${names}, running beside it, go on`;
      journal.log(
        'warn',
        `The phases that need this one will not start. ${others}; then the operation ends failed and the failed phase can be retried.`,
        error.phase,
      );
    }
  });
}

/**
 * Journals the end of a failed run in one transaction: the phase that stopped it (when `error` names
 * one) failed, and the operation failed with the last failure's error — `error`, or else that of the
 * last teardown phase that failed and was passed. When several phases failed, one line names them all.
 */
export function failOperation(
  journal: OperationJournal,
  store: OperationsStore,
  logger: EngineLogger,
  error?: OperationError,
  { phaseJournaled = false }: { phaseJournaled?: boolean } = {},
): void {
  let failedPhases: string[] = [];
  let final: OperationError | undefined;
  journal.together(() => {
    const finishedAt = journal.timestamp();
    if (error?.phase !== undefined && !phaseJournaled)
      journal.phase(error.phase, { status: 'failed', error, finishedAt });
    const failed = store.listPhases(journal.operationId).filter((p) => p.status === 'failed');
    failedPhases = failed.map((p) => p.name);
    const last = failed.at(-1);
    final = error ??
      last?.error ?? { ...(last ? { phase: last.name } : {}), code: 'InternalError', message: 'The operation failed.' };
    journal.operation({ status: 'failed', error: final, finishedAt });
    if (error && !phaseJournaled) journal.log('error', `${error.code}: ${error.message}`, error.phase);
    if (failed.length > 1 || (!error && failed.length > 0)) {
      const names = failedPhases.map((n) => `'${n}'`).join(', ');
      journal.log(
        'error',
        `Operation failed: ${failed.length === 1 ? `phase ${names} failed` : `phases ${names} failed`}. Retrying a failed phase runs every failed phase again, in order, each observing first.`,
      );
    }
  });
  logger.warn({ operationId: journal.operationId, error: final, failedPhases }, 'operation failed');
}

/** Journals a cancellation: the phases in flight and the operation become cancelled; phases not started stay pending. */
export function finishCancelled(journal: OperationJournal, store: OperationsStore, operationId: string): void {
  journal.together(() => {
    const finishedAt = journal.timestamp();
    const inFlight = store.listPhases(operationId).filter((p) => isPhaseActive(p.status));
    for (const p of inFlight) journal.phase(p.name, { status: 'cancelled', finishedAt });
    journal.operation({ status: 'cancelled', finishedAt });
    const mayLinger = inFlight.filter((p) => p.status === 'acting' || p.status === 'awaiting');
    const titles = mayLinger.map((p) => `'${p.title}'`).join(' and ');
    journal.log(
      'warn',
      mayLinger.length === 0
        ? 'Cancelled.'
        : mayLinger.length === 1
          ? `Cancelled during ${titles}. The change already requested from the cloud may still complete; check the resource before retrying.`
          : `Cancelled during ${titles}. The changes already requested from the cloud may still complete; check the resources before retrying.`,
      (mayLinger[0] ?? inFlight[0])?.name,
    );
  });
}
