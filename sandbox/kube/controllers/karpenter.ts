import type { FaultRegistry } from '../../core/faults.js';
import type { SandboxState } from '../../core/store.js';
import { hyperPodAutoscaling, type AutoscalingGroupView } from '../../services/sagemaker/public.js';
import { applyDefaults } from '../api/defaults.js';
import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { establish } from './addons.js';
import { runNodeClaims } from './karpenter-claims.js';
import { KARPENTER_CRDS, KARPENTER_GROUP, NODECLASS_GROUP, NODECLASS_KIND } from './karpenter-crds.js';
import {
  addResources,
  formatResources,
  NODEPOOL_LABEL,
  INSTANCE_TYPE_LABEL,
  templateSpecOf,
  type KarpenterRun,
} from './karpenter-model.js';
import { provision } from './karpenter-provision.js';
import { nodeResources } from './node-shape.js';
import { keepConditionTimes, rfc3339, save, T, type Any } from './util.js';

/**
 * HyperPod-managed Karpenter. While the HyperPod cluster this EKS cluster orchestrates has
 * AutoScaling `{Mode: Enable, AutoScalerType: Karpenter}` (InService), HyperPod runs Karpenter for
 * it outside the cluster: the Karpenter CRDs are installed (annotated as HyperPod's), every
 * HyperpodNodeClass and NodePool gets its status, pods that fit nowhere get NodeClaims (a
 * BatchAddClusterNodes each) and empty nodes are consolidated (BatchDeleteClusterNodes).
 *
 * Disabling autoscaling leaves the CRDs and the user's objects in place (removing the CRDs would
 * delete them): the classes and pools turn not Ready and nothing is provisioned or consolidated;
 * claims already being deleted still finish.
 */

export const INSTALLED_BY = 'sandbox.instantstart.dev/hyperpod-autoscaling';

export function runKarpenter(cluster: KubeCluster, state: SandboxState, faults: FaultRegistry | undefined): void {
  const view = hyperPodAutoscaling(state, cluster.region, cluster.arn);
  if (!view) return;
  if (view.enabled) installCrds(cluster, view.clusterName);
  const nodeClasses = cluster.findType(NODECLASS_GROUP, 'v1', 'hyperpodnodeclasses');
  const nodePools = cluster.findType(KARPENTER_GROUP, 'v1', 'nodepools');
  const nodeClaims = cluster.findType(KARPENTER_GROUP, 'v1', 'nodeclaims');
  if (!nodeClasses || !nodePools || !nodeClaims) return;
  const run: KarpenterRun = {
    cluster,
    state,
    faults,
    view,
    now: cluster.now(),
    types: { nodeClasses, nodePools, nodeClaims },
    classes: new Map(),
    pools: [],
  };
  for (const nc of cluster.objects.list(nodeClasses)) {
    const groups = updateNodeClass(run, nc);
    if (groups) run.classes.set(nc.metadata.name!, groups);
  }
  const claims = () => cluster.objects.list(nodeClaims);
  const all = claims();
  for (const pool of cluster.objects.list(nodePools)) {
    if (updateNodePool(run, pool, all) && !pool.metadata.deletionTimestamp) run.pools.push(pool);
  }
  run.pools.sort(
    (a, b) =>
      Number((b.spec as Any)?.weight ?? 0) - Number((a.spec as Any)?.weight ?? 0) ||
      a.metadata.name!.localeCompare(b.metadata.name!),
  );
  const nominated = view.enabled ? provision(run, all) : new Set<string>();
  runNodeClaims(run, claims(), nominated);
}

/** The CRDs, Established at once (as an add-on's are); existing ones (a re-enable) are left alone. */
function installCrds(cluster: KubeCluster, clusterName: string): void {
  for (const manifest of KARPENTER_CRDS) {
    if (cluster.objects.get(T.crds, undefined, manifest.metadata.name!)) continue;
    const crd = structuredClone(manifest);
    crd.metadata.annotations = { [INSTALLED_BY]: clusterName };
    crd.metadata.labels = { 'app.kubernetes.io/managed-by': 'sagemaker-hyperpod' };
    applyDefaults(T.crds, crd);
    establish(crd, cluster.now());
    cluster.objects.create(T.crds, crd);
  }
}

/** One condition list, keeping transition times of conditions that did not change. */
function withConditions(o: KubeObject, conditions: Any[], at: string): Any[] {
  const stamped = conditions.map((c) => ({
    ...c,
    lastTransitionTime: at,
    observedGeneration: o.metadata.generation ?? 1,
  }));
  return keepConditionTimes(((o.status as Any)?.conditions ?? []) as Any[], stamped);
}

/** Status of a HyperpodNodeClass; returns its instance groups when it is Ready. */
function updateNodeClass(run: KarpenterRun, nc: KubeObject): AutoscalingGroupView[] | undefined {
  const names = ((nc.spec as Any)?.instanceGroups ?? []) as string[];
  const view = run.view;
  const found = names.map((n) => view.groups.get(n)).filter((g): g is AutoscalingGroupView => g !== undefined);
  const missing = names.filter((n) => !view.groups.has(n));
  const unusable = found.filter((g) => g.unusable);
  let problem: { reason: string; message: string } | undefined;
  if (!view.enabled)
    problem = {
      reason: 'AutoscalingDisabled',
      message: `AutoScaling is not enabled on HyperPod cluster '${view.clusterName}'`,
    };
  else if (missing.length)
    problem = {
      reason: 'InstanceGroupNotFound',
      message: `instance group(s) ${missing.map((n) => `'${n}'`).join(', ')} not found in HyperPod cluster '${view.clusterName}'`,
    };
  else if (unusable.length)
    problem = { reason: 'InstanceGroupNotSupported', message: unusable.map((g) => g.unusable).join('; ') };
  const at = rfc3339(run.now);
  const status = {
    conditions: withConditions(
      nc,
      [
        problem
          ? { type: 'Ready', status: 'False', ...problem }
          : { type: 'Ready', status: 'True', reason: 'Ready', message: '' },
      ],
      at,
    ),
    instanceGroups: found.map((g) => ({
      name: g.name,
      instanceTypes: [g.instanceType],
      subnets: g.subnets,
      availabilityZones: g.zones,
      desiredLabels: g.labels,
    })),
  };
  save(run.cluster, run.types.nodeClasses, nc, { ...nc, status });
  return problem ? undefined : found;
}

/** Status of a NodePool (conditions, resources of its NodeClaims); true when it is Ready. */
function updateNodePool(run: KarpenterRun, pool: KubeObject, claims: KubeObject[]): boolean {
  const ref = (templateSpecOf(pool).nodeClassRef ?? {}) as Any;
  const at = rfc3339(run.now);
  let classProblem: string | undefined;
  if (ref.group !== NODECLASS_GROUP || ref.kind !== NODECLASS_KIND)
    classProblem = `nodeClassRef must be ${NODECLASS_KIND}.${NODECLASS_GROUP} on HyperPod clusters, not ${ref.kind}.${ref.group}`;
  else if (!run.cluster.objects.get(run.types.nodeClasses, undefined, ref.name))
    classProblem = `${NODECLASS_KIND} '${ref.name}' not found`;
  else if (!run.classes.has(ref.name)) classProblem = `${NODECLASS_KIND} '${ref.name}' is not Ready`;
  const mine = claims.filter((c) => c.metadata.labels?.[NODEPOOL_LABEL] === pool.metadata.name);
  const resources = new Map<string, number>([
    ['cpu', 0],
    ['memory', 0],
    ['nodes', 0],
    ['pods', 0],
    ['ephemeral-storage', 0],
  ]);
  for (const c of mine)
    addResources(resources, nodeResources(c.metadata.labels?.[INSTANCE_TYPE_LABEL] ?? '', 'all').capacity);
  const conditions = [
    { type: 'ValidationSucceeded', status: 'True', reason: 'ValidationSucceeded', message: '' },
    classProblem
      ? { type: 'NodeClassReady', status: 'False', reason: 'NodeClassNotReady', message: classProblem }
      : { type: 'NodeClassReady', status: 'True', reason: 'NodeClassReady', message: '' },
    classProblem
      ? { type: 'Ready', status: 'False', reason: 'NodeClassNotReady', message: classProblem }
      : { type: 'Ready', status: 'True', reason: 'Ready', message: '' },
  ];
  const status = {
    ...((pool.status ?? {}) as Any),
    conditions: withConditions(pool, conditions, at),
    resources: formatResources(resources),
  };
  save(run.cluster, run.types.nodePools, pool, { ...pool, status });
  return classProblem === undefined;
}
