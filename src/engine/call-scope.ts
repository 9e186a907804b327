import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whose work a cloud call is part of, carried along the async chain (AsyncLocalStorage): the audit event of the
 * request that is running (set by src/api/audit-trail.ts around a mutating route's handler), or the operation
 * whose phases are running (set by the operation runner: phases run after their request has ended). The audit
 * trail's cloud observer reads it to file each mutating AWS call and Kubernetes write under its event
 * (docs/AUDIT.md). An operation's scope wins over the request's that started it.
 */
export interface CallScope {
  auditEventId?: string;
  operationId?: string;
}

const storage = new AsyncLocalStorage<CallScope>();

/** Runs `fn` with `scope` as the current call scope. */
export function inCallScope<T>(scope: CallScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The current call scope, if any. */
export function currentCallScope(): CallScope | undefined {
  return storage.getStore();
}
