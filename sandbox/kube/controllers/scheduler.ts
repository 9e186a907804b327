import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { recordEvent } from './events.js';
import { parseQuantity } from './quantity.js';
import { filterNode, pinnedNodeNames, requestsOf } from './scheduler-filters.js';
import { condition, isTerminal, nodeNameOf, rfc3339, save, T, type Any } from './util.js';
import { unschedulableForClaims } from './volume-mounts.js';

/**
 * The default scheduler: binds each pending pod without a node (and with `schedulerName`
 * default-scheduler, no scheduling gates) to the feasible node with the most room left, spreading
 * a workload's replicas. A pod that fits nowhere stays Pending with PodScheduled=False
 * (Unschedulable) and a FailedScheduling event that counts the reasons the way kube-scheduler does:
 * `0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) didn't match Pod's node
 * affinity/selector. preemption: …`. Pods are retried every tick (nodes come and go); the event
 * is counted at most once a minute, like the scheduler's back-off. A pod whose claims are missing or
 * unbound fails VolumeBinding's pre-filter before any node is tried (no node can help it).
 */

const EVENT_INTERVAL_MS = 60_000;

export function schedule(cluster: KubeCluster): void {
  // Tested in place first: with nothing pending (the steady state) no pod is copied.
  const pending = cluster.objects.select(
    T.pods,
    undefined,
    (p) => !nodeNameOf(p) && !p.metadata.deletionTimestamp && !isTerminal(p),
  ).items;
  if (pending.length === 0) return;
  // The pods already bound and the nodes are only read: the stored objects, not copies (thousands at scale).
  const nodes: KubeObject[] = [];
  const byName = new Map<string, KubeObject>();
  cluster.objects.scan(T.nodes, undefined, (n) => {
    if (n.metadata.deletionTimestamp) return;
    nodes.push(n as KubeObject);
    byName.set(n.metadata.name!, n as KubeObject);
  });
  const onNode = new Map<string, KubeObject[]>();
  cluster.objects.scan(T.pods, undefined, (p) => {
    const node = nodeNameOf(p as KubeObject);
    if (!node || isTerminal(p as KubeObject)) return;
    const here = onNode.get(node);
    if (here) here.push(p as KubeObject);
    else onNode.set(node, [p as KubeObject]);
  });
  const now = cluster.now();
  // Oldest first, as the scheduling queue orders pods of equal priority.
  pending.sort(
    (a, b) =>
      Number((b.spec as Any)?.priority ?? 0) - Number((a.spec as Any)?.priority ?? 0) ||
      (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''),
  );
  for (const pod of pending) {
    const spec = (pod.spec ?? {}) as Any;
    if ((spec.schedulerName ?? 'default-scheduler') !== 'default-scheduler') continue;
    if ((spec.schedulingGates ?? []).length > 0) {
      markUnschedulable(
        cluster,
        pod,
        'SchedulingGated',
        'Scheduling is blocked due to non-empty scheduling gates',
        now,
      );
      continue;
    }
    const claimProblem = unschedulableForClaims(cluster, pod);
    if (claimProblem) {
      const message = `0/${nodes.length} nodes are available: ${claimProblem}. preemption: 0/${nodes.length} nodes are available: ${nodes.length} Preemption is not helpful for scheduling.`;
      markUnschedulable(cluster, pod, 'Unschedulable', message, now);
      recordEvent(cluster, pod, 'Warning', 'FailedScheduling', message, 'default-scheduler', {
        minIntervalMs: EVENT_INTERVAL_MS,
      });
      continue;
    }
    // A pod pinned to named nodes is tried there first; only when none fits are all nodes tried, for the message.
    const pinned = pinnedNodeNames(spec);
    let verdicts = tryNodes(pod, pinned ? [...pinned].flatMap((n) => byName.get(n) ?? []) : nodes, onNode);
    if (pinned && verdicts.feasible.length === 0) verdicts = tryNodes(pod, nodes, onNode);
    const { feasible, histogram, unresolvable } = verdicts;
    if (feasible.length > 0) {
      const best = feasible.sort(
        (a, b) => a.score - b.score || a.node.metadata.name!.localeCompare(b.node.metadata.name!),
      )[0]!.node;
      bind(cluster, pod, best, now);
      onNode.set(best.metadata.name!, [...(onNode.get(best.metadata.name!) ?? []), pod]);
      continue;
    }
    const message =
      nodes.length === 0
        ? 'no nodes available to schedule pods'
        : unschedulableMessage(nodes.length, histogram, unresolvable);
    markUnschedulable(cluster, pod, 'Unschedulable', message, now);
    recordEvent(cluster, pod, 'Warning', 'FailedScheduling', message, 'default-scheduler', {
      minIntervalMs: EVENT_INTERVAL_MS,
    });
  }
}

/** Runs the filters over `nodes`: the feasible ones with their score, and the reasons the others failed. */
function tryNodes(pod: KubeObject, nodes: KubeObject[], onNode: Map<string, KubeObject[]>) {
  const histogram = new Map<string, number>();
  let unresolvable = 0;
  const feasible: Array<{ node: KubeObject; score: number }> = [];
  for (const node of nodes) {
    const here = onNode.get(node.metadata.name!) ?? [];
    const verdict = filterNode(pod, node, here);
    if (!verdict) {
      feasible.push({ node, score: score(pod, node, here) });
      continue;
    }
    for (const r of verdict.reasons) histogram.set(r, (histogram.get(r) ?? 0) + 1);
    if (!verdict.resolvable) unresolvable += 1;
  }
  return { feasible, histogram, unresolvable };
}

/** kube-scheduler's FitError wording: reasons counted per node, sorted, then the preemption verdict. */
export function unschedulableMessage(total: number, histogram: Map<string, number>, unresolvable: number): string {
  const reasons = [...histogram].map(([r, n]) => `${n} ${r}`).sort();
  const preemption = [
    ...(total - unresolvable > 0 ? [`${total - unresolvable} No preemption victims found for incoming pod`] : []),
    ...(unresolvable > 0 ? [`${unresolvable} Preemption is not helpful for scheduling`] : []),
  ].sort();
  return `0/${total} nodes are available: ${reasons.join(', ')}. preemption: 0/${total} nodes are available: ${preemption.join(', ')}.`;
}

/** Lower is better: the share of cpu and memory in use after placing the pod, plus a penalty per sibling already there. */
function score(pod: KubeObject, node: KubeObject, here: KubeObject[]): number {
  const allocatable = ((node.status as Any)?.allocatable ?? {}) as Record<string, string>;
  const used = (resource: string) => [...here, pod].reduce((n, p) => n + (requestsOf(p).get(resource) ?? 0), 0);
  const share = (resource: string) => used(resource) / Math.max(1e-9, parseQuantity(allocatable[resource] ?? '0'));
  const owner = pod.metadata.ownerReferences?.find((r) => r.controller)?.uid;
  const siblings = owner ? here.filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === owner)).length : 0;
  return (share('cpu') + share('memory')) / 2 + siblings;
}

function bind(cluster: KubeCluster, pod: KubeObject, node: KubeObject, now: number): void {
  const next = structuredClone(pod);
  (next.spec as Any).nodeName = node.metadata.name;
  const st = (next.status ?? {}) as Any;
  const others = ((st.conditions ?? []) as Any[]).filter((c) => c.type !== 'PodScheduled');
  next.status = {
    ...st,
    phase: 'Pending',
    conditions: [
      ...others,
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(now) },
    ],
  };
  save(cluster, T.pods, pod, next);
  recordEvent(
    cluster,
    pod,
    'Normal',
    'Scheduled',
    `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${node.metadata.name}`,
    'default-scheduler',
  );
}

function markUnschedulable(cluster: KubeCluster, pod: KubeObject, reason: string, message: string, now: number): void {
  const old = condition(pod, 'PodScheduled');
  if (old?.status === 'False' && old.reason === reason && old.message === message) return;
  const next = structuredClone(pod);
  const st = (next.status ?? {}) as Any;
  const others = ((st.conditions ?? []) as Any[]).filter((c) => c.type !== 'PodScheduled');
  const at = old?.status === 'False' ? old.lastTransitionTime : rfc3339(now);
  next.status = {
    ...st,
    phase: 'Pending',
    conditions: [
      ...others,
      { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: at, reason, message },
    ],
  };
  save(cluster, T.pods, pod, next);
}
