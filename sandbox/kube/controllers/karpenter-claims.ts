import { autoscalerRemoveNode, findAutoscaledNode } from '../../services/sagemaker/public.js';
import { deleteObject } from '../api/deletion.js';
import type { KubeObject } from '../types.js';
import { recordEvent } from './events.js';
import {
  CAPACITY_TYPE_LABEL,
  consolidateAfterMs,
  DISRUPTED_TAINT,
  LOGICAL_ID,
  INSTANCE_TYPE_LABEL,
  NODEPOOL_LABEL,
  ZONE_LABEL,
  type KarpenterRun,
} from './karpenter-model.js';
import { nodeResources } from './node-shape.js';
import { parseQuantity } from './quantity.js';
import { isReady, isTerminal, keepConditionTimes, nodeNameOf, rfc3339, save, scaled, T, type Any } from './util.js';

/**
 * NodeClaims from launch to termination. A claim follows its HyperPod node (by NodeLogicalId):
 * Launched once HyperPod has an instance, Registered once the Node `hyperpod-<id>` exists (the
 * claim then labels it as Karpenter does), Initialized and Ready with the Node. A Ready node without
 * pods other than DaemonSet pods, and with no pod nominated to it, is Empty; after the NodePool's
 * consolidateAfter it is Consolidatable and, within the pool's disruption budget, disrupted:
 * tainted `karpenter.sh/disrupted`, removed through BatchDeleteClusterNodes and its claim deleted.
 * A deleted claim (by Karpenter, a user, or with its NodePool) keeps its `karpenter.sh/termination`
 * finalizer until HyperPod has terminated the instance.
 */

/** A claim HyperPod refused is kept this long (so its pods stay nominated) before Karpenter retries. */
const LAUNCH_RETRY_MS = 60_000;
/** Karpenter gives up on a node that has not registered after this long and launches again. */
const REGISTRATION_TTL_MS = 15 * 60_000;

const claimType = (run: KarpenterRun) => run.types.nodeClaims;

export function runNodeClaims(run: KarpenterRun, claims: KubeObject[], nominated: Set<string>): void {
  const { cluster } = run;
  const nodes = new Map(cluster.objects.list(T.nodes).map((n) => [n.metadata.name!, n]));
  const pods = cluster.objects.list(T.pods);
  const pools = new Map(cluster.objects.list(run.types.nodePools).map((p) => [p.metadata.name!, p]));
  const disrupting = new Map<string, number>();
  const poolOf = (c: KubeObject) => c.metadata.labels?.[NODEPOOL_LABEL] ?? '';
  for (const c of claims)
    if (c.metadata.deletionTimestamp) disrupting.set(poolOf(c), (disrupting.get(poolOf(c)) ?? 0) + 1);

  for (const claim of claims) {
    if (claim.metadata.deletionTimestamp) {
      terminate(run, claim, nodes);
      continue;
    }
    const created = Date.parse(claim.metadata.creationTimestamp ?? '');
    const logicalId = claim.metadata.annotations?.[LOGICAL_ID];
    if (!logicalId) {
      if (run.now - created >= LAUNCH_RETRY_MS) cluster.objects.remove(claimType(run), undefined, claim.metadata.name!);
      continue;
    }
    const hp = findAutoscaledNode(run.state, cluster.region, run.view.clusterName, logicalId);
    if (!hp || hp.terminating) {
      // Someone else (BatchDeleteClusterNodes, a deleted group) took the node: the claim goes too.
      recordEvent(
        cluster,
        claim,
        'Normal',
        'Deleted',
        `NodeClaim's instance is gone from HyperPod cluster '${run.view.clusterName}'`,
        'karpenter',
        { once: true },
      );
      deleteObject(cluster, claimType(run), claim, 'Background');
      continue;
    }
    const node = hp.instanceId ? nodes.get(`hyperpod-${hp.instanceId}`) : undefined;
    if (!node && run.now - created >= REGISTRATION_TTL_MS) {
      recordEvent(
        cluster,
        claim,
        'Warning',
        'FailedRegistration',
        `Node did not register within ${REGISTRATION_TTL_MS / 60_000}m, deleting NodeClaim`,
        'karpenter',
        { once: true },
      );
      deleteObject(cluster, claimType(run), claim, 'Background');
      continue;
    }
    const updated = updateStatus(run, claim, hp, node, pods, nominated);
    if (node) labelNode(run, node, updated);
    if (node && isConsolidatable(updated) && run.view.enabled) {
      const pool = pools.get(poolOf(updated));
      if (
        pool &&
        withinBudget(
          pool,
          claims.filter((c) => poolOf(c) === poolOf(updated)).length,
          disrupting.get(poolOf(updated)) ?? 0,
        )
      ) {
        if (disrupt(run, updated, node, logicalId))
          disrupting.set(poolOf(updated), (disrupting.get(poolOf(updated)) ?? 0) + 1);
      }
    }
  }
}

/**
 * An extended resource the instance type has that the node does not advertise yet (its device plugin
 * has not registered): Karpenter v1.6's initialization (pkg/controllers/nodeclaim/lifecycle/initialization.go)
 * keeps such a NodeClaim not Initialized, and counts it by the capacity it will have.
 */
export function unregisteredResource(claim: KubeObject, node: KubeObject): string | undefined {
  const expected = nodeResources(claim.metadata.labels?.[INSTANCE_TYPE_LABEL] ?? '', 'all').allocatable;
  const advertised = ((node.status as Any)?.allocatable ?? {}) as Record<string, string>;
  return Object.keys(expected).find(
    (k) => k.includes('/') && parseQuantity(expected[k]!) > 0 && !(parseQuantity(advertised[k] ?? '0') > 0),
  );
}

const isDaemonSetPod = (p: KubeObject) =>
  (p.metadata.ownerReferences ?? []).some((r) => r.kind === 'DaemonSet' && r.controller);
const conditionOf = (o: KubeObject, type: string): Any | undefined =>
  (((o.status as Any)?.conditions ?? []) as Any[]).find((c) => c.type === type);
const isConsolidatable = (claim: KubeObject) => conditionOf(claim, 'Consolidatable')?.status === 'True';

function updateStatus(
  run: KarpenterRun,
  claim: KubeObject,
  hp: NonNullable<ReturnType<typeof findAutoscaledNode>>,
  node: KubeObject | undefined,
  pods: KubeObject[],
  nominated: Set<string>,
): KubeObject {
  const at = rfc3339(run.now);
  const cond = (type: string, ok: boolean, reason: string, message = '') => ({
    type,
    status: ok ? 'True' : 'Unknown',
    reason: ok ? type : reason,
    message: ok ? '' : message,
    lastTransitionTime: at,
  });
  const launched = hp.instanceId !== undefined;
  const registered = node !== undefined;
  const ready = registered && isReady(node);
  const unregistered = ready ? unregisteredResource(claim, node) : undefined;
  const conditions: Any[] = [
    cond('Launched', launched, 'Launching', hp.statusMessage ?? 'HyperPod is launching the instance'),
    cond('Registered', registered, 'NodeNotFound', 'Node not registered with cluster'),
    unregistered
      ? cond(
          'Initialized',
          false,
          'ResourceNotRegistered',
          `Resource "${unregistered}" was requested but not registered`,
        )
      : cond('Initialized', ready, 'NodeNotReady', 'Node status is NotReady'),
  ];
  const firstMissing = conditions.find((c) => c.status !== 'True');
  conditions.push(cond('Ready', !firstMissing, firstMissing?.reason ?? '', firstMissing?.message ?? ''));
  if (ready) {
    const busy = pods.some(
      (p) =>
        nodeNameOf(p) === node.metadata.name && !isTerminal(p) && !isDaemonSetPod(p) && !p.metadata.deletionTimestamp,
    );
    const empty = !busy && !nominated.has(claim.metadata.name!);
    const previous = conditionOf(claim, 'Empty');
    const since = previous?.status === (empty ? 'True' : 'False') ? Date.parse(previous.lastTransitionTime) : run.now;
    conditions.push({
      type: 'Empty',
      status: empty ? 'True' : 'False',
      reason: empty ? 'Empty' : 'NotEmpty',
      message: '',
      lastTransitionTime: at,
    });
    const pool = run.cluster.objects.get(run.types.nodePools, undefined, claim.metadata.labels?.[NODEPOOL_LABEL] ?? '');
    const after = pool ? consolidateAfterMs(pool) : undefined;
    const due = empty && after !== undefined && run.now - since >= after;
    conditions.push({
      type: 'Consolidatable',
      status: due ? 'True' : 'False',
      reason: due ? 'Consolidatable' : empty ? 'ConsolidateAfterNotElapsed' : 'NotEmpty',
      message: '',
      lastTransitionTime: at,
    });
  }
  const { capacity, allocatable } = nodeResources(
    claim.metadata.labels?.['node.kubernetes.io/instance-type'] ?? '',
    'all',
  );
  const status: Any = {
    ...((claim.status ?? {}) as Any),
    conditions: keepConditionTimes(((claim.status as Any)?.conditions ?? []) as Any[], conditions),
    ...(launched
      ? {
          providerID: `aws:///${hp.availabilityZone ?? ''}/${hp.instanceId}`,
          imageID: 'hyperpod-default',
          capacity,
          allocatable,
        }
      : {}),
    ...(registered ? { nodeName: node.metadata.name } : {}),
  };
  const labels = {
    ...(claim.metadata.labels ?? {}),
    ...(hp.availabilityZone ? { [ZONE_LABEL]: hp.availabilityZone } : {}),
  };
  return save(run.cluster, claimType(run), claim, { ...claim, metadata: { ...claim.metadata, labels }, status });
}

/** What Karpenter puts on a node it registered: its labels (pool, capacity type, the template's) and the template's taints. */
function labelNode(run: KarpenterRun, node: KubeObject, claim: KubeObject): void {
  const ready = conditionOf(claim, 'Initialized')?.status === 'True';
  const labels: Record<string, string> = { ...(node.metadata.labels ?? {}) };
  for (const [k, v] of Object.entries(claim.metadata.labels ?? {})) if (!Object.hasOwn(labels, k)) labels[k] = v;
  labels[NODEPOOL_LABEL] = claim.metadata.labels?.[NODEPOOL_LABEL] ?? '';
  labels[CAPACITY_TYPE_LABEL] = claim.metadata.labels?.[CAPACITY_TYPE_LABEL] ?? 'on-demand';
  labels['karpenter.sh/registered'] = 'true';
  if (ready) labels['karpenter.sh/initialized'] = 'true';
  const spec = { ...((node.spec ?? {}) as Any) };
  const taints = [...((spec.taints ?? []) as Any[])];
  for (const t of ((claim.spec as Any)?.taints ?? []) as Any[])
    if (!taints.some((x) => x.key === t.key && x.effect === t.effect)) taints.push(t);
  if (taints.length) spec.taints = taints;
  save(run.cluster, T.nodes, node, { ...node, metadata: { ...node.metadata, labels }, spec });
}

/** Budgets without a schedule: the smallest `nodes` (a count or a share of the pool's nodes, rounded up) minus nodes already being disrupted. */
function withinBudget(pool: KubeObject, total: number, inProgress: number): boolean {
  const budgets = (((pool.spec as Any)?.disruption?.budgets ?? [{ nodes: '10%' }]) as Any[]).filter((b) => !b.schedule);
  const allowed = Math.min(...budgets.map((b) => scaled(b.nodes ?? '10%', total, true)), Infinity);
  return allowed - inProgress > 0;
}

function disrupt(run: KarpenterRun, claim: KubeObject, node: KubeObject, logicalId: string): boolean {
  const result = autoscalerRemoveNode(
    run.state,
    run.cluster.region,
    run.faults!,
    run.view.clusterName,
    logicalId,
    "empty for the NodePool's consolidateAfter",
    run.now,
  );
  if (result === 'busy') return false;
  recordEvent(run.cluster, claim, 'Normal', 'DisruptionTerminating', 'Disrupting NodeClaim: Empty', 'karpenter');
  recordEvent(run.cluster, node, 'Normal', 'DisruptionTerminating', 'Disrupting Node: Empty', 'karpenter');
  taintDisrupted(run, node);
  const current = run.cluster.objects.get(claimType(run), undefined, claim.metadata.name!);
  if (current) deleteObject(run.cluster, claimType(run), current, 'Background');
  return true;
}

function taintDisrupted(run: KarpenterRun, node: KubeObject): void {
  const spec = { ...((node.spec ?? {}) as Any) };
  const taints = [...((spec.taints ?? []) as Any[])];
  if (taints.some((t) => t.key === DISRUPTED_TAINT.key)) return;
  spec.taints = [...taints, DISRUPTED_TAINT];
  const current = run.cluster.objects.get(T.nodes, undefined, node.metadata.name!);
  if (current)
    save(run.cluster, T.nodes, current, {
      ...current,
      spec: { ...((current.spec ?? {}) as Any), taints: spec.taints },
    });
}

/** A claim being deleted: ask HyperPod to remove its node once, then let the claim go when the node is gone. */
function terminate(run: KarpenterRun, claim: KubeObject, nodes: Map<string, KubeObject>): void {
  const logicalId = claim.metadata.annotations?.[LOGICAL_ID];
  const hp = logicalId ? findAutoscaledNode(run.state, run.cluster.region, run.view.clusterName, logicalId) : undefined;
  if (!hp) {
    run.cluster.objects.remove(claimType(run), undefined, claim.metadata.name!);
    return;
  }
  const node = hp.instanceId ? nodes.get(`hyperpod-${hp.instanceId}`) : undefined;
  if (node) taintDisrupted(run, node);
  if (!hp.terminating && run.faults)
    autoscalerRemoveNode(
      run.state,
      run.cluster.region,
      run.faults,
      run.view.clusterName,
      logicalId!,
      'its NodeClaim was deleted',
      run.now,
    );
}
