import { isMutatingAwsOperation } from '../domain/audit.js';
import { tell, type CloudObserver } from '../cloud/index.js';
import { currentCallScope } from '../engine/index.js';
import type { AuditCallOwner, AuditStore } from '../store/index.js';

/**
 * The audit trail's cloud observer (docs/AUDIT.md): files every mutating AWS call (with the request id AWS answered)
 * and every Kubernetes write under the call scope it was made in (src/engine/call-scope.ts) — the audit event of the
 * request that is running, or the operation whose phase is running. A call outside both (a poller's read, start-up)
 * is not a request's and is not kept. Reads (Describe…, List…, Get…) are not kept: they change nothing.
 */
export function auditObserver(audit: Pick<AuditStore, 'addAwsCall' | 'addKubeRef'>): CloudObserver {
  const owner = (): AuditCallOwner | undefined => {
    const scope = currentCallScope();
    if (scope?.operationId) return { operationId: scope.operationId };
    if (scope?.auditEventId) return { eventId: scope.auditEventId };
    return undefined;
  };
  return {
    awsResponse(r) {
      if (!isMutatingAwsOperation(r.operation)) return;
      const o = owner();
      if (!o) return;
      audit.addAwsCall(o, {
        service: r.service,
        operation: r.operation,
        region: r.region,
        ...(r.requestId ? { requestId: r.requestId } : {}),
        at: new Date().toISOString(),
        ...(r.errorCode ? { error: r.errorCode } : {}),
      });
    },
    kubeApply(w) {
      const o = owner();
      if (!o) return;
      const { apiVersion, kind, metadata } = w.object;
      audit.addKubeRef(o, {
        verb: 'apply',
        cluster: w.cluster,
        apiVersion,
        kind,
        name: metadata.name,
        ...(metadata.namespace ? { namespace: metadata.namespace } : {}),
        at: new Date().toISOString(),
      });
    },
    kubeWrite(w) {
      const o = owner();
      if (!o) return;
      audit.addKubeRef(o, {
        verb: w.verb,
        cluster: w.cluster,
        apiVersion: w.apiVersion,
        kind: w.kind,
        name: w.name,
        ...(w.namespace ? { namespace: w.namespace } : {}),
        at: new Date().toISOString(),
      });
    },
  };
}

/** Both observers, each told every event (one's failure never keeps the other from hearing) (the conformance recorder beside the audit trail). */
export function bothObservers(a: CloudObserver, b: CloudObserver | undefined): CloudObserver {
  if (!b) return a;
  const both =
    <K extends keyof CloudObserver>(key: K) =>
    (event: Parameters<NonNullable<CloudObserver[K]>>[0]) => {
      tell(a[key] as ((e: typeof event) => void) | undefined, event);
      tell(b[key] as ((e: typeof event) => void) | undefined, event);
    };
  return {
    awsRequest: both('awsRequest'),
    awsResponse: both('awsResponse'),
    kubeApply: both('kubeApply'),
    kubeWrite: both('kubeWrite'),
  };
}
