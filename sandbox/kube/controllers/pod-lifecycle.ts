import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { advanceContainer, freshStatus, probeReady, type PullFailure, type RunContext } from './container-runs.js';
import { recordEvent } from './events.js';
import { programOf } from './log-programs.js';
import { listensAfterMs } from '../serving/servers.js';
import { qosClass } from './pod-template.js';
import { isReady, isTerminal, keepConditionTimes, nodeNameOf, rfc3339, save, T, unit, type Any } from './util.js';
import { mountProblem, type VolumeWorld } from './volume-mounts.js';

/** The kubelet retries a failed mount with back-off; its FailedMount event is counted at most this often. */
const MOUNT_EVENT_INTERVAL_MS = 120_000;

/**
 * The kubelet of every Ready node: for each pod bound to it, an IP from the node's subnet (the VPC
 * CNI gives pods VPC addresses; host-network pods share the node's), init containers one after
 * another, then the containers (container-runs.ts); the phase, the conditions
 * PodReadyToStartContainers/Initialized/ContainersReady/Ready/PodScheduled and the container
 * statuses say it all as a kubelet would. `activeDeadlineSeconds` fails a pod that runs too long.
 * Before any container starts, the pod's volumes must mount (volume-mounts.ts): until they do, it
 * stays in ContainerCreating with a FailedMount event. `world` answers what the mounts need of the
 * cloud (S3 buckets); without it buckets are not checked.
 */
export function runKubelets(
  cluster: KubeCluster,
  world?: VolumeWorld,
  pullFailure?: (image: string) => PullFailure | undefined,
): void {
  const now = cluster.now();
  const nodes = new Map(cluster.objects.list(T.nodes).map((n) => [n.metadata.name!, n]));
  // A kubelet that is not Ready does nothing (the node lifecycle controller marks its pods), and a
  // settled pod has nothing due: both are told apart in place, so a quiet cluster copies no pod.
  const due = (p: Readonly<KubeObject>) => {
    const nodeName = nodeNameOf(p as KubeObject);
    if (!nodeName || p.metadata.deletionTimestamp || isTerminal(p as KubeObject)) return false;
    const node = nodes.get(nodeName);
    return !!node && isReady(node) && !settled(cluster, p as KubeObject, now);
  };
  const work = cluster.objects.select(T.pods, undefined, due).items;
  if (work.length === 0) return;
  const usedIps = new Set<string>();
  const images = new Map<string, Set<string>>();
  // Read in place (nothing here changes a pod): addresses in use and images already on each node.
  cluster.objects.scan(T.pods, undefined, (p) => {
    const st = p.status as Any | undefined;
    if (st?.podIP) usedIps.add(st.podIP);
    const node = nodeNameOf(p as KubeObject);
    if (node) {
      const set = images.get(node) ?? new Set<string>();
      for (const cs of [...((st?.containerStatuses ?? []) as Any[]), ...((st?.initContainerStatuses ?? []) as Any[])])
        if (cs.imageID) set.add(cs.image);
      images.set(node, set);
    }
  });
  for (const pod of work) {
    const nodeName = nodeNameOf(pod)!;
    const node = nodes.get(nodeName)!;
    const next = step(cluster, pod, node, now, usedIps, images.get(nodeName) ?? new Set(), world, pullFailure);
    save(cluster, T.pods, pod, next);
  }
}

/** A running pod with nothing due: every container running a program that has not ended, ready as it should be. */
function settled(cluster: KubeCluster, pod: KubeObject, now: number): boolean {
  const spec = pod.spec as Any;
  const st = (pod.status ?? {}) as Any;
  if (st.phase !== 'Running' || spec.activeDeadlineSeconds !== undefined || !isReady(pod)) return false;
  const containers = (spec.containers ?? []) as Any[];
  return ((st.containerStatuses ?? []) as Any[]).every((cs) => {
    const container = containers.find((c) => c.name === cs.name);
    if (!container || !cs.state?.running || !cs.ready || container.readinessProbe) return false;
    const exit = programOf(pod, container, cs.restartCount, cluster).exitAfterMs;
    return exit === undefined || now < Date.parse(cs.state.running.startedAt) + exit;
  });
}

/** Whether any container of the pod has started (its volumes were mounted then: they are not checked again). */
function anyStarted(st: Any): boolean {
  return [...((st.initContainerStatuses ?? []) as Any[]), ...((st.containerStatuses ?? []) as Any[])].some(
    (cs) =>
      cs.state?.running ||
      cs.state?.terminated ||
      cs.lastState?.terminated ||
      cs.restartCount > 0 ||
      (cs.state?.waiting && !['ContainerCreating', 'PodInitializing'].includes(cs.state.waiting.reason)),
  );
}

function step(
  cluster: KubeCluster,
  pod: KubeObject,
  node: KubeObject,
  now: number,
  usedIps: Set<string>,
  imagesOnNode: Set<string>,
  world?: VolumeWorld,
  pullFailure?: (image: string) => PullFailure | undefined,
): KubeObject {
  const next = structuredClone(pod);
  const spec = next.spec as Any;
  const st = (next.status ??= {}) as Any;
  const containers = (spec.containers ?? []) as Any[];
  const inits = (spec.initContainers ?? []) as Any[];
  const policy = spec.restartPolicy ?? 'Always';
  const host = node.metadata.name!;
  if (!st.startTime) {
    st.startTime = rfc3339(now);
    st.hostIP = nodeIp(node);
    st.hostIPs = [{ ip: st.hostIP }];
    st.podIP = spec.hostNetwork ? st.hostIP : podIp(st.hostIP, pod.metadata.uid!, usedIps);
    st.podIPs = [{ ip: st.podIP }];
    st.qosClass ??= qosClass(spec);
    if (inits.length > 0) st.initContainerStatuses = inits.map((c) => freshStatus(c, 'PodInitializing'));
    st.containerStatuses = containers.map((c) =>
      freshStatus(c, inits.length > 0 ? 'PodInitializing' : 'ContainerCreating'),
    );
  }
  const ctx = (restarts: RunContext['restarts']): RunContext => ({
    cluster,
    pod,
    now,
    imagesOnNode,
    restarts,
    event: (type, reason, message, once, minIntervalMs) =>
      recordEvent(cluster, pod, type, reason, message, 'kubelet', {
        host,
        ...(once ? { once } : {}),
        ...(minIntervalMs ? { minIntervalMs } : {}),
      }),
    ...(pullFailure ? { pullFailure } : {}),
  });
  const deadline =
    spec.activeDeadlineSeconds !== undefined
      ? Date.parse(st.startTime) + Number(spec.activeDeadlineSeconds) * 1000
      : Infinity;
  if (now >= deadline) return failForDeadline(cluster, next, now);
  if (!anyStarted(st)) {
    const problem = mountProblem(cluster, pod, world);
    if (problem) {
      recordEvent(cluster, pod, 'Warning', 'FailedMount', problem, 'kubelet', {
        host,
        minIntervalMs: MOUNT_EVENT_INTERVAL_MS,
      });
      return settle(next, now, inits.length === 0);
    }
  }

  // Init containers run in order, each to success; a failure restarts it unless the policy is Never.
  let since = Date.parse(st.startTime);
  let initialised = true;
  for (const cs of (st.initContainerStatuses ?? []) as Any[]) {
    const container = inits.find((c) => c.name === cs.name) ?? {};
    if (cs.state.waiting?.reason === 'PodInitializing') cs.state = { waiting: { reason: 'ContainerCreating' } };
    advanceContainer(
      cs,
      container,
      since,
      ctx((code) => code !== 0 && policy !== 'Never'),
    );
    const done = cs.state.terminated;
    if (!done || done.exitCode !== 0) {
      initialised = false;
      if (done && policy === 'Never') return settle(next, now, false, 'Failed');
      break;
    }
    cs.ready = true;
    since = Date.parse(done.finishedAt);
  }
  if (initialised) {
    for (const cs of st.containerStatuses as Any[]) {
      const container = containers.find((c) => c.name === cs.name) ?? {};
      advanceContainer(
        cs,
        container,
        since,
        ctx((code) => policy === 'Always' || (policy === 'OnFailure' && code !== 0)),
      );
      if (cs.state.running) cs.ready = probeReady(cs, container, now, listensAfterMs(container));
    }
  }
  return settle(next, now, initialised);
}

function settle(pod: KubeObject, now: number, initialised: boolean, forced?: 'Failed'): KubeObject {
  const st = pod.status as Any;
  const statuses = st.containerStatuses as Any[];
  const allTerminated = statuses.length > 0 && statuses.every((c) => c.state.terminated);
  const started = statuses.some((c) => c.state.running || c.state.terminated || c.lastState?.terminated);
  st.phase =
    forced ??
    (allTerminated
      ? statuses.every((c) => c.state.terminated.exitCode === 0)
        ? 'Succeeded'
        : 'Failed'
      : started
        ? 'Running'
        : 'Pending');
  const done = st.phase === 'Succeeded' || st.phase === 'Failed';
  if (done) for (const c of statuses) c.ready = false;
  const unready = statuses.filter((c) => !c.ready).map((c) => c.name);
  const pendingInits = ((st.initContainerStatuses ?? []) as Any[])
    .filter((c) => !(c.state.terminated?.exitCode === 0))
    .map((c) => c.name);
  const at = rfc3339(now);
  const cond = (type: string, ok: boolean, reason?: string, message?: string) => ({
    type,
    status: ok ? 'True' : 'False',
    lastProbeTime: null,
    lastTransitionTime: at,
    ...(ok || !reason ? {} : { reason, ...(message ? { message } : {}) }),
  });
  const notReadyReason = done ? 'PodCompleted' : 'ContainersNotReady';
  const notReadyMessage = done ? undefined : `containers with unready status: [${unready.join(' ')}]`;
  const scheduled = (((st.conditions ?? []) as Any[]).find((c) => c.type === 'PodScheduled') ??
    cond('PodScheduled', true)) as Any;
  st.conditions = keepConditionTimes(st.conditions, [
    cond('PodReadyToStartContainers', !done || statuses.some((c) => c.state.running)),
    cond(
      'Initialized',
      initialised || pendingInits.length === 0,
      done ? 'PodCompleted' : 'ContainersNotInitialized',
      done ? undefined : `containers with incomplete status: [${pendingInits.join(' ')}]`,
    ),
    cond('Ready', unready.length === 0, notReadyReason, notReadyMessage),
    cond('ContainersReady', unready.length === 0, notReadyReason, notReadyMessage),
    scheduled,
  ]);
  return pod;
}

function failForDeadline(cluster: KubeCluster, pod: KubeObject, now: number): KubeObject {
  const st = pod.status as Any;
  for (const cs of [...((st.initContainerStatuses ?? []) as Any[]), ...((st.containerStatuses ?? []) as Any[])]) {
    if (cs.state.terminated) continue;
    const startedAt = cs.state.running?.startedAt ?? st.startTime;
    cs.state = {
      terminated: {
        exitCode: 137,
        reason: 'Error',
        startedAt,
        finishedAt: rfc3339(now),
        ...(cs.containerID ? { containerID: cs.containerID } : {}),
      },
    };
    cs.ready = false;
    cs.started = false;
  }
  st.reason = 'DeadlineExceeded';
  st.message = 'Pod was active on the node longer than the specified deadline';
  recordEvent(cluster, pod, 'Normal', 'DeadlineExceeded', st.message, 'kubelet', { host: (pod.spec as Any).nodeName });
  return settle(pod, now, true, 'Failed');
}

const nodeIp = (node: KubeObject) =>
  (((node.status as Any)?.addresses ?? []) as Any[]).find((a) => a.type === 'InternalIP')?.address ?? '10.0.0.10';

/** A free address next to the node's (the VPC CNI hands out secondary IPs of the node's subnet). */
function podIp(hostIp: string, uid: string, used: Set<string>): string {
  const [a, b, c] = hostIp.split('.');
  const start = Math.floor(unit(`${uid}|ip`) * 240);
  for (let i = 0; i < 240; i++) {
    const ip = `${a}.${b}.${c}.${10 + ((start + i) % 240)}`;
    if (ip !== hostIp && !used.has(ip)) {
      used.add(ip);
      return ip;
    }
  }
  return `${a}.${b}.${c}.${10 + start}`;
}
