import { health, kubeKind, num, parseBase, rec, str, time, type KubeHealth, type KubeResource } from './kind.js';

/**
 * Event (core v1): what controllers and the kubelet say about an object — the other half of a
 * node's timeline, next to HyperPod's cluster events. Read only.
 */

export type KubeEvent = KubeResource & {
  involvedObject: { kind?: string; name?: string; namespace?: string };
  reason?: string;
  message?: string;
  type: 'Normal' | 'Warning';
  count?: number;
  /** The latest of lastTimestamp, eventTime, firstTimestamp and creation: when it last happened. */
  lastSeen?: string;
};

export function parseEvent(raw: unknown): KubeEvent {
  const base = parseBase(raw, { apiVersion: 'v1', kind: 'Event' });
  const involved = rec(base.involvedObject);
  const lastSeen =
    time(base.lastTimestamp) ?? time(base.eventTime) ?? time(base.firstTimestamp) ?? base.metadata.creationTimestamp;
  return {
    ...base,
    involvedObject: { kind: str(involved.kind), name: str(involved.name), namespace: str(involved.namespace) },
    reason: str(base.reason),
    message: str(base.message),
    type: base.type === 'Warning' ? 'Warning' : 'Normal',
    count: num(base.count),
    ...(lastSeen ? { lastSeen } : {}),
  };
}

export const EVENT = kubeKind<KubeEvent>(
  { apiVersion: 'v1', kind: 'Event', plural: 'events', namespaced: true },
  parseEvent,
);

/** `involvedObject.kind=Node,involvedObject.name=<node>`: the field selector of one object's events. */
export const eventsOf = (kind: string, name?: string): string =>
  `involvedObject.kind=${kind}${name ? `,involvedObject.name=${name}` : ''}`;

/** A Warning is worth a look; a Normal event is just news. */
export const eventHealth = (e: KubeEvent): KubeHealth =>
  e.type === 'Warning'
    ? health('degraded', e.reason ?? 'warning', e.message ?? 'A warning without a message.')
    : health('healthy', e.reason ?? 'normal', e.message ?? '');
