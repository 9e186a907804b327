import type { OperationError } from '../domain/schemas/operations.js';
import type { OperationRecord, OperationsStore, PhaseRecord } from '../store/operations-store.js';
import { StoreUnavailableError } from '../domain/errors.js';
import { describeFailure, EngineStoppedError } from './failures.js';
import type { OperationJournal } from './journal.js';
import { failPhaseAndGoOn, failPhaseAndStopDependents } from './operation-endings.js';
import { ancestorsOf, type PhaseNeeds } from './phase-graph.js';
import { FRESH_CLOCKS } from './phase-deadline.js';
import { runPhaseLoop } from './phase-loop.js';
import type { SharedPoller } from './poller.js';
import type { PollingOptions } from './polling.js';
import { isPhaseActive, isPhaseComplete } from './views.js';
import type { AnyWorkflow, PhaseContext, PhaseDefinition } from './workflow.js';

// The scheduling of one run of an operation (operation-runner.ts drives the run from start to terminal
// status): which phases may start now that others ended, each through its own phase loop (phase-loop.ts),
// what a phase's failure stops, and what a phase sees of its run (its PhaseContext).

type AnyPhase = PhaseDefinition<unknown, Record<string, unknown>>;

/** What the scheduler borrows from the engine (part of the runner's RunnerDeps). */
export interface GraphDeps {
  store: OperationsStore;
  polling: PollingOptions;
  poller: SharedPoller;
  random: () => number;
  nowMs: () => number;
}

/** One run of an operation's phase graph. */
export interface GraphRun {
  deps: GraphDeps;
  op: OperationRecord;
  workflow: AnyWorkflow;
  needs: PhaseNeeds;
  journal: OperationJournal;
  signal: AbortSignal;
  /** Stops every phase in flight (their loops throw `err`). */
  abortAll(err: unknown): void;
}

export interface GraphEnd {
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
export async function runPhaseGraph(env: GraphRun): Promise<GraphEnd> {
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
