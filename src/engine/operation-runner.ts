import { StoreUnavailableError } from '../domain/errors.js';
import type { EngineLogger } from './engine-logger.js';
import { describeFailure, EngineStoppedError } from './failures.js';
import type { OperationJournal } from './journal.js';
import { failOperation, finishCancelled } from './operation-endings.js';
import type { PhaseNeeds } from './phase-graph.js';
import { inCallScope } from './call-scope.js';
import { type GraphDeps, runPhaseGraph } from './phase-scheduler.js';
import { isPhaseComplete, isTerminal } from './views.js';
import type { AnyWorkflow } from './workflow.js';

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

/** What a run borrows from the engine (beyond what its phase scheduler borrows). */
export interface RunnerDeps extends GraphDeps {
  journalFor(operationId: string): OperationJournal;
  workflow(kind: string): AnyWorkflow | undefined;
  /** The kind's phase graph (phase-graph.ts), resolved at registration. */
  needs(kind: string): PhaseNeeds | undefined;
  logger: EngineLogger;
}

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

    // Every cloud call of its phases is filed under this operation (the audit trail: call-scope.ts).
    const ended = await inCallScope({ operationId: op.id }, () =>
      runPhaseGraph({
        deps,
        op,
        workflow,
        needs,
        journal,
        signal,
        abortAll: (err) => all.abort(err),
      }),
    );
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
