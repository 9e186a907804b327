import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { recordEvent } from './events.js';
import { podFromTemplate } from './pod-template.js';
import {
  byController,
  condition,
  dependentsOf,
  isActive,
  isReady,
  matchesSelector,
  nodeNameOf,
  podPhase,
  removeIfPresent,
  save,
  T,
  type Any,
} from './util.js';

/**
 * The ReplicaSet controller: creates pods from the template until `replicas` are active, deletes
 * the surplus (the least established first, as controller.ActivePods ranks them), and reports
 * replicas, readyReplicas and availableReplicas (ready for at least minReadySeconds).
 */
export function runReplicaSets(cluster: KubeCluster): void {
  const now = cluster.now();
  const podsOf = byController(cluster, T.pods);
  for (const rs of cluster.objects.list(T.replicasets)) {
    if (rs.metadata.deletionTimestamp) continue;
    const spec = rs.spec as Any;
    const want = Number(spec.replicas ?? 1);
    const pods = podsOf(rs).filter(isActive);
    for (let i = pods.length; i < want; i++) {
      const pod = cluster.objects.create(
        T.pods,
        cluster.admit(T.pods, podFromTemplate(rs, spec.template, { generateName: `${rs.metadata.name}-` })),
      );
      recordEvent(
        cluster,
        rs,
        'Normal',
        'SuccessfulCreate',
        `Created pod: ${pod.metadata.name}`,
        'replicaset-controller',
      );
    }
    if (pods.length > want) {
      for (const victim of [...pods].sort(deletionOrder).slice(0, pods.length - want)) {
        if (removeIfPresent(cluster, T.pods, victim))
          recordEvent(
            cluster,
            rs,
            'Normal',
            'SuccessfulDelete',
            `Deleted pod: ${victim.metadata.name}`,
            'replicaset-controller',
          );
      }
    }
    const current = pods.length === want ? pods : dependentsOf(cluster, T.pods, rs).filter(isActive);
    const minReadyMs = Number(spec.minReadySeconds ?? 0) * 1000;
    const status: Any = {
      replicas: current.length,
      fullyLabeledReplicas: current.filter((p) => matchesSelector(p.metadata.labels, spec.selector)).length,
      readyReplicas: current.filter(isReady).length,
      availableReplicas: current.filter((p) => isAvailable(p, minReadyMs, now)).length,
      observedGeneration: rs.metadata.generation,
    };
    for (const k of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'])
      if (status[k] === 0) delete status[k];
    save(cluster, T.replicasets, rs, { ...rs, status });
  }
}

export function isAvailable(pod: KubeObject, minReadyMs: number, now: number): boolean {
  const ready = condition(pod, 'Ready');
  return ready?.status === 'True' && (minReadyMs === 0 || now - Date.parse(ready.lastTransitionTime) >= minReadyMs);
}

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** Unassigned before assigned, Pending before Running, not ready before ready, then the newest first. */
function deletionOrder(a: KubeObject, b: KubeObject): number {
  const assigned = Number(Boolean(nodeNameOf(a))) - Number(Boolean(nodeNameOf(b)));
  if (assigned !== 0) return assigned;
  const phase = (PHASE_RANK[podPhase(a)] ?? 0) - (PHASE_RANK[podPhase(b)] ?? 0);
  if (phase !== 0) return phase;
  const ready = Number(isReady(a)) - Number(isReady(b));
  if (ready !== 0) return ready;
  return (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '');
}
