import { keyed } from '../../core/keyed.js';
import { randomBytes } from 'node:crypto';
import { findInstanceType } from '../../catalog/instance-types.js';
import { arn } from '../../core/ids.js';
import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { ensureAccessEntry } from '../eks/public.js';
import { findTrainingPlan } from './training-plans/public.js';
import { checkEksCluster, checkGroupSpec, checkRole, checkVpcConfig } from './checks.js';
import { checkEksReadiness } from './eks-readiness.js';
import { inUse, validation } from './errors.js';
import { recordEvent } from './events.js';
import { checkQuotas } from './quotas.js';
import { reconcileGroup, setTarget } from './scaling.js';
import { createClusterInput, type GroupSpecInput } from './schemas.js';
import { findCluster, hyperpodRegion, type StoredCluster, type StoredGroup, type StoredGroupSpec } from './state.js';
import { durations } from './timing.js';
import type { World } from './world.js';

/**
 * CreateCluster: every check first (input, cluster-level rules, EKS — its Kubernetes version and
 * HyperPod's dependencies installed in it (eks-readiness.ts) —, VPC, roles, each group,
 * training plans, quotas), then the cluster appears Creating with its node slots waiting for
 * cluster-level setup, and HyperPod registers the execution roles on the EKS cluster.
 */

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** Cluster ARNs end in a 12-character lower-case id, not the name. */
function clusterId(): string {
  return [...randomBytes(12)].map((b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('');
}

export const worldOf = (ctx: RequestContext): World => ({
  state: ctx.state,
  region: ctx.region,
  faults: ctx.runtime.faults,
});

/** Instances per ml.* type that a list of group specs asks for (quota deltas). */
export function demandByType(specs: { InstanceType?: string; InstanceCount: number }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of specs) if (s.InstanceType) out.set(s.InstanceType, (out.get(s.InstanceType) ?? 0) + s.InstanceCount);
  return out;
}

/** Several groups may draw on one training plan: together they must fit its available instances. */
export function checkPlanTotals(world: World, demands: { arn: string; count: number }[]): void {
  const perPlan = new Map<string, number>();
  for (const d of demands) perPlan.set(d.arn, (perPlan.get(d.arn) ?? 0) + d.count);
  for (const [planArn, count] of perPlan) {
    const plan = findTrainingPlan(world.state, world.region, planArn);
    if (plan && count > plan.availableInstanceCount) {
      throw validation(
        `The training plan '${plan.name}' has ${plan.availableInstanceCount} available instances; the instance groups using it need ${count}.`,
      );
    }
  }
}

export function duplicateGroupNames(names: string[]): void {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n))
      throw validation(`Instance group names must be unique within a cluster: '${n}' appears more than once.`);
    seen.add(n);
  }
}

/** The stored spec: what the caller sent, with the catalogue's default ThreadsPerCore filled in. */
export function normalizeSpec(spec: GroupSpecInput): StoredGroupSpec {
  const copy = JSON.parse(JSON.stringify(spec)) as StoredGroupSpec;
  copy.ThreadsPerCore ??= findInstanceType(spec.InstanceType!)?.defaultThreadsPerCore ?? 1;
  return copy;
}

export function newGroup(
  spec: StoredGroupSpec,
  placement: { subnets: string[]; securityGroupIds: string[] },
  now: number,
): StoredGroup {
  return {
    spec,
    targetCount: 0,
    reachedInService: false,
    subnets: placement.subnets,
    securityGroupIds: placement.securityGroupIds,
    trainingPlanReserved: 0,
    createdAt: now,
  };
}

/** Karpenter is the only autoscaler HyperPod offers: an enabled config without a type means Karpenter. */
export function withAutoScalerType(a: { Mode: 'Enable' | 'Disable'; AutoScalerType?: 'Karpenter' }): {
  Mode: 'Enable' | 'Disable';
  AutoScalerType?: 'Karpenter';
} {
  return a.Mode === 'Enable' && !a.AutoScalerType ? { ...a, AutoScalerType: 'Karpenter' } : a;
}

export function registerAccessEntries(world: World, cluster: StoredCluster, roles: string[], now: number): void {
  for (const role of new Set(roles)) {
    ensureAccessEntry(
      world.state,
      world.region,
      cluster.eksClusterName,
      { principalArn: role, type: 'HYPERPOD_LINUX' },
      now,
    );
    if (!cluster.accessEntryRoles.includes(role)) cluster.accessEntryRoles.push(role);
  }
}

export function createCluster(input: unknown, ctx: RequestContext): { ClusterArn: string } {
  const req = validateInput(createClusterInput, input, { style: 'coral', code: 'ValidationException' });
  const world = worldOf(ctx);
  const now = ctx.now();
  const name = req.ClusterName;

  if (req.RestrictedInstanceGroups)
    throw validation(
      'RestrictedInstanceGroups (Amazon Nova restricted instance groups) are not supported by the sandbox.',
    );
  if (req.Orchestrator?.Eks && req.Orchestrator.Slurm)
    throw validation('Orchestrator must specify exactly one of Eks or Slurm.');
  const eksArn = req.Orchestrator?.Eks?.ClusterArn;
  if (!eksArn)
    throw validation(
      'Orchestrator.Eks.ClusterArn is required: the sandbox emulates HyperPod clusters orchestrated by Amazon EKS.',
    );
  const groups = req.InstanceGroups;
  if (!groups) throw validation('InstanceGroups is required: specify at least one instance group.');
  if (!req.VpcConfig) throw validation('VpcConfig is required for clusters orchestrated by Amazon EKS.');
  duplicateGroupNames(groups.map((g) => g.InstanceGroupName));
  const continuous = req.NodeProvisioningMode === 'Continuous';
  if (req.AutoScaling?.Mode === 'Enable') {
    if (!req.ClusterRole)
      throw validation('AutoScaling Mode Enable requires ClusterRole, the role HyperPod assumes to scale the cluster.');
    if (!continuous) throw validation('AutoScaling Mode Enable requires NodeProvisioningMode Continuous.');
  }
  if (findCluster(ctx.state, ctx.region, name)) throw inUse(`Cluster '${name}' already exists.`);

  const eks = checkEksCluster(ctx.state, ctx.region, eksArn, name);
  checkEksReadiness(ctx.state, eks);
  checkVpcConfig(ctx.state, ctx.region, req.VpcConfig, eks.vpcId, 'VpcConfig');
  if (req.ClusterRole) checkRole(ctx.state, req.ClusterRole, 'hyperpod.sagemaker.amazonaws.com', 'ClusterRole');
  const placements = groups.map((g) =>
    checkGroupSpec(ctx.state, ctx.region, g, {
      clusterVpc: req.VpcConfig!,
      vpcId: eks.vpcId,
      continuous,
      trainingPlanDelta: g.InstanceCount,
    }),
  );
  checkPlanTotals(
    world,
    groups.filter((g) => g.TrainingPlanArn).map((g) => ({ arn: g.TrainingPlanArn!, count: g.InstanceCount })),
  );
  checkQuotas(ctx.state, ctx.region, demandByType(groups), undefined);
  const injectedFailure = ctx.runtime.faults.takeCreateFailure('sagemaker', name);

  const id = clusterId();
  const clusterArn = arn('sagemaker', ctx.region, ctx.accountId, `cluster/${id}`);
  const cluster: StoredCluster = {
    clusterId: id,
    name,
    arn: clusterArn,
    status: 'Creating',
    createdAt: now,
    vpcConfig: req.VpcConfig,
    eksClusterArn: eks.arn,
    eksClusterName: eks.name,
    nodeRecovery: req.NodeRecovery ?? 'Automatic',
    ...(continuous ? { nodeProvisioningMode: 'Continuous' as const } : {}),
    ...(req.TieredStorageConfig ? { tieredStorageConfig: req.TieredStorageConfig } : {}),
    ...(req.ClusterRole ? { clusterRole: req.ClusterRole } : {}),
    ...(req.AutoScaling
      ? { autoScaling: { ...withAutoScalerType(req.AutoScaling), Status: 'Creating' as const } }
      : {}),
    tags: req.Tags ?? [],
    groups: [],
    nodes: [],
    events: [],
    setupEndsAt: now + durations.clusterSetup(clusterArn),
    setupDone: false,
    ...(injectedFailure ? { injectedFailure } : {}),
    accessEntryRoles: [],
  };
  recordEvent(
    cluster,
    now,
    'Info',
    'Cluster',
    `Cluster '${name}' creation started (orchestrator: EKS cluster ${eks.name}).`,
  );
  groups.forEach((spec, i) => {
    const group = newGroup(normalizeSpec(spec), placements[i]!, now);
    cluster.groups.push(group);
    setTarget(world, group, spec.InstanceCount);
    reconcileGroup(cluster, group, now);
  });
  registerAccessEntries(
    world,
    cluster,
    groups.map((g) => g.ExecutionRole),
    now,
  );
  keyed.set(hyperpodRegion(ctx.state, ctx.region).clusters, name, cluster);
  return { ClusterArn: clusterArn };
}
