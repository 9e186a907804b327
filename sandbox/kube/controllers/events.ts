import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { hexHash, rfc3339, save, T } from './util.js';

/**
 * core/v1 Events for what the controllers do, aggregated as the client-go recorder does: the same
 * source, object, reason and message bump `count` and `lastTimestamp` of one Event. Events live an
 * hour after their last occurrence (kube-apiserver's default --event-ttl), so they do not pile up.
 */

const EVENT_TTL_MS = 60 * 60 * 1000;

export type EventType = 'Normal' | 'Warning';

const eventName = (involved: KubeObject, key: string) =>
  `${involved.metadata.name}.${hexHash(`${involved.metadata.uid}|${key}`, 16)}`;

/**
 * Records an event. With `minIntervalMs`, a repeat that comes sooner than that after the last one
 * is not counted (a scheduler retrying every tick reports like one retrying on its back-off); with
 * `once`, repeats are not counted at all.
 */
export function recordEvent(
  cluster: KubeCluster,
  involved: KubeObject,
  type: EventType,
  reason: string,
  message: string,
  component: string,
  options: { minIntervalMs?: number; host?: string; once?: boolean } = {},
): void {
  const namespace = involved.metadata.namespace ?? 'default';
  const name = eventName(involved, `${component}|${reason}|${message}`);
  const now = cluster.now();
  const existing = cluster.objects.get(T.events, namespace, name);
  if (existing) {
    if (options.once) return;
    if (options.minIntervalMs && now - Date.parse(String(existing.lastTimestamp)) < options.minIntervalMs) return;
    save(cluster, T.events, existing, {
      ...existing,
      count: Number(existing.count ?? 1) + 1,
      lastTimestamp: rfc3339(now),
    });
    return;
  }
  cluster.objects.create(T.events, {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace },
    involvedObject: {
      apiVersion: involved.apiVersion,
      kind: involved.kind,
      name: involved.metadata.name,
      ...(involved.metadata.namespace ? { namespace: involved.metadata.namespace } : {}),
      uid: involved.metadata.uid,
      resourceVersion: involved.metadata.resourceVersion,
    },
    reason,
    message,
    type,
    source: { component, ...(options.host ? { host: options.host } : {}) },
    reportingComponent: component,
    reportingInstance: options.host ?? '',
    firstTimestamp: rfc3339(now),
    lastTimestamp: rfc3339(now),
    count: 1,
  });
}

/** When each cluster's events were last swept: a sweep a minute is plenty (a restart just sweeps sooner). */
const lastSweep = new WeakMap<KubeCluster, number>();

/** Deletes events whose last occurrence is older than the event TTL. */
export function expireEvents(cluster: KubeCluster): void {
  const now = cluster.now();
  if (now - (lastSweep.get(cluster) ?? -Infinity) < 60_000) return;
  lastSweep.set(cluster, now);
  const cutoff = now - EVENT_TTL_MS;
  const expired = (e: Readonly<KubeObject>) => {
    const last = Date.parse(String(e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp));
    return Number.isFinite(last) && last < cutoff;
  };
  for (const e of cluster.objects.select(T.events, undefined, expired).items)
    cluster.objects.remove(T.events, e.metadata.namespace, e.metadata.name!);
}
