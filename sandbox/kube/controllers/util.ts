import { createHash } from 'node:crypto';
import { sameJson } from '../../core/clone-json.js';
import type { KubeCluster } from '../cluster.js';
import { builtinType } from '../resources.js';
import type { KubeObject, OwnerReference, ResourceType } from '../types.js';

/** Small shared pieces of the simulated controllers. */

export const T = {
  namespaces: builtinType('', 'namespaces'),
  nodes: builtinType('', 'nodes'),
  pods: builtinType('', 'pods'),
  services: builtinType('', 'services'),
  endpoints: builtinType('', 'endpoints'),
  events: builtinType('', 'events'),
  serviceaccounts: builtinType('', 'serviceaccounts'),
  configmaps: builtinType('', 'configmaps'),
  secrets: builtinType('', 'secrets'),
  persistentvolumes: builtinType('', 'persistentvolumes'),
  persistentvolumeclaims: builtinType('', 'persistentvolumeclaims'),
  deployments: builtinType('apps', 'deployments'),
  replicasets: builtinType('apps', 'replicasets'),
  daemonsets: builtinType('apps', 'daemonsets'),
  statefulsets: builtinType('apps', 'statefulsets'),
  jobs: builtinType('batch', 'jobs'),
  ingresses: builtinType('networking.k8s.io', 'ingresses'),
  hpas: builtinType('autoscaling', 'horizontalpodautoscalers'),
  clusterroles: builtinType('rbac.authorization.k8s.io', 'clusterroles'),
  clusterrolebindings: builtinType('rbac.authorization.k8s.io', 'clusterrolebindings'),
  storageclasses: builtinType('storage.k8s.io', 'storageclasses'),
  csidrivers: builtinType('storage.k8s.io', 'csidrivers'),
  crds: builtinType('apiextensions.k8s.io', 'customresourcedefinitions'),
};

// Controllers read and write loosely typed JSON, as the API stores it.
export type Any = Record<string, any>;

/** RFC 3339 with second precision, as metav1.Time serialises. */
export const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A deterministic number in [0, 1) from text: durations and choices stable across restarts. */
export function unit(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 0x1_0000_0000;
}

export const hexHash = (text: string, length: number) =>
  createHash('sha256').update(text).digest('hex').slice(0, length);

/** Hash text in the alphabet Kubernetes uses for generated suffixes (no vowels, no look-alikes). */
export function shortHash(text: string, length = 10): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  const bytes = createHash('sha256').update(text).digest();
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}

export function controllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name!,
    uid: owner.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

export const ownedBy = (obj: Readonly<KubeObject>, owner: KubeObject) =>
  (obj.metadata.ownerReferences ?? []).some((r) => r.uid === owner.metadata.uid && r.controller);

/** The objects of a type in the owner's namespace whose controller is the owner. */
export const dependentsOf = (cluster: KubeCluster, type: ResourceType, owner: KubeObject) =>
  cluster.objects.select(type, owner.metadata.namespace, (o) => ownedBy(o, owner)).items;

/**
 * Every object of a type, grouped by its controller's uid: one read for a whole controller pass
 * (each list clones every object, so reading per owner costs owners × objects).
 */
export function byController(cluster: KubeCluster, type: ResourceType): (owner: KubeObject) => KubeObject[] {
  let groups: Map<string, KubeObject[]> | undefined;
  return (owner) => {
    if (!groups) {
      groups = new Map();
      // Only objects that have a controller are copied.
      for (const o of cluster.objects.select(type, undefined, (x) =>
        (x.metadata.ownerReferences ?? []).some((r) => r.controller),
      ).items) {
        const uid = o.metadata.ownerReferences?.find((r) => r.controller)?.uid;
        if (uid) groups.set(uid, [...(groups.get(uid) ?? []), o]);
      }
    }
    return groups.get(owner.metadata.uid!) ?? [];
  };
}

export { matchesRequirement, matchesSelector } from '../label-selector.js';

export const podPhase = (p: KubeObject): string =>
  ((p.status as Any | undefined)?.phase as string | undefined) ?? 'Pending';
export const isTerminal = (p: KubeObject) => ['Succeeded', 'Failed'].includes(podPhase(p));
/** Counts toward a controller's replicas: not finished and not being deleted. */
export const isActive = (p: KubeObject) => !p.metadata.deletionTimestamp && !isTerminal(p);
export const condition = (o: KubeObject, type: string): Any | undefined =>
  (((o.status as Any | undefined)?.conditions ?? []) as Any[]).find((c) => c.type === type);
export const isReady = (o: KubeObject) => condition(o, 'Ready')?.status === 'True';
export const nodeNameOf = (p: KubeObject): string | undefined => (p.spec as Any | undefined)?.nodeName;

/** Conditions keep their transition (and update) times while their status and reason stay the same: no churn every tick. */
export function keepConditionTimes(previous: Any[] | undefined, next: Any[]): Any[] {
  for (const c of next) {
    const old = (previous ?? []).find((o) => o.type === c.type);
    if (old && old.status === c.status && old.reason === c.reason) {
      if ('lastTransitionTime' in old) c.lastTransitionTime = old.lastTransitionTime;
      if ('lastUpdateTime' in old && old.message === c.message) c.lastUpdateTime = old.lastUpdateTime;
      if ('lastProbeTime' in old) c.lastProbeTime = old.lastProbeTime;
    }
  }
  return next;
}

/** Updates only when something changed (no resourceVersion churn, no watch noise); skips objects deleted meanwhile. */
export function save(cluster: KubeCluster, type: ResourceType, before: KubeObject, after: KubeObject): KubeObject {
  if (sameJson(before, after)) return before;
  if (!cluster.objects.get(type, after.metadata.namespace, after.metadata.name!)) return before;
  return cluster.objects.update(type, {
    ...after,
    metadata: { ...after.metadata, resourceVersion: undefined },
  } as KubeObject);
}

/** Creates when absent (idempotent controllers), returns the stored object. */
export function ensure(cluster: KubeCluster, type: ResourceType, obj: KubeObject): KubeObject {
  return cluster.objects.get(type, obj.metadata.namespace, obj.metadata.name!) ?? cluster.objects.create(type, obj);
}

/** Removes when present (a pod already deleted by a user or another controller is not an error). */
export function removeIfPresent(cluster: KubeCluster, type: ResourceType, obj: KubeObject): boolean {
  if (!cluster.objects.get(type, obj.metadata.namespace, obj.metadata.name!)) return false;
  cluster.objects.remove(type, obj.metadata.namespace, obj.metadata.name!);
  return true;
}

/** `25%` or `1` of a total, as intstr.GetScaledValueFromIntOrPercent. */
export function scaled(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(String(value ?? ''));
  if (!m) return Number.parseInt(String(value ?? '0'), 10) || 0;
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}
