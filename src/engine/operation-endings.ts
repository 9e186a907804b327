import type { OperationError } from '../domain/schemas/operations.js';
import type { OperationsStore } from '../store/operations-store.js';
import type { EngineLogger } from './engine-logger.js';
import type { OperationJournal } from './journal.js';
import { isPhaseActive } from './views.js';

// How the end of a phase or of a run is journaled: a failed phase that the run goes on past or that stops
// the phases needing it (phase-scheduler.ts), an operation failed or cancelled (operation-runner.ts, and the
// engine when it cancels an operation no run drives). Each is one transaction, so that a reader never sees
// the phase ended without the line saying why, or the operation ended with a phase still in flight.

/** Journals the failure of a teardown phase (onFailure: 'continue'); the run goes on with the next phase. */
export function failPhaseAndGoOn(journal: OperationJournal, error: OperationError): void {
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
export function failPhaseAndStopDependents(
  journal: OperationJournal,
  error: OperationError,
  othersInFlight: string[],
): void {
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
