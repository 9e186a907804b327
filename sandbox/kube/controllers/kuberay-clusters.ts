import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { recordEvent } from './events.js';
import { podFromTemplate } from './pod-template.js';
import { parseQuantity } from './quantity.js';
import {
  byController,
  controllerRef,
  ensure,
  isActive,
  isReady,
  podPhase,
  removeIfPresent,
  rfc3339,
  save,
  T,
  type Any,
} from './util.js';

/**
 * KubeRay's RayCluster controller (while the cluster serves `rayclusters.ray.io`, the KubeRay
 * feature): a head pod (`<cluster>-head-xxxxx`) and, per worker group, `replicas` (within
 * minReplicas..maxReplicas, times numOfHosts) worker pods (`<cluster>-<group>-worker-xxxxx`),
 * labelled `ray.io/cluster`, `ray.io/node-type` (head|worker), `ray.io/group` (headgroup|<group>),
 * running `ray start` as KubeRay writes it; the head Service `<cluster>-head-svc` (gcs-server 6379,
 * dashboard 8265, client 10001, metrics 8080). Pods that finish or fail are replaced;
 * `scaleStrategy.workersToDelete` pods go. Status: `state: ready` once the head and every desired
 * worker run and are ready, `desiredWorkerReplicas`, `availableWorkerReplicas`,
 * `readyWorkerReplicas`, `desiredCPU/GPU/Memory`, `head{podIP, podName, serviceIP, serviceName}`,
 * `endpoints`, conditions HeadPodReady and RayClusterProvisioned.
 */

export const RAY_CLUSTER = 'ray.io/cluster';
export const NODE_TYPE = 'ray.io/node-type';
export const RAY_GROUP = 'ray.io/group';
const REPORTER = 'raycluster-controller';
const PORTS = [
  { name: 'gcs-server', port: 6379 },
  { name: 'dashboard', port: 8265 },
  { name: 'client', port: 10001 },
  { name: 'metrics', port: 8080 },
];

export const headServiceName = (cluster: string) => `${cluster}-head-svc`;
export const headServiceHost = (cluster: string, namespace: string) =>
  `${headServiceName(cluster)}.${namespace}.svc.cluster.local`;

export function runRayClusters(cluster: KubeCluster): void {
  const type = cluster.findType('ray.io', 'v1', 'rayclusters');
  if (!type) return;
  const clusters = cluster.objects.list(type);
  if (clusters.length === 0) return;
  const podsOf = byController(cluster, T.pods);
  for (const rc of clusters) {
    if (rc.metadata.deletionTimestamp) continue;
    const status = reconcile(cluster, rc, podsOf(rc));
    save(cluster, type, rc, { ...rc, status });
  }
}

function reconcile(cluster: KubeCluster, rc: KubeObject, owned: KubeObject[]): Any {
  const spec = (rc.spec ?? {}) as Any;
  const name = rc.metadata.name!;
  const ns = rc.metadata.namespace ?? 'default';
  const st = structuredClone((rc.status ?? {}) as Any);
  const now = cluster.now();
  const event = (reason: string, message: string) => recordEvent(cluster, rc, 'Normal', reason, message, REPORTER);
  const service = ensure(cluster, T.services, headService(rc));

  // Finished or failed Ray pods are replaced; so are workers asked for by name in workersToDelete.
  let pods = owned.filter((p) => !p.metadata.deletionTimestamp);
  const toDelete = new Set(
    ((spec.workerGroupSpecs ?? []) as Any[]).flatMap((g) =>
      ((g?.scaleStrategy?.workersToDelete ?? []) as string[]).map(String),
    ),
  );
  for (const p of pods) {
    if (!isActive(p) || toDelete.has(p.metadata.name!)) {
      removeIfPresent(cluster, T.pods, p);
      event('Deleted', `Deleted ${p.metadata.labels?.[NODE_TYPE] ?? ''} Pod ${ns}/${p.metadata.name}`);
    }
  }
  pods = pods.filter((p) => isActive(p) && !toDelete.has(p.metadata.name!));

  let head = pods.find((p) => p.metadata.labels?.[NODE_TYPE] === 'head');
  if (!head && !spec.suspend) {
    head = cluster.objects.create(
      T.pods,
      cluster.admit(T.pods, rayPod(rc, spec.headGroupSpec ?? {}, 'head', 'headgroup')),
    );
    event('Created', `Created head Pod ${ns}/${head.metadata.name}`);
  }
  let desiredWorkers = 0;
  const workers: KubeObject[] = [];
  for (const group of (spec.workerGroupSpecs ?? []) as Any[]) {
    const groupName = String(group?.groupName ?? 'workers');
    const min = Number(group.minReplicas ?? 0);
    const max = Number(group.maxReplicas ?? 2147483647);
    const hosts = Math.max(1, Number(group.numOfHosts ?? 1));
    const desired =
      spec.suspend || group.suspend ? 0 : Math.min(max, Math.max(min, Number(group.replicas ?? min))) * hosts;
    desiredWorkers += desired;
    const mine = pods.filter(
      (p) => p.metadata.labels?.[NODE_TYPE] === 'worker' && p.metadata.labels?.[RAY_GROUP] === groupName,
    );
    for (const extra of mine.slice(desired)) {
      removeIfPresent(cluster, T.pods, extra);
      event('Deleted', `Deleted worker Pod ${ns}/${extra.metadata.name}`);
    }
    const kept = mine.slice(0, desired);
    for (let i = kept.length; i < desired; i++) {
      const pod = cluster.objects.create(T.pods, cluster.admit(T.pods, rayPod(rc, group, 'worker', groupName)));
      kept.push(pod);
      event('Created', `Created worker Pod ${ns}/${pod.metadata.name}`);
    }
    workers.push(...kept);
  }
  if (spec.suspend && head) removeIfPresent(cluster, T.pods, head);

  const up = (p: KubeObject | undefined) => !!p && podPhase(p) === 'Running' && isReady(p);
  const available = workers.filter(up).length;
  const ready = !spec.suspend && up(head) && available >= desiredWorkers;
  const at = rfc3339(now);
  const totals = resourceTotals(spec);
  const headIp = (head?.status as Any | undefined)?.podIP;
  const serviceIp = (service.spec as Any | undefined)?.clusterIP;
  return {
    ...st,
    ...(spec.suspend ? { state: 'suspended' } : ready || st.state === 'ready' ? { state: 'ready' } : {}),
    ...(ready && st.state !== 'ready'
      ? { stateTransitionTimes: { ...(st.stateTransitionTimes ?? {}), ready: at } }
      : {}),
    desiredWorkerReplicas: desiredWorkers,
    availableWorkerReplicas: available,
    readyWorkerReplicas: available,
    minWorkerReplicas: ((spec.workerGroupSpecs ?? []) as Any[]).reduce(
      (n, g) => n + Number(g?.minReplicas ?? 0) * Math.max(1, Number(g?.numOfHosts ?? 1)),
      0,
    ),
    maxWorkerReplicas: ((spec.workerGroupSpecs ?? []) as Any[]).reduce(
      (n, g) => n + Math.min(2147483647, Number(g?.maxReplicas ?? 2147483647)),
      0,
    ),
    desiredCPU: totals.cpu,
    desiredMemory: totals.memory,
    desiredGPU: totals.gpu,
    desiredTPU: '0',
    endpoints: Object.fromEntries(PORTS.map((p) => [p.name, String(p.port)])),
    head: {
      ...(headIp ? { podIP: headIp } : {}),
      ...(head ? { podName: head.metadata.name } : {}),
      ...(serviceIp ? { serviceIP: serviceIp } : {}),
      serviceName: service.metadata.name,
    },
    conditions: conditionsOf(st.conditions, up(head), ready, at),
    observedGeneration: rc.metadata.generation ?? 1,
    ...(JSON.stringify(st.availableWorkerReplicas) !== JSON.stringify(available) || !st.lastUpdateTime
      ? { lastUpdateTime: at }
      : {}),
  };
}

function conditionsOf(previous: Any[] | undefined, headReady: boolean, ready: boolean, at: string): Any[] {
  const was = (type: string) => (previous ?? []).find((c) => c.type === type);
  const cond = (type: string, ok: boolean, reason: string, message: string) => {
    const old = was(type);
    return {
      type,
      status: ok ? 'True' : 'False',
      reason,
      message,
      lastTransitionTime: old && old.status === (ok ? 'True' : 'False') ? old.lastTransitionTime : at,
    };
  };
  const provisioned = ready || was('RayClusterProvisioned')?.status === 'True';
  return [
    cond(
      'HeadPodReady',
      headReady,
      headReady ? 'HeadPodRunningAndReady' : 'HeadPodNotReady',
      headReady ? '' : 'the head Pod is not running and ready yet',
    ),
    cond(
      'RayClusterProvisioned',
      provisioned,
      provisioned ? 'AllPodRunningAndReadyFirstTime' : 'RayClusterPodsProvisioning',
      provisioned
        ? 'All Ray Pods are ready for the first time'
        : 'RayCluster Pods are being provisioned for first time',
    ),
  ];
}

/** A Ray pod from a group's template: KubeRay's labels, `ray start` in the Ray container (its first), the cluster's address. */
function rayPod(rc: KubeObject, group: Any, nodeType: 'head' | 'worker', groupName: string): KubeObject {
  const name = rc.metadata.name!;
  const ns = rc.metadata.namespace ?? 'default';
  const labels = {
    [RAY_CLUSTER]: name,
    [NODE_TYPE]: nodeType,
    [RAY_GROUP]: groupName,
    'ray.io/identifier': `${name}-${nodeType}`,
    'ray.io/is-ray-node': 'yes',
    'app.kubernetes.io/created-by': 'kuberay-operator',
    'app.kubernetes.io/name': 'kuberay',
  };
  const keepCommand = rc.metadata.annotations?.['ray.io/overwrite-container-cmd'] === 'true';
  return podFromTemplate(
    rc,
    group.template,
    { generateName: nodeType === 'head' ? `${name}-head-` : `${name}-${groupName}-worker-`, labels },
    (spec) => {
      const ray = ((spec.containers ?? []) as Any[])[0];
      if (!ray) return;
      const params = Object.entries((group.rayStartParams ?? {}) as Record<string, string>).map(([k, v]) =>
        v === 'true' || v === '' ? `--${k}` : `--${k}=${v}`,
      );
      const gpus = parseQuantity(ray.resources?.limits?.['nvidia.com/gpu'] ?? 0);
      const start =
        nodeType === 'head'
          ? [
              'ray start --head',
              '--dashboard-host=0.0.0.0',
              '--metrics-export-port=8080',
              ...params,
              ...(gpus ? [`--num-gpus=${gpus}`] : []),
              '--block',
            ]
          : [
              `ray start --address=${headServiceHost(name, ns)}:6379`,
              '--metrics-export-port=8080',
              ...params,
              ...(gpus ? [`--num-gpus=${gpus}`] : []),
              '--block',
            ];
      if (!keepCommand) {
        ray.command = ['/bin/bash', '-lc', '--'];
        ray.args = [`ulimit -n 65536; ${start.join(' ')}`];
      }
      const env =
        nodeType === 'head'
          ? [
              { name: 'RAY_CLUSTER_NAME', value: name },
              { name: 'RAY_ADDRESS', value: '127.0.0.1:6379' },
              { name: 'RAY_USAGE_STATS_KUBERAY_IN_USE', value: '1' },
            ]
          : [
              { name: 'RAY_CLUSTER_NAME', value: name },
              { name: 'FQ_RAY_IP', value: headServiceHost(name, ns) },
              { name: 'RAY_IP', value: headServiceName(name) },
              { name: 'RAY_ADDRESS', value: `${headServiceHost(name, ns)}:6379` },
              { name: 'RAY_USAGE_STATS_KUBERAY_IN_USE', value: '1' },
            ];
      const names = new Set(env.map((e) => e.name));
      ray.env = [...((ray.env ?? []) as Any[]).filter((e) => !names.has(e?.name)), ...env];
    },
  );
}

function headService(rc: KubeObject): KubeObject {
  const name = rc.metadata.name!;
  const spec = (rc.spec ?? {}) as Any;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: headServiceName(name),
      namespace: rc.metadata.namespace,
      labels: {
        [RAY_CLUSTER]: name,
        [NODE_TYPE]: 'head',
        'app.kubernetes.io/created-by': 'kuberay-operator',
        'app.kubernetes.io/name': 'kuberay',
      },
      ownerReferences: [controllerRef(rc)],
    },
    spec: {
      type: spec.headGroupSpec?.serviceType ?? 'ClusterIP',
      selector: { [RAY_CLUSTER]: name, [NODE_TYPE]: 'head' },
      ports: PORTS.map((p) => ({ name: p.name, port: p.port, protocol: 'TCP', targetPort: p.port })),
    },
  };
}

/** desiredCPU/GPU/Memory: the requests (else limits) of the head and every desired worker, as KubeRay sums them. */
function resourceTotals(spec: Any): { cpu: string; memory: string; gpu: string } {
  let cpu = 0;
  let memory = 0;
  let gpu = 0;
  const add = (template: Any, times: number) => {
    for (const c of (template?.spec?.containers ?? []) as Any[]) {
      const r = { ...((c.resources?.limits ?? {}) as Any), ...((c.resources?.requests ?? {}) as Any) };
      cpu += parseQuantity(r.cpu ?? 0) * times;
      memory += parseQuantity(r.memory ?? 0) * times;
      gpu += parseQuantity(c.resources?.limits?.['nvidia.com/gpu'] ?? r['nvidia.com/gpu'] ?? 0) * times;
    }
  };
  add(spec.headGroupSpec?.template, 1);
  for (const g of (spec.workerGroupSpecs ?? []) as Any[])
    add(
      g?.template,
      Math.min(Number(g?.maxReplicas ?? 2147483647), Math.max(Number(g?.minReplicas ?? 0), Number(g?.replicas ?? 0))) *
        Math.max(1, Number(g?.numOfHosts ?? 1)),
    );
  const gi = memory / 2 ** 30;
  return {
    cpu: Number.isInteger(cpu) ? String(cpu) : `${Math.round(cpu * 1000)}m`,
    memory: Number.isInteger(gi) ? `${gi}Gi` : String(Math.round(memory)),
    gpu: String(gpu),
  };
}
