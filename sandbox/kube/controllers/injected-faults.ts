import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { PREFIX } from './program-lines.js';
import { save, T, type Any } from './util.js';

/**
 * Faults injected into one run of a container from outside the program: a crash, a hang or an NCCL
 * timeout asked for through `POST /_sandbox/kube/<cluster>/faults/training`, and the restarts the training
 * operator orders for a hung rank (its elastic agent killing the process). They are kept on the pod,
 * in the annotation `sandbox.instantstart.dev/faults` (a JSON list), each naming the container, the
 * run (the container's restart count then) and the sandbox time — so a run's log stays a function
 * of the pod, the container, the run and the time, and reads the same later (`--previous` too).
 */

export const FAULTS_ANNOTATION = `${PREFIX}faults`;

export type InjectedKind = 'crash' | 'hang' | 'restart' | 'nccl-timeout';

export interface InjectedFault {
  container: string;
  run: number;
  kind: InjectedKind;
  /** Sandbox time (RFC 3339) the fault takes effect. */
  at: string;
  /** The same moment as milliseconds after the run started (what the program reads: its output is relative to its start). */
  afterMs: number;
  /** Why (restarts by the operator: the rule that found the rank hanging). */
  reason?: string;
  /** nccl-timeout: the process group's timeout; the watchdog ends the run this long after `afterMs`. */
  timeoutMs?: number;
}

/** The faults injected into one run of a container, earliest first (a hang, then the kill that ends the frozen process). */
export function injectedFaults(pod: KubeObject, container: string, run: number): InjectedFault[] {
  const raw = pod.metadata.annotations?.[FAULTS_ANNOTATION];
  if (!raw) return [];
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  return (list as Any[])
    .filter(
      (f) =>
        f &&
        f.container === container &&
        f.run === run &&
        ['crash', 'hang', 'restart', 'nccl-timeout'].includes(f.kind) &&
        Number.isFinite(f.afterMs) &&
        f.afterMs >= 0,
    )
    .sort((a, b) => a.afterMs - b.afterMs) as InjectedFault[];
}

/** Records a fault for the current run of a container of a stored pod; returns the updated pod. */
export function injectFault(cluster: KubeCluster, pod: KubeObject, fault: InjectedFault): KubeObject {
  const raw = pod.metadata.annotations?.[FAULTS_ANNOTATION];
  let list: InjectedFault[] = [];
  try {
    const parsed = raw ? JSON.parse(raw) : [];
    if (Array.isArray(parsed)) list = parsed as InjectedFault[];
  } catch {
    list = [];
  }
  // Only the runs still to come matter once a container restarted: older entries go, so the list stays short.
  list = list.filter((f) => !(f.container === fault.container && f.run < fault.run - 1));
  list.push(fault);
  const next = {
    ...pod,
    metadata: {
      ...pod.metadata,
      annotations: { ...(pod.metadata.annotations ?? {}), [FAULTS_ANNOTATION]: JSON.stringify(list) },
    },
  };
  return save(cluster, T.pods, pod, next);
}
