import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { recordEvent } from './events.js';
import { tolerates } from './scheduler-filters.js';
import { condition, isReady, isTerminal, keepConditionTimes, nodeNameOf, rfc3339, save, T, type Any } from './util.js';

/**
 * The node lifecycle controller and the pod garbage collector:
 * - a node that is not Ready carries `node.kubernetes.io/not-ready` (NoSchedule and NoExecute), a
 *   cordoned one `node.kubernetes.io/unschedulable:NoSchedule`;
 * - pods on a not-Ready node are marked not ready; NoExecute taints evict the pods that do not
 *   tolerate them — at once, or after their `tolerationSeconds` (pods without a not-ready
 *   toleration get the 300 s that the DefaultTolerationSeconds admission gives every pod);
 * - pods bound to a node that no longer exists are deleted.
 */

const NOT_READY = 'node.kubernetes.io/not-ready';
const UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
const DEFAULT_TOLERATION_SECONDS = 300;

export function runNodeLifecycle(cluster: KubeCluster): void {
  const now = cluster.now();
  const nodes = new Map<string, KubeObject>();
  for (const node of cluster.objects.list(T.nodes)) nodes.set(node.metadata.name!, syncTaints(cluster, node, now));
  // Only pods something happens to are copied: on a gone node, to evict, or to mark not ready.
  const affected = (p: Readonly<KubeObject>) => {
    const pod = p as KubeObject;
    const nodeName = nodeNameOf(pod);
    if (!nodeName || pod.metadata.deletionTimestamp) return false;
    const node = nodes.get(nodeName);
    if (!node) return true;
    if (isTerminal(pod)) return false;
    const evictAt = evictionTime(pod, node);
    return (evictAt !== undefined && now >= evictAt) || (!isReady(node) && isReady(pod));
  };
  for (const pod of cluster.objects.select(T.pods, undefined, affected).items) {
    const nodeName = nodeNameOf(pod)!;
    const node = nodes.get(nodeName);
    if (!node) {
      cluster.objects.remove(T.pods, pod.metadata.namespace, pod.metadata.name!);
      continue;
    }
    if (isTerminal(pod)) continue;
    const evictAt = evictionTime(pod, node);
    if (evictAt !== undefined && now >= evictAt) {
      recordEvent(
        cluster,
        pod,
        'Normal',
        'TaintManagerEviction',
        `Marking for deletion Pod ${pod.metadata.namespace}/${pod.metadata.name}`,
        'taint-eviction-controller',
      );
      cluster.objects.remove(T.pods, pod.metadata.namespace, pod.metadata.name!);
      continue;
    }
    if (!isReady(node) && isReady(pod)) markNotReady(cluster, pod, now);
  }
}

function syncTaints(cluster: KubeCluster, node: KubeObject, now: number): KubeObject {
  const spec = (node.spec ?? {}) as Any;
  const taints = ((spec.taints ?? []) as Any[]).filter((t) => t.key !== NOT_READY && t.key !== UNSCHEDULABLE);
  const had = (spec.taints ?? []) as Any[];
  const keep = (key: string, effect: string) =>
    had.find((t) => t.key === key && t.effect === effect) ?? {
      key,
      effect,
      ...(effect === 'NoExecute' ? { timeAdded: rfc3339(now) } : {}),
    };
  if (spec.unschedulable) taints.push(keep(UNSCHEDULABLE, 'NoSchedule'));
  if (!isReady(node)) taints.push(keep(NOT_READY, 'NoSchedule'), keep(NOT_READY, 'NoExecute'));
  const { taints: _old, ...rest } = spec;
  const next = { ...node, spec: { ...rest, ...(taints.length > 0 ? { taints } : {}) } };
  return save(cluster, T.nodes, node, next);
}

/** When the node's NoExecute taints evict the pod; undefined when they never do. */
function evictionTime(pod: KubeObject, node: KubeObject): number | undefined {
  const tolerations = ((pod.spec as Any)?.tolerations ?? []) as Any[];
  let at: number | undefined;
  for (const taint of (((node.spec as Any)?.taints ?? []) as Any[]).filter((t) => t.effect === 'NoExecute')) {
    const added = Date.parse(taint.timeAdded ?? node.metadata.creationTimestamp ?? '');
    const matching = tolerations.filter((t) => tolerates(t, taint));
    let seconds: number | undefined;
    if (matching.length === 0)
      seconds =
        taint.key === NOT_READY || taint.key === 'node.kubernetes.io/unreachable' ? DEFAULT_TOLERATION_SECONDS : 0;
    else if (matching.every((t) => t.tolerationSeconds !== undefined && t.tolerationSeconds !== null))
      seconds = Math.min(...matching.map((t) => Math.max(0, Number(t.tolerationSeconds))));
    if (seconds === undefined) continue;
    const due = (Number.isFinite(added) ? added : 0) + seconds * 1000;
    at = at === undefined ? due : Math.min(at, due);
  }
  return at;
}

function markNotReady(cluster: KubeCluster, pod: KubeObject, now: number): void {
  const next = structuredClone(pod);
  const st = next.status as Any;
  const at = rfc3339(now);
  st.conditions = keepConditionTimes(
    st.conditions,
    ((st.conditions ?? []) as Any[]).map((c) =>
      c.type === 'Ready'
        ? {
            type: 'Ready',
            status: 'False',
            lastProbeTime: null,
            lastTransitionTime: at,
            reason: 'NodeNotReady',
            message: 'Node is not ready',
          }
        : c,
    ),
  );
  if (condition(next, 'Ready')?.status === 'False')
    recordEvent(cluster, pod, 'Warning', 'NodeNotReady', 'Node is not ready', 'node-controller', { once: true });
  save(cluster, T.pods, pod, next);
}
