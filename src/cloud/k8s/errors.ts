import { CloudError, cloudTimeout } from '../../domain/errors.js';
import {
  KubeConflict,
  KubeError,
  KubeForbidden,
  KubeUnauthorized,
  type KubeObjectNaming,
} from '../../domain/kube/errors.js';
import { secondsOf } from '../timeouts.js';

/**
 * Kubernetes answers → the domain's typed errors. A 404 is not decided here: whether the object or
 * its whole kind is missing takes a discovery request (see cluster-client.ts); everything else is
 * decided from the status code and the Status body's structured `reason`, never its message text.
 */

export interface KubeStatus {
  reason?: string;
  message?: string;
  code?: number;
  details?: { name?: string; kind?: string; group?: string; causes?: Array<{ field?: string; message?: string }> };
}

/** The Status object of a failed answer (undefined when the body is not one: a proxy's HTML, a plain-text 404). */
export function parseStatus(body: string): KubeStatus | undefined {
  try {
    const parsed = JSON.parse(body) as KubeStatus & { kind?: string };
    return parsed && typeof parsed === 'object' && parsed.kind === 'Status' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A failed answer other than 404 as a typed error naming the object. */
export function answerError(object: KubeObjectNaming, verb: string, status: number, body: string): KubeError {
  const s = parseStatus(body);
  const detail = s?.message ?? (body.trim().slice(0, 300) || `HTTP ${status}`);
  if (status === 409) return new KubeConflict({ object, verb, detail, reason: s?.reason ?? 'Conflict' });
  if (status === 403) return new KubeForbidden({ object, verb, detail });
  if (status === 401) return new KubeUnauthorized({ object, verb });
  const retryable = status === 429 || status >= 500;
  const name = object.name ? ` ${object.namespace ? `${object.namespace}/` : ''}${object.name}` : '';
  return new KubeError({
    object,
    verb,
    code: s?.reason ?? `Http${status}`,
    message: `${verb} ${object.kind}${name} in EKS cluster ${object.cluster}: ${detail}`,
    httpStatus: status,
    retryable,
  });
}

/** No answer: past the deadline (TimeoutError) or nothing reachable (NetworkingError); both retryable outages. */
export function noAnswerError(object: KubeObjectNaming, verb: string, err: unknown, deadlineMs: number): CloudError {
  const e = err as { name?: string; type?: string; code?: unknown; message?: string };
  if (e?.name === 'AbortError' || e?.type === 'aborted') {
    return cloudTimeout(
      'kubernetes',
      `${verb} ${object.kind}`,
      secondsOf(deadlineMs),
      `The Kubernetes API of EKS cluster ${object.cluster}`,
    );
  }
  const code = typeof e?.code === 'string' ? e.code : (e?.type ?? 'unknown');
  return new CloudError({
    service: 'kubernetes',
    operation: verb,
    code: 'NetworkingError',
    message: `${verb} ${object.kind}: could not reach the Kubernetes API of EKS cluster ${object.cluster} (${code}): ${e?.message ?? String(err)}`,
    retryable: true,
  });
}

/** An endpoint that no longer serves Kubernetes at all (the cluster went, its address was reused). */
export function endpointGone(object: KubeObjectNaming, verb: string): CloudError {
  return new CloudError({
    service: 'kubernetes',
    operation: verb,
    code: 'NetworkingError',
    message: `${verb} ${object.kind}: the endpoint of EKS cluster ${object.cluster} no longer serves a Kubernetes API (the cluster was deleted or replaced); its address is looked up again on the next try.`,
    retryable: true,
  });
}
