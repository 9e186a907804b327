import { isDeepStrictEqual } from 'node:util';
import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { getSubnet } from '../ec2/public.js';
import { checkGroupSpec, checkRole } from './checks.js';
import { conflict, validation } from './errors.js';
import { recordEvent } from './events.js';
import { requireCluster } from './ops-clusters.js';
import {
  checkPlanTotals,
  duplicateGroupNames,
  newGroup,
  normalizeSpec,
  registerAccessEntries,
  withAutoScalerType,
  worldOf,
} from './ops-create.js';
import { checkQuotas } from './quotas.js';
import { reconcileGroup, setTarget } from './scaling.js';
import { updateClusterInput, type GroupSpecInput } from './schemas.js';
import { findGroup, type StoredCluster, type StoredGroup, type StoredGroupSpec } from './state.js';
import { startShutdown } from './node-lifecycle.js';
import { durations } from './timing.js';

/**
 * UpdateCluster: full instance-group specs (new groups, new counts, new settings), groups to
 * delete, and cluster settings. Fields fixed at creation are refused by name; everything is checked
 * before anything changes. Outside Continuous mode the cluster is Updating until its groups settle.
 */
const CORAL = { style: 'coral', code: 'ValidationException' } as const;

const capacityType = (s: { CapacityRequirements?: { Spot?: unknown } }) =>
  s.CapacityRequirements?.Spot ? 'Spot' : 'OnDemand';

/** Refuses changes to what cannot change once the group exists; returns the merged spec. */
function mergeExistingSpec(old: StoredGroupSpec, next: GroupSpecInput): GroupSpecInput {
  const name = old.InstanceGroupName;
  const refuse = (field: string) =>
    validation(
      `${field} of instance group '${name}' cannot be updated: it is fixed when the instance group is created. Create a new instance group instead.`,
    );
  if (next.InstanceType !== undefined && next.InstanceType !== old.InstanceType) throw refuse('InstanceType');
  if (next.InstanceRequirements) throw refuse('InstanceRequirements');
  if (next.ExecutionRole !== old.ExecutionRole) throw refuse('ExecutionRole');
  if (next.ThreadsPerCore !== undefined && next.ThreadsPerCore !== old.ThreadsPerCore) throw refuse('ThreadsPerCore');
  if (next.OverrideVpcConfig !== undefined && !isDeepStrictEqual(next.OverrideVpcConfig, old.OverrideVpcConfig))
    throw refuse('OverrideVpcConfig');
  if (next.CapacityRequirements !== undefined && capacityType(next) !== capacityType(old))
    throw refuse('CapacityRequirements');
  const oldIface = old.NetworkInterface?.InterfaceType;
  const newIface = next.NetworkInterface === undefined ? oldIface : next.NetworkInterface.InterfaceType;
  if (oldIface !== newIface && (oldIface === 'efa-only' || newIface === 'efa-only'))
    throw refuse('NetworkInterface.InterfaceType (efa-only mode)');
  if (next.TrainingPlanArn !== undefined && next.TrainingPlanArn !== old.TrainingPlanArn)
    throw refuse('TrainingPlanArn');
  return {
    ...next,
    InstanceType: old.InstanceType as GroupSpecInput['InstanceType'],
    ThreadsPerCore: old.ThreadsPerCore,
    ...(old.OverrideVpcConfig ? { OverrideVpcConfig: old.OverrideVpcConfig } : {}),
    ...(old.CapacityRequirements && next.CapacityRequirements === undefined
      ? { CapacityRequirements: old.CapacityRequirements }
      : {}),
    ...(newIface ? { NetworkInterface: { InterfaceType: newIface } } : {}),
    ...(old.TrainingPlanArn ? { TrainingPlanArn: old.TrainingPlanArn } : {}),
  };
}

/** The VPC the cluster lives in (its subnets'). */
function clusterVpcId(ctx: RequestContext, cluster: StoredCluster): string {
  return getSubnet(ctx.state, ctx.region, cluster.vpcConfig.Subnets[0]!)?.vpcId ?? '';
}

export function updateClusterOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(updateClusterInput, input, CORAL);
  const cluster = requireCluster(ctx, req.ClusterName);
  const world = worldOf(ctx);
  const now = ctx.now();
  const continuous = cluster.nodeProvisioningMode === 'Continuous' || req.NodeProvisioningMode === 'Continuous';

  if (cluster.status === 'Failed' || cluster.status === 'Deleting') {
    throw validation(`Cluster '${cluster.name}' is ${cluster.status} and cannot be updated.`);
  }
  if (!continuous && cluster.status !== 'InService') {
    throw conflict(`Cluster '${cluster.name}' is ${cluster.status}; it can be updated once it is InService.`);
  }
  if (req.RestrictedInstanceGroups)
    throw validation(
      'RestrictedInstanceGroups (Amazon Nova restricted instance groups) are not supported by the sandbox.',
    );
  if (req.VpcConfig && !isDeepStrictEqual(req.VpcConfig, cluster.vpcConfig)) {
    throw validation('VpcConfig cannot be updated: it is fixed when the cluster is created.');
  }
  if (req.Orchestrator && (req.Orchestrator.Slurm || req.Orchestrator.Eks?.ClusterArn !== cluster.eksClusterArn)) {
    throw validation('Orchestrator cannot be updated: it is fixed when the cluster is created.');
  }
  const specs = req.InstanceGroups ?? [];
  duplicateGroupNames(specs.map((s) => s.InstanceGroupName));
  const toDelete = req.InstanceGroupsToDelete ?? [];
  for (const name of toDelete) {
    const g = findGroup(cluster, name);
    if (!g || g.deleting)
      throw validation(
        `Instance group '${name}' in InstanceGroupsToDelete does not exist in cluster '${cluster.name}'.`,
      );
    if (specs.some((s) => s.InstanceGroupName === name))
      throw validation(`Instance group '${name}' cannot be both in InstanceGroups and in InstanceGroupsToDelete.`);
  }
  if (
    req.ClusterRole &&
    req.ClusterRole !== cluster.clusterRole &&
    cluster.autoScaling?.Mode === 'Enable' &&
    req.AutoScaling?.Mode !== 'Disable'
  ) {
    throw validation('ClusterRole cannot be updated while autoscaling is enabled.');
  }
  if (req.AutoScaling?.Mode === 'Enable') {
    if (!(req.ClusterRole ?? cluster.clusterRole))
      throw validation('AutoScaling Mode Enable requires ClusterRole, the role HyperPod assumes to scale the cluster.');
    if (!continuous) throw validation('AutoScaling Mode Enable requires NodeProvisioningMode Continuous.');
  }
  if (req.ClusterRole) checkRole(ctx.state, req.ClusterRole, 'hyperpod.sagemaker.amazonaws.com', 'ClusterRole');

  // Check every group, and collect what it adds (quota and training-plan deltas).
  const vpcId = clusterVpcId(ctx, cluster);
  const planned: {
    spec: GroupSpecInput;
    existing?: StoredGroup;
    placement: { subnets: string[]; securityGroupIds: string[] };
  }[] = [];
  const typeDelta = new Map<string, number>();
  const planDemand: { arn: string; count: number }[] = [];
  for (const raw of specs) {
    const existing = findGroup(cluster, raw.InstanceGroupName);
    if (existing?.deleting)
      throw validation(`Instance group '${raw.InstanceGroupName}' is being deleted and cannot be updated.`);
    const spec = existing ? mergeExistingSpec(existing.spec, raw) : raw;
    const added = Math.max(0, spec.InstanceCount - (existing?.targetCount ?? 0));
    const placement = checkGroupSpec(ctx.state, ctx.region, spec, {
      clusterVpc: cluster.vpcConfig,
      vpcId,
      continuous,
      trainingPlanDelta: added,
    });
    planned.push({ spec, placement, ...(existing ? { existing } : {}) });
    if (spec.InstanceType && added > 0)
      typeDelta.set(spec.InstanceType, (typeDelta.get(spec.InstanceType) ?? 0) + added);
    if (spec.TrainingPlanArn && added > 0) planDemand.push({ arn: spec.TrainingPlanArn, count: added });
  }
  checkPlanTotals(world, planDemand);
  checkQuotas(ctx.state, ctx.region, typeDelta, cluster);

  // Everything checked: apply.
  if (req.NodeRecovery) cluster.nodeRecovery = req.NodeRecovery;
  if (req.TieredStorageConfig) cluster.tieredStorageConfig = req.TieredStorageConfig;
  if (req.NodeProvisioningMode) cluster.nodeProvisioningMode = req.NodeProvisioningMode;
  if (req.ClusterRole) cluster.clusterRole = req.ClusterRole;
  if (req.AutoScaling) cluster.autoScaling = { ...withAutoScalerType(req.AutoScaling), Status: 'InService' };
  // Continuous clusters stay InService while they change; the settle instant still wakes the controller.
  cluster.transitionEndsAt = now + durations.updateSettle(`${cluster.arn}:${now}`);
  if (!continuous) {
    cluster.status = 'Updating';
    delete cluster.failureMessage;
  }
  const changes: string[] = [];
  for (const { spec, existing, placement } of planned) {
    const group = existing ?? newGroup(normalizeSpec(spec), placement, now);
    if (existing) {
      existing.spec = { ...normalizeSpec(spec), ThreadsPerCore: existing.spec.ThreadsPerCore };
      if (existing.targetCount !== spec.InstanceCount)
        changes.push(`'${spec.InstanceGroupName}' ${existing.targetCount} → ${spec.InstanceCount}`);
    } else {
      cluster.groups.push(group);
      changes.push(`new group '${spec.InstanceGroupName}' (${spec.InstanceCount} × ${spec.InstanceType})`);
    }
    setTarget(world, group, spec.InstanceCount);
    reconcileGroup(cluster, group, now);
  }
  registerAccessEntries(
    world,
    cluster,
    planned.filter((p) => !p.existing).map((p) => p.spec.ExecutionRole),
    now,
  );
  for (const name of toDelete) {
    const group = findGroup(cluster, name)!;
    group.deleting = true;
    setTarget(world, group, 0);
    for (const node of cluster.nodes.filter((n) => n.groupName === name && !n.terminating))
      startShutdown(cluster, node, now);
    changes.push(`delete group '${name}'`);
  }
  recordEvent(
    cluster,
    now,
    'Info',
    'Cluster',
    `Cluster update started${changes.length ? `: ${changes.join(', ')}` : ''}.`,
  );
  return { ClusterArn: cluster.arn };
}
