import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { recordEvent } from './events.js';
import { podFromTemplate, templateHash } from './pod-template.js';
import { isAvailable } from './replicasets.js';
import { byController, dependentsOf, isReady, isTerminal, removeIfPresent, save, T, type Any } from './util.js';

/**
 * The StatefulSet controller: pods `<name>-0 … <name>-(n-1)` with stable names and hostnames.
 * OrderedReady (the default) creates ordinal i only once every lower ordinal is Running and Ready
 * and removes the highest ordinal first, one at a time; Parallel does all at once. A template
 * change rolls pods from the highest ordinal down to `partition`, one at a time, each once the
 * others are ready. Failed pods are replaced under the same name.
 */

const REVISION = 'controller-revision-hash';

export function runStatefulSets(cluster: KubeCluster): void {
  const now = cluster.now();
  const podsOf = byController(cluster, T.pods);
  for (const sts of cluster.objects.list(T.statefulsets)) {
    if (sts.metadata.deletionTimestamp) continue;
    const spec = sts.spec as Any;
    const want = Number(spec.replicas ?? 1);
    const ordered = (spec.podManagementPolicy ?? 'OrderedReady') === 'OrderedReady';
    const revision = `${sts.metadata.name}-${templateHash(spec.template)}`;
    const name = (i: number) => `${sts.metadata.name}-${i}`;
    const ordinal = (p: KubeObject) => Number(p.metadata.name!.slice(sts.metadata.name!.length + 1));
    let pods = podsOf(sts).sort((a, b) => ordinal(a) - ordinal(b));
    const runningAndReady = (p: KubeObject | undefined) =>
      p !== undefined && !p.metadata.deletionTimestamp && isReady(p);

    // Failed (or finished) pods come back under the same name.
    for (const p of pods.filter(isTerminal)) {
      if (removeIfPresent(cluster, T.pods, p))
        recordEvent(
          cluster,
          sts,
          'Normal',
          'SuccessfulDelete',
          `delete Pod ${p.metadata.name} in StatefulSet ${sts.metadata.name} successful`,
          'statefulset-controller',
        );
    }
    pods = pods.filter((p) => !isTerminal(p));
    const byOrdinal = new Map(pods.map((p) => [ordinal(p), p]));
    for (let i = 0; i < want; i++) {
      if (byOrdinal.has(i)) continue;
      if (ordered && ![...Array(i).keys()].every((j) => runningAndReady(byOrdinal.get(j)))) break;
      const pod = cluster.objects.create(T.pods, cluster.admit(T.pods, statefulPod(sts, name(i), i, revision)));
      byOrdinal.set(i, pod);
      recordEvent(
        cluster,
        sts,
        'Normal',
        'SuccessfulCreate',
        `create Pod ${pod.metadata.name} in StatefulSet ${sts.metadata.name} successful`,
        'statefulset-controller',
      );
      if (ordered) break;
    }
    const surplus = [...byOrdinal.keys()].filter((i) => i >= want).sort((a, b) => b - a);
    for (const i of ordered ? surplus.slice(0, 1) : surplus) {
      if (removeIfPresent(cluster, T.pods, byOrdinal.get(i)!))
        recordEvent(
          cluster,
          sts,
          'Normal',
          'SuccessfulDelete',
          `delete Pod ${name(i)} in StatefulSet ${sts.metadata.name} successful`,
          'statefulset-controller',
        );
      byOrdinal.delete(i);
    }
    // Rolling update: the highest outdated ordinal at or above the partition, once all others are ready.
    const partition = Number(spec.updateStrategy?.rollingUpdate?.partition ?? 0);
    if ((spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
      const outdated = [...byOrdinal.entries()]
        .filter(([i, p]) => i >= partition && i < want && p.metadata.labels?.[REVISION] !== revision)
        .sort((a, b) => b[0] - a[0]);
      if (outdated.length > 0 && [...byOrdinal.values()].every((p) => p === outdated[0]![1] || runningAndReady(p))) {
        const [i, p] = outdated[0]!;
        if (removeIfPresent(cluster, T.pods, p))
          recordEvent(
            cluster,
            sts,
            'Normal',
            'SuccessfulDelete',
            `delete Pod ${p.metadata.name} in StatefulSet ${sts.metadata.name} successful`,
            'statefulset-controller',
          );
        byOrdinal.delete(i);
      }
    }
    const current = dependentsOf(cluster, T.pods, sts).filter((p) => !isTerminal(p));
    const updated = current.filter((p) => p.metadata.labels?.[REVISION] === revision).length;
    const oldStatus = (sts.status ?? {}) as Any;
    const minReadyMs = Number(spec.minReadySeconds ?? 0) * 1000;
    const status: Any = {
      observedGeneration: sts.metadata.generation,
      replicas: current.length,
      readyReplicas: current.filter(isReady).length,
      currentReplicas: updated === current.length ? updated : current.length - updated,
      updatedReplicas: updated,
      availableReplicas: current.filter((p) => isAvailable(p, minReadyMs, now)).length,
      currentRevision: updated === current.length ? revision : (oldStatus.currentRevision ?? revision),
      updateRevision: revision,
      collisionCount: 0,
    };
    for (const k of ['readyReplicas', 'currentReplicas', 'updatedReplicas']) if (status[k] === 0) delete status[k];
    save(cluster, T.statefulsets, sts, { ...sts, status });
  }
}

function statefulPod(sts: KubeObject, name: string, index: number, revision: string): KubeObject {
  const spec = sts.spec as Any;
  return podFromTemplate(
    sts,
    spec.template,
    {
      name,
      labels: {
        [REVISION]: revision,
        'statefulset.kubernetes.io/pod-name': name,
        'apps.kubernetes.io/pod-index': String(index),
      },
    },
    (podSpec) => {
      podSpec.hostname = name;
      if (spec.serviceName) podSpec.subdomain = spec.serviceName;
    },
  );
}
