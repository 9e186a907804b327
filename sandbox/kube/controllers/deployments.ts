import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { recordEvent } from './events.js';
import { templateHash } from './pod-template.js';
import {
  byController,
  controllerRef,
  keepConditionTimes,
  removeIfPresent,
  rfc3339,
  save,
  scaled,
  T,
  type Any,
} from './util.js';

/**
 * The deployment controller: one ReplicaSet per pod template (labelled `pod-template-hash`,
 * annotated with its revision). A changed template gets a new ReplicaSet that a RollingUpdate
 * scales up within maxSurge while the old ones scale down within maxUnavailable, a step per tick
 * as pods become available; Recreate empties the old ones first. Old ReplicaSets beyond
 * revisionHistoryLimit go; status and the Available/Progressing conditions say where it stands.
 */

const REVISION = 'deployment.kubernetes.io/revision';
const HASH = 'pod-template-hash';
const DESIRED = 'deployment.kubernetes.io/desired-replicas';
const MAX = 'deployment.kubernetes.io/max-replicas';

const specReplicas = (rs: KubeObject) => Number((rs.spec as Any)?.replicas ?? 0);
const stat = (rs: KubeObject, key: string) => Number((rs.status as Any | undefined)?.[key] ?? 0);
const revisionOf = (rs: KubeObject) => Number(rs.metadata.annotations?.[REVISION] ?? 0);

export function runDeployments(cluster: KubeCluster): void {
  const setsOf = byController(cluster, T.replicasets);
  for (const d of cluster.objects.list(T.deployments)) {
    if (d.metadata.deletionTimestamp) continue;
    reconcile(cluster, d, setsOf(d));
  }
}

function reconcile(cluster: KubeCluster, d: KubeObject, owned: KubeObject[]): void {
  const spec = d.spec as Any;
  const desired = Number(spec.replicas ?? 1);
  const rollingUpdate = (spec.strategy?.rollingUpdate ?? {}) as Any;
  let maxSurge = scaled(rollingUpdate.maxSurge ?? '25%', desired, true);
  const maxUnavailable = scaled(rollingUpdate.maxUnavailable ?? '25%', desired, false);
  if (maxSurge === 0 && maxUnavailable === 0) maxSurge = 1;
  const hash = templateHash(spec.template);
  let sets = [...owned].sort((a, b) => revisionOf(a) - revisionOf(b));
  let current = sets.find((rs) => rs.metadata.labels?.[HASH] === hash);
  const olds = () => sets.filter((rs) => rs.metadata.uid !== current?.metadata.uid);
  const maxRevision = Math.max(0, ...sets.map(revisionOf));

  if (!current) {
    const recreate = spec.strategy?.type === 'Recreate';
    const noOldPods = olds().every((rs) => stat(rs, 'replicas') === 0 && specReplicas(rs) === 0);
    const initial = spec.paused
      ? 0
      : recreate && !noOldPods
        ? 0
        : sets.length === 0
          ? desired
          : Math.min(desired, Math.max(0, desired + maxSurge - sets.reduce((n, rs) => n + specReplicas(rs), 0)));
    current = cluster.objects.create(
      T.replicasets,
      newReplicaSet(d, hash, initial, maxRevision + 1, desired + maxSurge),
    );
    recordEvent(
      cluster,
      d,
      'Normal',
      'ScalingReplicaSet',
      `Scaled up replica set ${current.metadata.name} from 0 to ${initial}`,
      'deployment-controller',
    );
    sets = [...sets, current];
  } else if (revisionOf(current) < maxRevision) {
    // A rollback to an earlier template: that ReplicaSet becomes the newest revision again.
    current = save(cluster, T.replicasets, current, {
      ...current,
      metadata: {
        ...current.metadata,
        annotations: { ...current.metadata.annotations, [REVISION]: String(maxRevision + 1) },
      },
    });
    sets = sets.map((rs) => (rs.metadata.uid === current!.metadata.uid ? current! : rs));
  }

  if (!spec.paused) {
    const scale = (rs: KubeObject, to: number) => {
      const from = specReplicas(rs);
      const annotations = { ...rs.metadata.annotations, [DESIRED]: String(desired), [MAX]: String(desired + maxSurge) };
      const next = save(cluster, T.replicasets, rs, {
        ...rs,
        metadata: { ...rs.metadata, annotations },
        spec: { ...(rs.spec as Any), replicas: to },
      });
      if (from !== to)
        recordEvent(
          cluster,
          d,
          'Normal',
          'ScalingReplicaSet',
          `Scaled ${to > from ? 'up' : 'down'} replica set ${rs.metadata.name} from ${from} to ${to}`,
          'deployment-controller',
        );
      sets = sets.map((s) => (s.metadata.uid === rs.metadata.uid ? next : s));
    };
    const cur = current;
    if (spec.strategy?.type === 'Recreate') {
      for (const rs of olds()) if (specReplicas(rs) > 0) scale(rs, 0);
      if (olds().every((rs) => stat(rs, 'replicas') === 0)) scale(cur, desired);
      else scale(cur, specReplicas(cur));
    } else {
      rollingScale(sets, cur, desired, maxSurge, maxUnavailable, scale);
    }
    sets = pruneHistory(cluster, sets, current, Number(spec.revisionHistoryLimit ?? 10));
  }
  writeStatus(cluster, d, sets, current, desired, maxUnavailable);
}

function newReplicaSet(d: KubeObject, hash: string, replicas: number, revision: number, max: number): KubeObject {
  const spec = d.spec as Any;
  const template = structuredClone((spec.template ?? {}) as Any);
  template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [HASH]: hash } };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata.name}-${hash}`,
      namespace: d.metadata.namespace,
      labels: { ...(template.metadata.labels as Record<string, string>) },
      annotations: { [DESIRED]: String(spec.replicas ?? 1), [MAX]: String(max), [REVISION]: String(revision) },
      ownerReferences: [controllerRef(d)],
    },
    spec: {
      replicas,
      ...(spec.minReadySeconds ? { minReadySeconds: spec.minReadySeconds } : {}),
      selector: { ...(spec.selector ?? {}), matchLabels: { ...(spec.selector?.matchLabels ?? {}), [HASH]: hash } },
      template,
    },
  };
}

/** One step of a rolling update, as deployment/rolling.go computes it: surge the new set up, then retire old pods while enough stay available. */
function rollingScale(
  sets: KubeObject[],
  current: KubeObject,
  desired: number,
  maxSurge: number,
  maxUnavailable: number,
  scale: (rs: KubeObject, to: number) => void,
): void {
  const olds = () => sets.filter((rs) => rs.metadata.uid !== current.metadata.uid && specReplicas(rs) > 0);
  const total = sets.reduce((n, rs) => n + specReplicas(rs), 0);
  const cur = specReplicas(current);
  if (cur > desired) scale(current, desired);
  else if (cur < desired) {
    const up = Math.min(desired + maxSurge - total, desired - cur);
    if (up > 0) scale(current, cur + up);
  }
  const fresh = sets.find((rs) => rs.metadata.uid === current.metadata.uid)!;
  const minAvailable = desired - maxUnavailable;
  const allPods = sets.reduce((n, rs) => n + stat(rs, 'replicas'), 0);
  const newUnavailable = Math.max(0, specReplicas(fresh) - stat(fresh, 'availableReplicas'));
  let budget = allPods - minAvailable - newUnavailable;
  // Old replicas that are not available anyway go first: removing them costs no availability.
  for (const rs of olds()) {
    if (budget <= 0) break;
    const unhealthy = Math.min(budget, specReplicas(rs) - stat(rs, 'availableReplicas'));
    if (unhealthy > 0) {
      scale(rs, specReplicas(rs) - unhealthy);
      budget -= unhealthy;
    }
  }
  let surplus = sets.reduce((n, rs) => n + stat(rs, 'availableReplicas'), 0) - minAvailable;
  for (const rs of olds()) {
    if (surplus <= 0) break;
    const down = Math.min(surplus, specReplicas(rs));
    scale(rs, specReplicas(rs) - down);
    surplus -= down;
  }
  // A deployment scaled down mid-rollout: take the excess from the old sets.
  const excess = sets.reduce((n, rs) => n + specReplicas(rs), 0) - (desired + maxSurge);
  if (excess > 0) {
    let left = excess;
    for (const rs of olds()) {
      const down = Math.min(left, specReplicas(rs));
      if (down > 0) scale(rs, specReplicas(rs) - down);
      left -= down;
    }
  }
}

/** Removes the oldest idle ReplicaSets beyond the history limit; returns the ones kept. */
function pruneHistory(cluster: KubeCluster, sets: KubeObject[], current: KubeObject, limit: number): KubeObject[] {
  const idle = sets
    .filter((rs) => rs.metadata.uid !== current.metadata.uid && specReplicas(rs) === 0 && stat(rs, 'replicas') === 0)
    .sort((a, b) => revisionOf(a) - revisionOf(b));
  const pruned = new Set(idle.slice(0, Math.max(0, idle.length - limit)).map((rs) => rs.metadata.uid));
  for (const rs of sets) if (pruned.has(rs.metadata.uid)) removeIfPresent(cluster, T.replicasets, rs);
  return sets.filter((rs) => !pruned.has(rs.metadata.uid));
}

function writeStatus(
  cluster: KubeCluster,
  d: KubeObject,
  sets: KubeObject[],
  current: KubeObject,
  desired: number,
  maxUnavailable: number,
): void {
  const spec = d.spec as Any;
  const sum = (key: string) => sets.reduce((n, rs) => n + stat(rs, key), 0);
  const fresh = sets.find((rs) => rs.metadata.uid === current.metadata.uid) ?? current;
  const updated = stat(fresh, 'replicas');
  const available = sum('availableReplicas');
  const replicas = sum('replicas');
  const old = (d.status ?? {}) as Any;
  const now = cluster.now();
  const complete = updated === desired && replicas === desired && available === desired;
  const counts = {
    replicas,
    updatedReplicas: updated,
    readyReplicas: sum('readyReplicas'),
    availableReplicas: available,
  };
  const progressed = ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas'].some(
    (k) => (old[k] ?? 0) !== counts[k as keyof typeof counts],
  );
  const oldProgressing = ((old.conditions ?? []) as Any[]).find((c) => c.type === 'Progressing');
  const lastProgress = progressed || !oldProgressing ? now : Date.parse(oldProgressing.lastUpdateTime);
  const rsName = `ReplicaSet "${current.metadata.name}"`;
  const deadline = Number(spec.progressDeadlineSeconds ?? 600) * 1000;
  const progressing = spec.paused
    ? { status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' }
    : complete
      ? { status: 'True', reason: 'NewReplicaSetAvailable', message: `${rsName} has successfully progressed.` }
      : oldProgressing?.reason === 'ProgressDeadlineExceeded' || now - lastProgress > deadline
        ? { status: 'False', reason: 'ProgressDeadlineExceeded', message: `${rsName} has timed out progressing.` }
        : { status: 'True', reason: 'ReplicaSetUpdated', message: `${rsName} is progressing.` };
  const availableOk = available >= desired - maxUnavailable;
  const at = rfc3339(now);
  const conditions = keepConditionTimes(old.conditions, [
    {
      type: 'Available',
      status: availableOk ? 'True' : 'False',
      lastUpdateTime: at,
      lastTransitionTime: at,
      reason: availableOk ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
      message: availableOk ? 'Deployment has minimum availability.' : 'Deployment does not have minimum availability.',
    },
    {
      type: 'Progressing',
      ...progressing,
      lastUpdateTime: progressed ? at : (oldProgressing?.lastUpdateTime ?? at),
      lastTransitionTime: at,
    },
  ]);
  if (progressed) conditions[1]!.lastUpdateTime = at;
  const status: Any = {
    observedGeneration: d.metadata.generation,
    ...counts,
    ...(desired - available > 0 ? { unavailableReplicas: desired - available } : {}),
    conditions,
  };
  for (const k of ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas'])
    if (status[k] === 0) delete status[k];
  const annotations = { ...d.metadata.annotations, [REVISION]: current.metadata.annotations?.[REVISION] ?? '1' };
  save(cluster, T.deployments, d, { ...d, metadata: { ...d.metadata, annotations }, status });
}
