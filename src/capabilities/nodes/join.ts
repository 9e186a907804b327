import type { HyperPodGroupDetails, HyperPodNode, ListedKubeObject } from '../../cloud/ports.js';
import { nodeHealth } from '../../domain/node-health.js';
import {
  DEEP_HEALTH_CHECK_LABEL,
  FAULT_REASON_LABEL,
  FAULT_TYPE_LABEL,
  INSTANCE_GROUP_LABEL,
  NODE_HEALTH_LABEL,
  type NodeCondition,
} from '../../domain/node-health-terms.js';
import { allocatableAccelerators, type NodeView } from '../../domain/schemas/nodes.js';

/**
 * Joins what SageMaker says of a cluster's nodes (ListClusterNodes) with the Kubernetes Nodes, and
 * judges each once with `nodeHealth`. Pure: the caller reads the cloud, this decides. Pods are not
 * part of the join: health does not depend on them, and the caller counts them only for the nodes
 * it shows (a cluster of 5,000 nodes has tens of thousands of pods).
 */

/** A node's view without its pod count (counted per page, for the nodes shown). */
export type NodeRow = Omit<NodeView, 'podCount'>;

export interface ClusterNodeFacts {
  summaries: readonly HyperPodNode[];
  kubeNodes: readonly ListedKubeObject[];
  groups: readonly HyperPodGroupDetails[];
  nodeRecovery?: 'Automatic' | 'None';
  now: number;
}

type Any = Record<string, unknown>;
const rec = (v: unknown): Any => (v && typeof v === 'object' ? (v as Any) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const iso = (t: unknown): string | undefined =>
  t instanceof Date ? t.toISOString() : typeof t === 'string' ? t : undefined;

/** The EC2 instance id of a Kubernetes Node: from its providerID (aws:///zone/i-…), else its name hyperpod-i-…. */
export function instanceIdOfNode(node: ListedKubeObject): string | undefined {
  const fromProvider = str(rec(node.spec).providerID)?.split('/').pop();
  if (fromProvider?.startsWith('i-')) return fromProvider;
  const m = /^hyperpod-(i-[0-9a-f]+)$/.exec(node.metadata?.name ?? '');
  return m?.[1];
}

/** A Node's conditions in the health model's shape. */
export function conditionsOf(node: ListedKubeObject | undefined): NodeCondition[] {
  const list = rec(node?.status).conditions;
  if (!Array.isArray(list)) return [];
  return list.map((c) => {
    const x = rec(c);
    return {
      type: String(x.type),
      status: String(x.status),
      reason: str(x.reason),
      message: str(x.message),
      lastTransitionTime: iso(x.lastTransitionTime),
    };
  });
}

function taintsOf(node: ListedKubeObject): Array<{ key: string; value?: string; effect: string }> {
  const list = rec(node.spec).taints;
  if (!Array.isArray(list)) return [];
  return list.map((t) => {
    const x = rec(t);
    return {
      key: String(x.key),
      ...(str(x.value) !== undefined ? { value: str(x.value) } : {}),
      effect: String(x.effect),
    };
  });
}

const FINISHED = new Set(['Succeeded', 'Failed']);

/** Unfinished pods per Node name (a server that ignores the phase selector is not trusted on it). */
export function podsByNode(pods: readonly ListedKubeObject[]): Map<string, ListedKubeObject[]> {
  const out = new Map<string, ListedKubeObject[]>();
  for (const p of pods) {
    const node = str(rec(p.spec).nodeName);
    if (!node || FINISHED.has(str(rec(p.status).phase) ?? '')) continue;
    const list = out.get(node) ?? [];
    list.push(p);
    out.set(node, list);
  }
  return out;
}

function capacityTypeOf(group: HyperPodGroupDetails | undefined): NodeView['capacityType'] {
  if (!group) return undefined;
  return group.CapacityRequirements?.Spot ? 'spot' : 'on-demand';
}

/** One node's view from whatever facts exist about it. */
export function nodeViewOf(
  summary: HyperPodNode | undefined,
  kube: ListedKubeObject | undefined,
  group: HyperPodGroupDetails | undefined,
  nodeRecovery: 'Automatic' | 'None' | undefined,
  now: number,
): NodeRow {
  const labels = kube?.metadata?.labels ?? {};
  const instanceId = summary?.InstanceId ?? instanceIdOfNode(kube!)!;
  const addresses = rec(kube?.status).addresses;
  const internalIp = Array.isArray(addresses)
    ? str(rec(addresses.find((a) => rec(a).type === 'InternalIP')).address)
    : undefined;
  const health = nodeHealth({
    ...(summary
      ? {
          sagemaker: {
            instanceId,
            instanceGroupName: summary.InstanceGroupName,
            instanceType: summary.InstanceType,
            launchTime: summary.LaunchTime,
            instanceStatus: {
              status: summary.InstanceStatus?.Status ?? 'Pending',
              message: summary.InstanceStatus?.Message,
            },
          },
        }
      : {}),
    ...(kube
      ? {
          kube: {
            name: kube.metadata?.name ?? '',
            labels,
            unschedulable: rec(kube.spec).unschedulable === true,
            taints: taintsOf(kube),
            conditions: conditionsOf(kube),
          },
        }
      : {}),
    nodeRecovery,
    now,
  });
  const ready = conditionsOf(kube).find((c) => c.type === 'Ready')?.status;
  return {
    instanceId,
    ...(summary?.NodeLogicalId ? { nodeLogicalId: summary.NodeLogicalId } : {}),
    ...(kube?.metadata?.name ? { nodeName: kube.metadata.name } : {}),
    instanceGroupName: summary?.InstanceGroupName ?? labels[INSTANCE_GROUP_LABEL] ?? 'unknown',
    instanceType: summary?.InstanceType ?? labels['node.kubernetes.io/instance-type'] ?? 'unknown',
    ...(labels['topology.kubernetes.io/zone'] ? { availabilityZone: labels['topology.kubernetes.io/zone'] } : {}),
    ...(internalIp ? { privateIp: internalIp } : {}),
    ...(summary?.LaunchTime ? { launchTime: iso(summary.LaunchTime) } : {}),
    ...(capacityTypeOf(group) ? { capacityType: capacityTypeOf(group) } : {}),
    instanceStatus: summary
      ? {
          status: summary.InstanceStatus?.Status ?? 'Pending',
          ...(summary.InstanceStatus?.Message ? { message: summary.InstanceStatus.Message } : {}),
        }
      : { status: 'NotFound', message: 'HyperPod no longer lists this instance; only its Kubernetes Node is left.' },
    labels: {
      ...(labels[NODE_HEALTH_LABEL] ? { healthStatus: labels[NODE_HEALTH_LABEL] } : {}),
      ...(labels[DEEP_HEALTH_CHECK_LABEL] ? { deepHealthCheckStatus: labels[DEEP_HEALTH_CHECK_LABEL] } : {}),
      ...(labels[FAULT_TYPE_LABEL] ? { faultType: labels[FAULT_TYPE_LABEL] } : {}),
      ...(labels[FAULT_REASON_LABEL] ? { faultReason: labels[FAULT_REASON_LABEL] } : {}),
    },
    ...(kube
      ? {
          kubernetes: {
            ...(ready === 'True' || ready === 'False' || ready === 'Unknown' ? { ready } : {}),
            unschedulable: rec(kube.spec).unschedulable === true,
            taints: taintsOf(kube),
          },
        }
      : {}),
    health,
    allocatable: allocatableAccelerators(rec(kube?.status).allocatable as Record<string, string> | undefined),
  };
}

/**
 * Every node of the cluster: each SageMaker node with its Kubernetes Node (if joined), plus
 * HyperPod-labelled Nodes whose instance HyperPod no longer lists (left-over objects worth a look).
 * Ordered by instance group, then instance id, so pages are stable.
 */
export function joinNodes(facts: ClusterNodeFacts): NodeRow[] {
  const kubeById = new Map<string, ListedKubeObject>();
  for (const n of facts.kubeNodes) {
    const id = instanceIdOfNode(n);
    if (id) kubeById.set(id, n);
  }
  const groups = new Map(facts.groups.map((g) => [g.InstanceGroupName, g]));
  const out: NodeRow[] = [];
  const listed = new Set<string>();
  for (const s of facts.summaries) {
    if (!s.InstanceId) continue;
    listed.add(s.InstanceId);
    const kube = kubeById.get(s.InstanceId);
    out.push(nodeViewOf(s, kube, groups.get(s.InstanceGroupName), facts.nodeRecovery, facts.now));
  }
  for (const [id, kube] of kubeById) {
    if (listed.has(id) || !kube.metadata?.labels?.[INSTANCE_GROUP_LABEL]) continue;
    out.push(
      nodeViewOf(
        undefined,
        kube,
        groups.get(kube.metadata.labels[INSTANCE_GROUP_LABEL]),
        facts.nodeRecovery,
        facts.now,
      ),
    );
  }
  return out.sort(
    (a, b) => a.instanceGroupName.localeCompare(b.instanceGroupName) || a.instanceId.localeCompare(b.instanceId),
  );
}
