import type { KubeCluster } from '../cluster.js';
import { typesOfCrd } from '../resources.js';
import type { KubeObject, ResourceType } from '../types.js';
import { rfc3339, successStatus } from './http.js';
import { served } from './paths.js';
import { isCrd } from './prepare.js';

/**
 * What happens at DELETE time, as kube-apiserver and its controllers do it (the controllers' part
 * done at once): an object with finalizers gets a deletionTimestamp and stays until they are
 * removed; `Foreground` adds the `foregroundDeletion` finalizer and deletes the dependents first
 * (the owner goes once no blocking dependent is left); `Orphan` strips the owner reference from the
 * dependents; `Background` (the default) deletes the owner and leaves the dependents to the garbage
 * collector. A Namespace takes its contents with it, a CRD its custom resources.
 */
export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

export const FOREGROUND = 'foregroundDeletion';
const CRD_CLEANUP = 'customresourcecleanup.apiextensions.k8s.io';

/** Kinds whose immediate delete answers with the deleted object; the others answer with a Status. */
const RETURNS_OBJECT = new Set([
  'core/pods',
  'core/services',
  'core/serviceaccounts',
  'core/namespaces',
  'core/persistentvolumes',
  'core/persistentvolumeclaims',
  'storage.k8s.io/storageclasses',
]);
const kindKey = (t: ResourceType) => `${t.group || 'core'}/${t.resource}`;

const typeOf = (cluster: KubeCluster, o: KubeObject) => cluster.findTypeByKind(o.apiVersion, o.kind);
const dependentsOf = (cluster: KubeCluster, uid: string | undefined) =>
  cluster.objects.all().filter((o) => (o.metadata.ownerReferences ?? []).some((ref) => ref.uid === uid));

/** Deletes (or starts deleting) one object; returns what the DELETE request answers with (the object as `type` serves it, or a Status). */
export function deleteObject(
  cluster: KubeCluster,
  type: ResourceType,
  obj: KubeObject,
  policy: PropagationPolicy | undefined,
): unknown {
  if (policy === 'Orphan') orphanDependents(cluster, obj);
  if (kindKey(type) === 'core/namespaces') return deleteNamespace(cluster, type, obj);
  if (isCrd(type)) return deleteCrd(cluster, type, obj);

  const finalizers = [...(obj.metadata.finalizers ?? [])];
  if (policy === 'Foreground' && !finalizers.includes(FOREGROUND)) finalizers.push(FOREGROUND);
  if (finalizers.length === 0) {
    const removed = cluster.objects.remove(type, obj.metadata.namespace, obj.metadata.name!);
    finishPendingDeletions(cluster);
    if (RETURNS_OBJECT.has(kindKey(type))) return served(type, removed);
    return successStatus({
      name: removed.metadata.name,
      ...(type.group ? { group: type.group } : {}),
      kind: type.resource,
      uid: removed.metadata.uid,
    });
  }
  const marked = markDeleting(cluster, type, obj, finalizers);
  if (finalizers.includes(FOREGROUND)) deleteDependentsFirst(cluster, marked);
  finishPendingDeletions(cluster);
  return served(type, cluster.objects.get(type, obj.metadata.namespace, obj.metadata.name!) ?? marked);
}

function markDeleting(
  cluster: KubeCluster,
  type: ResourceType,
  obj: KubeObject,
  finalizers: string[],
  extra: (o: KubeObject) => void = () => {},
): KubeObject {
  const next: KubeObject = { ...obj, metadata: { ...obj.metadata, finalizers } };
  if (!obj.metadata.deletionTimestamp) {
    next.metadata.deletionTimestamp = rfc3339(cluster.now());
    next.metadata.deletionGracePeriodSeconds = 0;
  }
  extra(next);
  return cluster.objects.update(type, { ...next, metadata: { ...next.metadata, resourceVersion: undefined } });
}

function orphanDependents(cluster: KubeCluster, owner: KubeObject): void {
  for (const dep of dependentsOf(cluster, owner.metadata.uid)) {
    const type = typeOf(cluster, dep);
    if (!type) continue;
    const { ownerReferences = [], ...meta } = dep.metadata;
    const kept = ownerReferences.filter((ref) => ref.uid !== owner.metadata.uid);
    cluster.objects.update(type, {
      ...dep,
      metadata: { ...meta, ...(kept.length ? { ownerReferences: kept } : {}), resourceVersion: undefined },
    });
  }
}

/** The garbage collector's foreground pass: dependents with another live owner only lose this reference; the rest are deleted, in foreground too. */
function deleteDependentsFirst(cluster: KubeCluster, owner: KubeObject): void {
  const live = new Set(
    cluster.objects
      .all()
      .filter((o) => !o.metadata.deletionTimestamp)
      .map((o) => o.metadata.uid),
  );
  for (const dep of dependentsOf(cluster, owner.metadata.uid)) {
    const type = typeOf(cluster, dep);
    const current = type && cluster.objects.get(type, dep.metadata.namespace, dep.metadata.name!);
    if (!type || !current || current.metadata.deletionTimestamp) continue;
    const others = (current.metadata.ownerReferences ?? []).filter((ref) => ref.uid !== owner.metadata.uid);
    if (others.some((ref) => live.has(ref.uid))) {
      cluster.objects.update(type, {
        ...current,
        metadata: { ...current.metadata, ownerReferences: others, resourceVersion: undefined },
      });
    } else {
      deleteObject(cluster, type, current, 'Foreground');
    }
  }
}

/** Namespaced resource types, one per store (a CRD's versions share one). */
function namespacedStores(cluster: KubeCluster): ResourceType[] {
  const seen = new Set<string>();
  return cluster.types().filter((t) => t.namespaced && !seen.has(kindKey(t)) && Boolean(seen.add(kindKey(t))));
}

function deleteNamespace(cluster: KubeCluster, type: ResourceType, ns: KubeObject): unknown {
  if (ns.metadata.deletionTimestamp) return ns;
  const marked = markDeleting(
    cluster,
    type,
    ns,
    ns.metadata.finalizers ?? [],
    (o) => (o.status = { ...((o.status ?? {}) as object), phase: 'Terminating' }),
  );
  for (const t of namespacedStores(cluster)) {
    for (const o of cluster.objects.list(t, ns.metadata.name))
      if (!o.metadata.deletionTimestamp) deleteObject(cluster, t, o, 'Background');
  }
  finishPendingDeletions(cluster);
  return cluster.objects.get(type, undefined, ns.metadata.name!) ?? marked;
}

function deleteCrd(cluster: KubeCluster, type: ResourceType, crd: KubeObject): unknown {
  if (crd.metadata.deletionTimestamp) return crd;
  const finalizers = [...new Set([...(crd.metadata.finalizers ?? []), CRD_CLEANUP])];
  const marked = markDeleting(cluster, type, crd, finalizers, (o) => {
    const status = (o.status ?? {}) as { conditions?: Array<Record<string, unknown>> };
    const conditions = (status.conditions ?? []).filter((c) => c.type !== 'Terminating');
    conditions.push({
      type: 'Terminating',
      status: 'True',
      lastTransitionTime: rfc3339(cluster.now()),
      reason: 'InstanceDeletionInProgress',
      message: 'CustomResource deletion is in progress',
    });
    o.status = { ...status, conditions };
  });
  const store = typesOfCrd(crd)[0];
  if (store)
    for (const o of cluster.objects.list(store))
      if (!o.metadata.deletionTimestamp) deleteObject(cluster, store, o, 'Background');
  finishPendingDeletions(cluster);
  return cluster.objects.get(type, undefined, crd.metadata.name!) ?? marked;
}

/**
 * Completes deletions that were waiting on something now gone: a Terminating namespace that is
 * empty, a CRD whose custom resources are gone, an owner in foreground deletion with no blocking
 * dependent left, and any object being deleted whose finalizers are all removed. The API calls it
 * after each delete and finalizer removal; the garbage collector may call it on every tick.
 */
export function finishPendingDeletions(cluster: KubeCluster): void {
  for (let changed = true; changed; ) {
    changed = false;
    const all = cluster.objects.all();
    for (const o of all.filter((x) => x.metadata.deletionTimestamp)) {
      const type = typeOf(cluster, o);
      if (!type || !cluster.objects.get(type, o.metadata.namespace, o.metadata.name!)) continue;
      // The namespace controller's `kubernetes` finalizer (in spec) holds a namespace until it is empty.
      if (
        kindKey(type) === 'core/namespaces' &&
        all.some((x) => x.metadata.namespace === o.metadata.name && typeOf(cluster, x)?.namespaced)
      )
        continue;
      const blocking = all.some((x) =>
        (x.metadata.ownerReferences ?? []).some((ref) => ref.uid === o.metadata.uid && ref.blockOwnerDeletion),
      );
      const crdEmpty = isCrd(type) && typesOfCrd(o).every((t) => cluster.objects.list(t).length === 0);
      const before = o.metadata.finalizers ?? [];
      const finalizers = before.filter((f) => !(f === FOREGROUND && !blocking) && !(f === CRD_CLEANUP && crdEmpty));
      if (finalizers.length === 0) {
        cluster.objects.remove(type, o.metadata.namespace, o.metadata.name!);
        changed = true;
      } else if (finalizers.length !== before.length) {
        cluster.objects.update(type, { ...o, metadata: { ...o.metadata, finalizers, resourceVersion: undefined } });
        changed = true;
      }
    }
  }
}
