import type { OperationRecord } from '../store/operations-store.js';
import type { AnyWorkflow, LockClaim } from './workflow.js';

/** A running operation whose lock clashes with a wanted one. */
export interface LockHolder {
  operation: OperationRecord;
  /** The resource both want. */
  resource: string;
  /** How the holder holds it. */
  mode: LockClaim['mode'];
}

/** Two claims clash when they name one resource and either wants it alone. */
function clash(a: LockClaim, b: LockClaim): boolean {
  return a.resource === b.resource && (a.mode === 'exclusive' || b.mode === 'exclusive');
}

/**
 * The locks an unfinished operation holds, from its journaled input — so they hold across restarts
 * and while the operation is paused or not yet resumed. An operation of a kind this server does not
 * register holds its target exclusively: it cannot say what it locks, and it has not ended.
 */
export function locksOf(op: OperationRecord, workflow: AnyWorkflow | undefined): LockClaim[] {
  if (!workflow) return [{ resource: op.target, mode: 'exclusive' }];
  return workflow.locks(op.input);
}

/**
 * The first of `active` (oldest first) holding a lock that clashes with `wanted`, and on what.
 * `active` are the unfinished operations from the journal.
 */
export function lockHolder(
  wanted: readonly LockClaim[],
  active: readonly OperationRecord[],
  workflowOf: (kind: string) => AnyWorkflow | undefined,
): LockHolder | undefined {
  for (const operation of active) {
    for (const held of locksOf(operation, workflowOf(operation.kind))) {
      if (wanted.some((w) => clash(w, held))) return { operation, resource: held.resource, mode: held.mode };
    }
  }
  return undefined;
}
