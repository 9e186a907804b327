import type { KubeObject } from '../types.js';
import { parseQuantity } from './quantity.js';
import { isReady, matchesRequirement, type Any } from './util.js';

/**
 * The filters of kube-scheduler's default profile that the sandbox needs, each answering with the
 * reason kube-scheduler reports when a node fails it: NodeUnschedulable, TaintToleration,
 * NodeAffinity (nodeSelector + required node affinity, labels and `metadata.name` fields) and
 * NodeResourcesFit (cpu, memory, pods and extended resources such as nvidia.com/gpu,
 * vpc.amazonaws.com/efa and aws.amazon.com/neuron).
 */

export interface Verdict {
  /** Why the node cannot take the pod (one or more reasons of the first failing filter). */
  reasons: string[];
  /** False when evicting lower-priority pods could not help (taints, affinity, unschedulable). */
  resolvable: boolean;
}

export function filterNode(pod: KubeObject, node: KubeObject, podsOnNode: KubeObject[]): Verdict | undefined {
  const spec = (pod.spec ?? {}) as Any;
  const nodeSpec = (node.spec ?? {}) as Any;
  const tolerations = (spec.tolerations ?? []) as Any[];
  if (
    nodeSpec.unschedulable &&
    !tolerations.some((t) => tolerates(t, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }))
  ) {
    return { reasons: ['node(s) were unschedulable'], resolvable: false };
  }
  const taints = [...((nodeSpec.taints ?? []) as Any[])];
  // A node whose kubelet is not posting Ready carries the not-ready taint; nodes made by hand may lack it.
  if (!isReady(node) && !taints.some((t) => t.key === 'node.kubernetes.io/not-ready'))
    taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' });
  const taint = untoleratedTaint(tolerations, taints);
  if (taint)
    return { reasons: [`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`], resolvable: false };
  if (!nodeAffinityMatches(spec, node))
    return { reasons: ["node(s) didn't match Pod's node affinity/selector"], resolvable: false };
  const reasons = insufficientResources(pod, node, podsOnNode);
  return reasons.length > 0 ? { reasons, resolvable: true } : undefined;
}

/** The first NoSchedule/NoExecute taint no toleration covers (PreferNoSchedule only scores). */
export function untoleratedTaint(tolerations: Any[], taints: Any[]): Any | undefined {
  return taints.find((taint) => taint.effect !== 'PreferNoSchedule' && !tolerations.some((t) => tolerates(t, taint)));
}

export function tolerates(t: Any, taint: Any): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if ((t.operator ?? 'Equal') === 'Exists') return !t.key || t.key === taint.key;
  return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
}

/** nodeSelector and requiredDuringSchedulingIgnoredDuringExecution node affinity (terms are ORed, expressions ANDed). */
export function nodeAffinityMatches(podSpec: Any, node: KubeObject): boolean {
  const labels = node.metadata.labels ?? {};
  if (!Object.entries((podSpec.nodeSelector ?? {}) as Record<string, string>).every(([k, v]) => labels[k] === v))
    return false;
  const terms = (podSpec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ??
    []) as Any[];
  if (terms.length === 0) return true;
  const fields: Record<string, string> = { 'metadata.name': node.metadata.name! };
  return terms.some(
    (term) =>
      ((term.matchExpressions ?? []).length > 0 || (term.matchFields ?? []).length > 0) &&
      ((term.matchExpressions ?? []) as Any[]).every((e) =>
        matchesRequirement(Object.hasOwn(labels, e.key), labels[e.key], e.operator, e.values),
      ) &&
      ((term.matchFields ?? []) as Any[]).every((e) =>
        matchesRequirement(Object.hasOwn(fields, e.key), fields[e.key], e.operator, e.values),
      ),
  );
}

/**
 * The only nodes a pod may go to when its required node affinity names them by `metadata.name` in every term (a
 * DaemonSet pod is pinned this way); undefined when any term admits other nodes. kube-scheduler's NodeAffinity
 * PreFilter answers the same set (PreFilterResult.NodeNames, kubernetes v1.26+,
 * pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go), so a pinned pod is not tried on every node.
 */
export function pinnedNodeNames(podSpec: Any): Set<string> | undefined {
  const terms = (podSpec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ??
    []) as Any[];
  if (terms.length === 0) return undefined;
  const names = new Set<string>();
  for (const term of terms) {
    const byName = ((term.matchFields ?? []) as Any[]).find((e) => e.key === 'metadata.name' && e.operator === 'In');
    if (!byName) return undefined;
    for (const name of (byName.values ?? []) as string[]) names.add(name);
  }
  return names;
}

function insufficientResources(pod: KubeObject, node: KubeObject, podsOnNode: KubeObject[]): string[] {
  const allocatable = ((node.status as Any)?.allocatable ?? {}) as Record<string, string>;
  const reasons: string[] = [];
  if (podsOnNode.length + 1 > parseQuantity(allocatable.pods ?? '110')) reasons.push('Too many pods');
  const used = new Map<string, number>();
  for (const p of podsOnNode) for (const [k, v] of requestsOf(p)) used.set(k, (used.get(k) ?? 0) + v);
  for (const [resource, want] of requestsOf(pod)) {
    if (want <= 0) continue;
    const free = parseQuantity(allocatable[resource] ?? '0') - (used.get(resource) ?? 0);
    if (want > free + 1e-9) reasons.push(`Insufficient ${resource}`);
  }
  return reasons;
}

/**
 * A pod's effective requests: the sum over its containers, or the largest init container when that
 * is more; extended resources (anything but cpu, memory, ephemeral-storage) default to their limits.
 */
export function requestsOf(pod: KubeObject): Map<string, number> {
  const spec = (pod.spec ?? {}) as Any;
  const of = (c: Any) => {
    const limits = (c.resources?.limits ?? {}) as Record<string, string>;
    const requests = { ...((c.resources?.requests ?? {}) as Record<string, string>) };
    for (const [k, v] of Object.entries(limits)) if (requests[k] === undefined) requests[k] = v;
    return requests;
  };
  const out = new Map<string, number>();
  for (const c of (spec.containers ?? []) as Any[])
    for (const [k, v] of Object.entries(of(c))) out.set(k, (out.get(k) ?? 0) + parseQuantity(v));
  for (const c of (spec.initContainers ?? []) as Any[])
    for (const [k, v] of Object.entries(of(c))) out.set(k, Math.max(out.get(k) ?? 0, parseQuantity(v)));
  return out;
}
