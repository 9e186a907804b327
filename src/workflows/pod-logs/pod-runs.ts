import type { KubePod } from '../../domain/kube/pod.js';

/**
 * A followed pod and its number in the set (a training job's rank; an endpoint's pod, numbered as first seen), and
 * which run of its container a log read shows — what the tail, the download and the follow of pods' logs share.
 */

/** One pod of the set, by its number. */
export interface RankedPod {
  rank: number;
  pod: KubePod;
}

/**
 * Which run of the pod's container a log read now shows (runs count from 0, like restarts): the
 * running or finished one, or — while it waits to restart (CrashLoopBackOff) — the one that just
 * ended; undefined before its first run.
 */
export function readableRun(pod: KubePod): number | undefined {
  const c = pod.status.containerStatuses[0];
  if (!pod.spec.nodeName || !c) return undefined;
  if (c.current.state === 'running' || c.current.state === 'terminated') return c.restartCount;
  return c.restartCount > 0 ? c.restartCount - 1 : undefined;
}

/** Why the pod's log cannot be read (undefined when it can): not scheduled, not started, no previous run. */
export function unreadableReason(pod: KubePod, previous: boolean): string | undefined {
  const container = pod.status.containerStatuses[0];
  if (!pod.spec.nodeName) return `not started yet: the pod is not scheduled (${pod.status.phase})`;
  if (previous)
    return container && container.restartCount > 0 ? undefined : 'no previous run: the container has not restarted';
  if (!container || (container.current.state === 'waiting' && container.restartCount === 0)) {
    return `not started yet: ${container?.current.reason ?? 'ContainerCreating'}`;
  }
  return undefined;
}
