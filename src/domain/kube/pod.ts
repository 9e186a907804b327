import {
  conditionOf,
  health,
  kubeKind,
  list,
  num,
  parseBase,
  parseConditions,
  rec,
  str,
  type Condition,
  type KubeHealth,
  type KubeResource,
  type Loose,
} from './kind.js';

/**
 * Pod: read to count the work on a node, and (for training and inference) to follow a workload and
 * its logs. InstantStart creates pods only through controllers (Jobs, Deployments), so this module
 * has no builder.
 */

export type ContainerState = {
  state: 'waiting' | 'running' | 'terminated' | 'unknown';
  reason?: string;
  message?: string;
  exitCode?: number;
};
export type ContainerStatus = { name: string; ready: boolean; restartCount: number; current: ContainerState };

export type KubePod = KubeResource & {
  /** `extendedAsks`: the extended resources (`nvidia.com/gpu`, `vpc.amazonaws.com/efa`, …) its containers ask for, summed. */
  spec: Loose & {
    nodeName?: string;
    containers: string[];
    initContainers: string[];
    extendedAsks: Record<string, number>;
  };
  status: Loose & {
    phase: string;
    reason?: string;
    message?: string;
    conditions: Condition[];
    containerStatuses: ContainerStatus[];
  };
};

function containerState(v: unknown): ContainerState {
  const s = rec(v);
  for (const state of ['terminated', 'waiting', 'running'] as const) {
    if (s[state] === undefined) continue;
    const d = rec(s[state]);
    return {
      state,
      ...(str(d.reason) ? { reason: str(d.reason) } : {}),
      ...(str(d.message) ? { message: str(d.message) } : {}),
      ...(num(d.exitCode) !== undefined ? { exitCode: num(d.exitCode) } : {}),
    };
  }
  return { state: 'unknown' };
}

/** Extended resources (a domain-prefixed name) each container limits or requests, summed over the containers. */
function extendedAsks(containers: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of list(containers).map(rec)) {
    const r = rec(c.resources);
    const asks = { ...rec(r.requests), ...rec(r.limits) };
    for (const [k, v] of Object.entries(asks)) {
      const n = Number(typeof v === 'string' || typeof v === 'number' ? v : NaN);
      if (k.includes('/') && Number.isFinite(n) && n > 0) out[k] = (out[k] ?? 0) + n;
    }
  }
  return out;
}

const names = (v: unknown) =>
  list(v)
    .map((c) => str(rec(c).name))
    .filter((n): n is string => n !== undefined);

export function parsePod(raw: unknown): KubePod {
  const base = parseBase(raw, { apiVersion: 'v1', kind: 'Pod' });
  const spec = rec(base.spec);
  const status = rec(base.status);
  return {
    ...base,
    spec: {
      ...spec,
      nodeName: str(spec.nodeName),
      containers: names(spec.containers),
      initContainers: names(spec.initContainers),
      extendedAsks: extendedAsks(spec.containers),
    },
    status: {
      ...status,
      phase: str(status.phase) ?? 'Unknown',
      reason: str(status.reason),
      message: str(status.message),
      conditions: parseConditions(status.conditions),
      containerStatuses: list(status.containerStatuses)
        .map(rec)
        .filter((c) => typeof c.name === 'string')
        .map((c) => ({
          name: c.name as string,
          ready: c.ready === true,
          restartCount: num(c.restartCount) ?? 0,
          current: containerState(c.state),
        })),
    },
  };
}

export const POD = kubeKind<KubePod>(
  { apiVersion: 'v1', kind: 'Pod', plural: 'pods', namespaced: true, health: podHealth },
  parsePod,
);

/** Pending or Running: the pod holds (or waits for) a node's resources. */
export const isUnfinished = (pod: KubePod): boolean =>
  pod.status.phase !== 'Succeeded' && pod.status.phase !== 'Failed';

/** Field selector of the pods that still hold resources (what counts as a node's work). */
export const UNFINISHED_PODS = 'status.phase!=Succeeded,status.phase!=Failed';

/** Waiting reasons after which a container will not start without a change (image, command, config). */
const STUCK = new Set([
  'ImagePullBackOff',
  'ErrImagePull',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
]);

/**
 * A pod's health: done, running, stuck (image, crash loop, config) or waiting for a node.
 *
 * @example
 * podHealth(parsePod({ metadata: { name: 'p' }, status: { phase: 'Pending', conditions: [{ type: 'PodScheduled',
 * status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available' }] } })).code;
 * // 'unschedulable'
 */
export function podHealth(pod: KubePod): KubeHealth {
  const { phase } = pod.status;
  if (phase === 'Succeeded') return health('healthy', 'succeeded', 'The pod ran to completion.');
  if (phase === 'Failed') {
    const why =
      pod.status.message ||
      pod.status.reason ||
      pod.status.containerStatuses.map((c) => c.current.reason).find(Boolean) ||
      'a container exited with an error';
    return health('failed', 'failed', `The pod failed: ${why}.`);
  }
  for (const c of pod.status.containerStatuses) {
    const reason = c.current.reason;
    if (c.current.state === 'waiting' && reason && STUCK.has(reason))
      return health(
        'failed',
        reason,
        `Container ${c.name} cannot start (${reason}${c.current.message ? `: ${c.current.message}` : ''}).`,
      );
    if (c.current.state === 'waiting' && reason === 'CrashLoopBackOff') {
      return health(
        'degraded',
        'CrashLoopBackOff',
        `Container ${c.name} keeps crashing (${c.restartCount} restarts); read its logs with previous=true.`,
      );
    }
  }
  const scheduled = conditionOf(pod.status.conditions, 'PodScheduled');
  if (scheduled?.status === 'False')
    return health(
      'transitional',
      'unschedulable',
      `The pod waits for a node: ${(scheduled.message || scheduled.reason || 'no node fits it yet').replace(/\.$/, '')}.`,
    );
  if (phase === 'Running') {
    const notReady = pod.status.containerStatuses.filter((c) => !c.ready).map((c) => c.name);
    if (notReady.length === 0) return health('healthy', 'running', 'The pod is running and ready.');
    return health('transitional', 'starting', `The pod runs; waiting for ${notReady.join(', ')} to be ready.`);
  }
  return health(
    'transitional',
    'pending',
    pod.status.message ? `The pod is pending: ${pod.status.message}` : 'The pod is pending.',
  );
}
