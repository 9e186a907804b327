import {
  health,
  kubeKind,
  list,
  num,
  parseBase,
  rec,
  str,
  type KubeHealth,
  type KubeResource,
  type Loose,
} from './kind.js';

/**
 * RayCluster (ray.io/v1): a Ray head and worker groups run by KubeRay (the `kuberay-operator`
 * feature). A RayJob makes its own (status.rayClusterName) and removes it when done. Shapes:
 * hyperpod-apis.md §3.4. KubeRay labels the pods `ray.io/cluster=<name>`, `ray.io/node-type=head|worker`
 * and `ray.io/group=<groupName|headgroup>`.
 */

export const RAY_API = 'ray.io/v1';
export const RAY_INSTALLED_BY =
  "the KubeRay operator (turn the kuberay-operator feature on: the cluster's Features tab, or set_features)";
export const RAY_CLUSTER_LABEL = 'ray.io/cluster';
export const RAY_NODE_TYPE_LABEL = 'ray.io/node-type';
export const RAY_GROUP_LABEL = 'ray.io/group';

export type RayWorkerGroup = Loose & {
  groupName: string;
  replicas: number;
  minReplicas?: number;
  maxReplicas?: number;
};

export type KubeRayCluster = KubeResource & {
  spec: Loose & { headGroupSpec: Loose; workerGroupSpecs: RayWorkerGroup[]; suspend?: boolean };
  status: Loose & {
    state?: string;
    reason?: string;
    availableWorkerReplicas?: number;
    desiredWorkerReplicas?: number;
    readyWorkerReplicas?: number;
  };
};

/** The spec parts a RayJob embeds (spec.rayClusterSpec) read the same way. */
export function parseRayClusterSpec(v: unknown): KubeRayCluster['spec'] {
  const spec = rec(v);
  return {
    ...spec,
    headGroupSpec: rec(spec.headGroupSpec),
    workerGroupSpecs: list(spec.workerGroupSpecs)
      .map(rec)
      .filter((g) => typeof g.groupName === 'string')
      .map((g) => ({
        ...g,
        groupName: g.groupName as string,
        replicas: num(g.replicas) ?? 0,
        ...(num(g.minReplicas) !== undefined ? { minReplicas: num(g.minReplicas) } : {}),
        ...(num(g.maxReplicas) !== undefined ? { maxReplicas: num(g.maxReplicas) } : {}),
      })),
    ...(typeof spec.suspend === 'boolean' ? { suspend: spec.suspend } : {}),
  };
}

export function parseRayCluster(raw: unknown): KubeRayCluster {
  const base = parseBase(raw, { apiVersion: RAY_API, kind: 'RayCluster' });
  const status = rec(base.status);
  const n = (k: string) => (num(status[k]) !== undefined ? { [k]: num(status[k]) } : {});
  return {
    ...base,
    spec: parseRayClusterSpec(base.spec),
    status: {
      ...status,
      ...(str(status.state) ? { state: str(status.state) } : {}),
      ...(str(status.reason) ? { reason: str(status.reason) } : {}),
      ...n('availableWorkerReplicas'),
      ...n('desiredWorkerReplicas'),
      ...n('readyWorkerReplicas'),
    },
  };
}

export const RAY_CLUSTER = kubeKind<KubeRayCluster>(
  {
    apiVersion: RAY_API,
    kind: 'RayCluster',
    plural: 'rayclusters',
    namespaced: true,
    crd: 'rayclusters.ray.io',
    installedBy: RAY_INSTALLED_BY,
    health: rayClusterHealth,
  },
  parseRayCluster,
);

/** ready → healthy; unhealthy → degraded; failed → failed; suspended or not reported yet → transitional. */
export function rayClusterHealth(c: KubeRayCluster): KubeHealth {
  const name = `RayCluster ${c.metadata.name}`;
  const workers =
    c.status.desiredWorkerReplicas !== undefined
      ? ` (${c.status.availableWorkerReplicas ?? 0}/${c.status.desiredWorkerReplicas} workers)`
      : '';
  switch (c.status.state) {
    case 'ready':
      return health('healthy', 'ready', `${name} is ready${workers}.`);
    case 'failed':
      return health(
        'failed',
        c.status.reason ?? 'failed',
        `${name} failed${c.status.reason ? `: ${c.status.reason}` : ''}.`,
      );
    case 'unhealthy':
      return health(
        'degraded',
        c.status.reason ?? 'unhealthy',
        `${name} is unhealthy${c.status.reason ? `: ${c.status.reason}` : ''}${workers}.`,
      );
    case 'suspended':
      return health('transitional', 'suspended', `${name} is suspended.`);
    default:
      return health('transitional', 'pending', `${name} is starting${workers}.`);
  }
}
