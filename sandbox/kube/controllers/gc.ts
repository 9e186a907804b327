import type { KubeCluster } from '../cluster.js';
import { deleteObject, finishPendingDeletions, FOREGROUND } from '../api/deletion.js';
import type { KubeObject } from '../types.js';

/**
 * The garbage collector, on every tick (the API does the same work at DELETE time; this catches
 * what appears later and what a restart interrupted):
 * - an object whose owners (by uid) are all gone is deleted (background propagation);
 * - dependents of an owner being deleted in the foreground are deleted, in the foreground too;
 * - an object being deleted with the `orphan` finalizer loses its owner references on its
 *   dependents, then that finalizer;
 * - deletions waiting on something now gone (foregroundDeletion with no blocking dependent left,
 *   no finalizers left, empty terminating namespaces, CRDs without custom resources) complete.
 */
const ORPHAN = 'orphan';

/**
 * The resourceVersion of each cluster's last pass that found nothing to do: with no change since,
 * there is nothing to collect. A pass that deleted something runs again (its deletions may have
 * orphaned more).
 */
const settledAt = new WeakMap<KubeCluster, string>();

export function collectGarbage(cluster: KubeCluster): void {
  const before = cluster.objects.resourceVersion;
  if (settledAt.get(cluster) === before) return;
  collect(cluster);
  if (cluster.objects.resourceVersion === before) settledAt.set(cluster, before);
}

function collect(cluster: KubeCluster): void {
  // Read in place: this pass only reads these; deletions and updates go through the store, which copies.
  const all = cluster.objects.all({ copy: false });
  const byUid = new Map(all.map((o) => [o.metadata.uid!, o]));
  const typeOf = (o: KubeObject) => cluster.findTypeByKind(o.apiVersion, o.kind);
  const current = (o: KubeObject) => {
    const t = typeOf(o);
    return t ? cluster.objects.get(t, o.metadata.namespace, o.metadata.name!) : undefined;
  };

  let deleting = all.some((o) => o.metadata.deletionTimestamp);
  for (const o of all) {
    const refs = o.metadata.ownerReferences ?? [];
    if (refs.length === 0 || o.metadata.deletionTimestamp) continue;
    const owners = refs.map((r) => byUid.get(r.uid));
    const orphaned = owners.every((owner) => owner === undefined);
    const foreground = owners.some(
      (owner) => owner?.metadata.deletionTimestamp && owner.metadata.finalizers?.includes(FOREGROUND),
    );
    if (!orphaned && !foreground) continue;
    const type = typeOf(o);
    const live = current(o);
    if (type && live) {
      deleteObject(cluster, type, live, foreground ? 'Foreground' : 'Background');
      deleting = true;
    }
  }

  for (const o of all) {
    if (!o.metadata.deletionTimestamp || !o.metadata.finalizers?.includes(ORPHAN)) continue;
    for (const dep of cluster.objects
      .all()
      .filter((d) => (d.metadata.ownerReferences ?? []).some((r) => r.uid === o.metadata.uid))) {
      const type = typeOf(dep);
      if (!type) continue;
      const kept = (dep.metadata.ownerReferences ?? []).filter((r) => r.uid !== o.metadata.uid);
      const { ownerReferences: _gone, ...meta } = dep.metadata;
      cluster.objects.update(type, {
        ...dep,
        metadata: { ...meta, ...(kept.length ? { ownerReferences: kept } : {}), resourceVersion: undefined },
      });
    }
    const type = typeOf(o);
    if (type)
      cluster.objects.update(type, {
        ...o,
        metadata: {
          ...o.metadata,
          finalizers: o.metadata.finalizers.filter((f) => f !== ORPHAN),
          resourceVersion: undefined,
        },
      });
  }
  // Reading every object again is the costly part: only when something is being deleted.
  if (deleting) finishPendingDeletions(cluster);
}
