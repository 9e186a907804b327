import { ConflictError, NotFoundError } from '../domain/errors.js';
import type { OperationRecord, OperationsStore } from '../store/operations-store.js';
import type { OperationJournal } from './journal.js';
import { lockHolder } from './locks.js';
import { FRESH_CLOCKS } from './phase-deadline.js';
import { lockConflict } from './start-operation.js';
import type { AnyWorkflow } from './workflow.js';

/**
 * Journals a retry of a failed operation, in one transaction, before the engine runs it again: the first
 * failed phase starts a new attempt now (observing first; its clocks start anew), the other failed phases go
 * back to pending, the operation runs again and takes its locks back. Usually one phase failed; when teardown
 * phases went on past failures (onFailure: 'continue') several did, and naming any of them retries them all —
 * a teardown is only done when every step is.
 *
 * Refuses (ConflictError) an operation that is not failed, a phase that did not fail, a kind this server
 * cannot run, and (OperationConflictError) a retry whose locks another operation took meanwhile.
 */
export function journalRetry(
  store: OperationsStore,
  journal: OperationJournal,
  op: OperationRecord,
  phaseName: string,
  workflowOf: (kind: string) => AnyWorkflow | undefined,
): void {
  const id = op.id;
  const phase = store.getPhase(id, phaseName);
  if (!phase)
    throw new NotFoundError({
      resource: 'phase',
      id: phaseName,
      message: `Operation ${id} has no phase '${phaseName}'.`,
    });
  if (op.status !== 'failed')
    throw new ConflictError({
      message: `Operation ${id} is ${op.status}; only a failed operation can have a phase retried.`,
    });
  const failed = store.listPhases(id).filter((p) => p.status === 'failed');
  if (phase.status !== 'failed') {
    const names = failed.map((p) => `'${p.name}'`);
    throw new ConflictError({
      message:
        failed.length === 0
          ? `Operation ${id} failed outside its phases (${op.error?.code ?? 'unknown'}); no phase can be retried — start a new operation.`
          : failed.length === 1
            ? `Phase '${phaseName}' is ${phase.status}, not failed; retry the failed phase ${names[0]} instead.`
            : `Phase '${phaseName}' is ${phase.status}, not failed; retry one of the failed phases ${names.join(', ')} (all of them run again, in order).`,
    });
  }
  const workflow = workflowOf(op.kind);
  if (!workflow)
    throw new ConflictError({
      message: `This server cannot run '${op.kind}' operations, so it cannot retry this one.`,
    });
  const [first, ...later] = failed;
  journal.together(() => {
    // A failed operation holds no locks: it takes them again, unless another operation took them meanwhile.
    const holder = lockHolder(workflow.locks(op.input), store.listActive(), workflowOf);
    if (holder) throw lockConflict(holder, `Operation ${id} (${op.kind} on ${op.target}) cannot be retried now`);
    // The first failed phase starts now (its attempt counts at once); later ones count theirs when they start.
    journal.phase(first!.name, {
      status: 'observing',
      attempts: first!.attempts + 1,
      startedAt: journal.timestamp(),
      finishedAt: null,
      error: null,
      progress: null,
      ...FRESH_CLOCKS, // a retry resets the phase's deadline
    });
    for (const p of later) journal.phase(p.name, { status: 'pending', finishedAt: null, error: null, progress: null });
    journal.operation({ status: 'running', error: null, finishedAt: null });
    journal.log(
      'info',
      later.length === 0
        ? `Retrying ${first!.title} (attempt ${first!.attempts + 1}): observing actual state first.`
        : `Retrying the ${failed.length} failed phases in order (${failed.map((p) => p.name).join(', ')}), each observing actual state first.`,
      first!.name,
    );
  });
}
