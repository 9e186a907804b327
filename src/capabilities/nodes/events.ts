import type { HyperPodEvent, ListedKubeObject } from '../../cloud/ports.js';
import type { ClusterEvent } from '../../domain/schemas/nodes.js';

/** One timeline from two sources: HyperPod's cluster events and Kubernetes' events about nodes. */

const iso = (t: unknown): string | undefined =>
  t instanceof Date ? t.toISOString() : typeof t === 'string' && t ? t : undefined;

export function hyperpodEvent(e: HyperPodEvent): ClusterEvent {
  const level = e.EventLevel === 'Error' ? 'error' : e.EventLevel === 'Warn' ? 'warning' : 'info';
  return {
    time: iso(e.EventTime) ?? new Date(0).toISOString(),
    source: 'hyperpod',
    level,
    kind: e.ResourceType ?? 'Cluster',
    ...(e.InstanceGroupName ? { instanceGroupName: e.InstanceGroupName } : {}),
    ...(e.InstanceId ? { instanceId: e.InstanceId } : {}),
    message: e.Description ?? '(no description)',
  };
}

export function kubeEvent(e: ListedKubeObject): ClusterEvent {
  const involved = (e.involvedObject ?? {}) as { name?: string };
  const instanceId = /^hyperpod-(i-[0-9a-f]+)$/.exec(involved.name ?? '')?.[1];
  const count = typeof e.count === 'number' ? e.count : undefined;
  return {
    time:
      iso(e.lastTimestamp) ??
      iso(e.eventTime) ??
      iso(e.firstTimestamp) ??
      iso(e.metadata?.creationTimestamp) ??
      new Date(0).toISOString(),
    source: 'kubernetes',
    level: e.type === 'Warning' ? 'warning' : 'info',
    kind: typeof e.reason === 'string' ? e.reason : 'Event',
    ...(instanceId ? { instanceId } : {}),
    message: `${involved.name ? `${involved.name}: ` : ''}${typeof e.message === 'string' ? e.message : ''}`,
    ...(count !== undefined ? { count } : {}),
  };
}

/** Newest first; equal times keep HyperPod before Kubernetes (the cause before its effect on the Node). */
export function mergeNewestFirst(events: ClusterEvent[], limit: number): ClusterEvent[] {
  return events
    .map((e, i) => ({ e, i, t: Date.parse(e.time) || 0 }))
    .sort((a, b) => b.t - a.t || a.i - b.i)
    .slice(0, limit)
    .map((x) => x.e);
}
