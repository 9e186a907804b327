import { autoscalerAddNode, type AutoscalingGroupView } from '../../services/sagemaker/public.js';
import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { recordEvent } from './events.js';
import { unregisteredResource } from './karpenter-claims.js';
import { nodeResources } from './node-shape.js';
import { parseQuantity } from './quantity.js';
import { filterNode, nodeAffinityMatches, requestsOf, untoleratedTaint } from './scheduler-filters.js';
import { unschedulableForClaims } from './volume-mounts.js';
import {
  addResources,
  candidateNode,
  INSTANCE_TYPE_LABEL,
  LOGICAL_ID,
  NODEPOOL_LABEL,
  poolLabelsFor,
  poolTaintsFor,
  TERMINATION_FINALIZER,
  templateSpecOf,
  type KarpenterRun,
} from './karpenter-model.js';
import { condition, isTerminal, nodeNameOf, rfc3339, shortHash, T, type Any } from './util.js';

/**
 * Karpenter's provisioner: pods the scheduler left Pending as Unschedulable are first matched
 * against the NodeClaims already on their way (and their nodes), as Karpenter nominates pods to
 * in-flight capacity; the rest get a new NodeClaim from the highest-weight Ready NodePool whose
 * requirements, taints, limits and HyperPod instance groups can run them (the smallest instance
 * type that fits, DaemonSet overhead included). Each new NodeClaim is one BatchAddClusterNodes on
 * its instance group, made by HyperPod with the cluster's ClusterRole.
 *
 * Nothing is remembered between passes: nominations are recomputed from the stored pods and
 * NodeClaims every time, so a restart (or a deleted claim) simply re-plans.
 */

const EVENT_INTERVAL_MS = 60_000;

interface Slot {
  claim: string;
  node: KubeObject;
  pods: KubeObject[];
}

const isDaemonSetPod = (p: KubeObject) =>
  (p.metadata.ownerReferences ?? []).some((r) => r.kind === 'DaemonSet' && r.controller);

/**
 * Pods Karpenter acts for: unschedulable by the default scheduler, not DaemonSet pods (those follow
 * nodes), and not pods waiting for their claims (Karpenter ignores a pod whose volumes cannot be
 * resolved: a new node would not help it).
 */
function unschedulablePods(cluster: KubeCluster, pods: KubeObject[]): KubeObject[] {
  return pods
    .filter((p) => unschedulableForClaims(cluster, p) === undefined)
    .filter((p) => !nodeNameOf(p) && !p.metadata.deletionTimestamp && !isTerminal(p) && !isDaemonSetPod(p))
    .filter((p) => ((p.spec as Any)?.schedulerName ?? 'default-scheduler') === 'default-scheduler')
    .filter(
      (p) =>
        condition(p, 'PodScheduled')?.status === 'False' && condition(p, 'PodScheduled')?.reason === 'Unschedulable',
    )
    .sort(
      (a, b) =>
        (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
        a.metadata.name!.localeCompare(b.metadata.name!),
    );
}

/** The DaemonSet pods a node would get (what Karpenter calls daemonset overhead). */
function daemonSetOverhead(daemonSets: KubeObject[], node: KubeObject): KubeObject[] {
  const out: KubeObject[] = [];
  for (const ds of daemonSets) {
    const template = ((ds.spec as Any)?.template ?? {}) as Any;
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${ds.metadata.name}-overhead`, labels: template.metadata?.labels ?? {} },
      spec: template.spec ?? {},
    };
    const spec = (pod.spec ?? {}) as Any;
    if (untoleratedTaint(spec.tolerations ?? [], ((node.spec as Any)?.taints ?? []) as Any[])) continue;
    if (!nodeAffinityMatches(spec, node)) continue;
    out.push(pod);
  }
  return out;
}

/** Smallest first: GPUs, then vCPUs, then memory (Karpenter launches the cheapest type that fits). */
function size(instanceType: string): number[] {
  const c = nodeResources(instanceType, 'all').capacity;
  return [
    parseQuantity(c['nvidia.com/gpu'] ?? c['aws.amazon.com/neuron'] ?? '0'),
    parseQuantity(c.cpu),
    parseQuantity(c.memory),
  ];
}
const bySize = (a: AutoscalingGroupView, b: AutoscalingGroupView) => {
  const [x, y] = [size(a.instanceType), size(b.instanceType)];
  return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]! || a.name.localeCompare(b.name);
};

/** The pool's limits allow one more node of this type on top of what its NodeClaims already have. */
function withinLimits(pool: KubeObject, used: Map<string, number>, instanceType: string): boolean {
  const limits = ((pool.spec as Any)?.limits ?? {}) as Record<string, string | number>;
  const next = new Map(used);
  addResources(next, nodeResources(instanceType, 'all').capacity);
  return Object.entries(limits).every(([k, v]) => (next.get(k) ?? 0) <= parseQuantity(v) + 1e-9);
}

/** Runs one provisioning pass; returns the names of the NodeClaims that have pods nominated to them. */
export function provision(run: KarpenterRun, claims: KubeObject[]): Set<string> {
  const { cluster } = run;
  const nominated = new Set<string>();
  const pods = cluster.objects.list(T.pods);
  const pending = unschedulablePods(cluster, pods);
  if (pending.length === 0) return nominated;
  const daemonSets = cluster.objects.list(T.daemonsets);
  const nodes = new Map(cluster.objects.list(T.nodes).map((n) => [n.metadata.name!, n]));
  const bound = (nodeName: string) => pods.filter((p) => nodeNameOf(p) === nodeName && !isTerminal(p));

  // In-flight capacity: every live NodeClaim, as its node or as the node it will be.
  const slots: Slot[] = [];
  const usedByPool = new Map<string, Map<string, number>>();
  for (const claim of claims) {
    if (claim.metadata.deletionTimestamp) continue;
    const pool = claim.metadata.labels?.[NODEPOOL_LABEL] ?? '';
    const type = claim.metadata.labels?.[INSTANCE_TYPE_LABEL] ?? '';
    addResources(
      (usedByPool.get(pool) ?? usedByPool.set(pool, new Map()).get(pool))!,
      nodeResources(type, 'all').capacity,
    );
    const nodeName = (claim.status as Any)?.nodeName as string | undefined;
    const node = nodeName ? nodes.get(nodeName) : undefined;
    if (node) {
      // A node whose device plugins have not registered yet counts by what it will advertise, as Karpenter
      // counts a NodeClaim that is not Initialized: pods wait for it rather than launching another node.
      const counted = unregisteredResource(claim, node)
        ? { ...node, status: { ...(node.status as Any), allocatable: nodeResources(type, 'all').allocatable } }
        : node;
      slots.push({ claim: claim.metadata.name!, node: counted, pods: bound(node.metadata.name!) });
    } else {
      const candidate = candidateNode(
        `nodeclaim-${claim.metadata.name}`,
        claim.metadata.labels ?? {},
        ((claim.spec as Any)?.taints ?? []) as Any[],
        type,
      );
      slots.push({ claim: claim.metadata.name!, node: candidate, pods: daemonSetOverhead(daemonSets, candidate) });
    }
  }

  for (const pod of pending) {
    const slot = slots.find((s) => !filterNode(pod, s.node, s.pods));
    if (slot) {
      slot.pods.push(pod);
      nominated.add(slot.claim);
      continue;
    }
    const reasons: string[] = [];
    let chosen: { pool: KubeObject; group: AutoscalingGroupView; node: KubeObject; overhead: KubeObject[] } | undefined;
    for (const pool of run.pools) {
      const groups = [...(run.classes.get(templateSpecOf(pool).nodeClassRef?.name) ?? [])].sort(bySize);
      const used = usedByPool.get(pool.metadata.name!) ?? new Map<string, number>();
      let why = "no instance group of its HyperpodNodeClass satisfies the pod's requirements and resources";
      for (const group of groups) {
        const labels = poolLabelsFor(pool, group, cluster.region);
        if (!labels) continue;
        if (!withinLimits(pool, used, group.instanceType)) {
          why = 'all available instance types exceed limits for nodepool';
          continue;
        }
        const node = candidateNode('nodeclaim-candidate', labels, poolTaintsFor(pool, group), group.instanceType);
        const overhead = daemonSetOverhead(daemonSets, node);
        if (filterNode(pod, node, overhead)) continue;
        chosen = { pool, group, node, overhead };
        break;
      }
      if (chosen) break;
      reasons.push(`incompatible with nodepool "${pool.metadata.name}", ${why}`);
    }
    if (!chosen) {
      const message =
        run.pools.length === 0
          ? 'Failed to schedule pod, no Ready NodePools found'
          : `Failed to schedule pod, ${reasons.join('; ')}`;
      recordEvent(cluster, pod, 'Warning', 'FailedScheduling', message, 'karpenter', {
        minIntervalMs: EVENT_INTERVAL_MS,
      });
      continue;
    }
    const claim = createClaim(run, chosen.pool, chosen.group, chosen.node, pod);
    addResources(
      (usedByPool.get(chosen.pool.metadata.name!) ??
        usedByPool.set(chosen.pool.metadata.name!, new Map()).get(chosen.pool.metadata.name!))!,
      nodeResources(chosen.group.instanceType, 'all').capacity,
    );
    slots.push({
      claim: claim.metadata.name!,
      node: { ...chosen.node, metadata: { ...chosen.node.metadata, name: `nodeclaim-${claim.metadata.name}` } },
      pods: [...chosen.overhead, pod],
    });
    nominated.add(claim.metadata.name!);
  }
  for (const pod of pending) {
    const slot = slots.find((s) => s.pods.includes(pod));
    if (slot)
      recordEvent(cluster, pod, 'Normal', 'Nominated', `Pod should schedule on: nodeclaim/${slot.claim}`, 'karpenter', {
        once: true,
      });
  }
  return nominated;
}

/** A NodeClaim for one node of `group`, then HyperPod's BatchAddClusterNodes for it. */
function createClaim(
  run: KarpenterRun,
  pool: KubeObject,
  group: AutoscalingGroupView,
  node: KubeObject,
  pod: KubeObject,
): KubeObject {
  const { cluster, now } = run;
  const poolName = pool.metadata.name!;
  let name = '';
  for (let i = 0; !name || cluster.objects.get(run.types.nodeClaims, undefined, name); i++)
    name = `${poolName}-${shortHash(`${pool.metadata.uid}|${pod.metadata.uid}|${now}|${i}`, 5)}`;
  const spec = templateSpecOf(pool);
  const requests = new Map<string, number>();
  for (const [k, v] of requestsOf(pod)) requests.set(k, v);
  const labels = { ...(node.metadata.labels ?? {}) };
  delete labels['sagemaker.amazonaws.com/node-health-status'];
  const at = rfc3339(now);
  const unknown = (type: string) => ({
    type,
    status: 'Unknown',
    reason: 'AwaitingReconciliation',
    message: 'object is awaiting reconciliation',
    lastTransitionTime: at,
  });
  const created = cluster.objects.create(run.types.nodeClaims, {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name,
      labels,
      annotations: { 'karpenter.sh/nodepool-hash-version': 'v3' },
      finalizers: [TERMINATION_FINALIZER],
      ownerReferences: [
        {
          apiVersion: 'karpenter.sh/v1',
          kind: 'NodePool',
          name: poolName,
          uid: pool.metadata.uid!,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      nodeClassRef: spec.nodeClassRef,
      requirements: [
        ...((spec.requirements ?? []) as Any[]).filter(
          (r) => r.key !== INSTANCE_TYPE_LABEL && r.key !== NODEPOOL_LABEL,
        ),
        { key: INSTANCE_TYPE_LABEL, operator: 'In', values: [group.instanceType] },
        { key: NODEPOOL_LABEL, operator: 'In', values: [poolName] },
      ],
      resources: {
        requests: Object.fromEntries(
          [...requests].map(([k, v]) => [k, Number.isInteger(v) ? String(v) : `${Math.round(v * 1000)}m`]),
        ),
      },
      ...((node.spec as Any)?.taints ? { taints: (node.spec as Any).taints } : {}),
      expireAfter: spec.expireAfter ?? '720h',
    },
    status: { conditions: ['Launched', 'Registered', 'Initialized', 'Ready'].map(unknown) },
  });
  const result = run.faults
    ? autoscalerAddNode(run.state, cluster.region, run.faults, run.view.clusterName, group.name, name, now)
    : { error: 'the sandbox runtime is not available' };
  if ('nodeLogicalId' in result) {
    return cluster.objects.update(run.types.nodeClaims, {
      ...created,
      metadata: {
        ...created.metadata,
        resourceVersion: undefined,
        annotations: { ...created.metadata.annotations, [LOGICAL_ID]: result.nodeLogicalId },
      },
    });
  }
  const failed = {
    ...created,
    status: {
      conditions: [
        { type: 'Launched', status: 'False', reason: 'LaunchFailed', message: result.error, lastTransitionTime: at },
        ...['Registered', 'Initialized', 'Ready'].map(unknown),
      ],
    },
  };
  recordEvent(cluster, created, 'Warning', 'LaunchFailed', `Launching NodeClaim: ${result.error}`, 'karpenter');
  return cluster.objects.update(run.types.nodeClaims, {
    ...failed,
    metadata: { ...failed.metadata, resourceVersion: undefined },
  });
}
