import { keyed } from '../../core/keyed.js';
import type { TickContext } from '../../core/service.js';
import { deleteAccessEntryIfPresent } from '../eks/public.js';
import { recordEvent } from './events.js';
import { findTrainingPlan } from './training-plans/public.js';
import {
  finishBoot,
  finishDeepHealthCheck,
  finishReboot,
  finishShutdown,
  startReboot,
  startReplace,
  startShutdown,
  tryLaunch,
} from './node-lifecycle.js';
import { groupBusy, releaseReservation, runningCount, setTarget } from './scaling.js';
import {
  hyperpodRegion,
  hyperpodRegions,
  liveNodes,
  type StoredCluster,
  type StoredGroup,
  type StoredNode,
} from './state.js';
import { durations } from './timing.js';
import type { World } from './world.js';

/**
 * HyperPod's controller. Each cluster advances through its due instants in time order (cluster
 * setup, node phases, recoveries, the end of an update), so one tick after a long jump of the
 * clock gives the same result, with the same event times, as many small ticks.
 */
export function hyperpodTick(ctx: TickContext): boolean {
  let changed = false;
  for (const [region, section] of hyperpodRegions(ctx.state)) {
    const world: World = { state: ctx.state, region, faults: ctx.runtime.faults };
    for (const cluster of keyed.values(section.clusters)) {
      if (advanceCluster(world, cluster, ctx.now)) changed = true;
    }
  }
  return changed;
}

/** The end of the training plan of each group that still holds plan instances. */
function planEnds(world: World, cluster: StoredCluster): { group: StoredGroup; endTime: number; name: string }[] {
  const out: { group: StoredGroup; endTime: number; name: string }[] = [];
  for (const group of cluster.groups) {
    if (!group.spec.TrainingPlanArn || group.targetCount === 0 || group.deleting) continue;
    const plan = findTrainingPlan(world.state, world.region, group.spec.TrainingPlanArn);
    if (plan) out.push({ group, endTime: plan.endTime, name: plan.name });
  }
  return out;
}

function nextDue(world: World, cluster: StoredCluster): number | undefined {
  let t = Infinity;
  if (cluster.status !== 'Deleting' && cluster.status !== 'Failed')
    for (const p of planEnds(world, cluster)) t = Math.min(t, p.endTime);
  if (!cluster.setupDone) t = Math.min(t, cluster.setupEndsAt);
  if (cluster.transitionEndsAt !== undefined) t = Math.min(t, cluster.transitionEndsAt);
  for (const n of cluster.nodes) {
    if (n.phaseEndsAt !== undefined) t = Math.min(t, n.phaseEndsAt);
    if (n.recoveryAt !== undefined) t = Math.min(t, n.recoveryAt);
  }
  return t === Infinity ? undefined : t;
}

export function advanceCluster(world: World, cluster: StoredCluster, now: number): boolean {
  let changed = false;
  for (let guard = 0; guard < 100_000; guard++) {
    const t = nextDue(world, cluster);
    if (t === undefined || t > now) break;
    changed = true;
    if (step(world, cluster, t) === 'removed') break;
  }
  return changed;
}

function step(world: World, cluster: StoredCluster, t: number): 'removed' | undefined {
  if (!cluster.setupDone && cluster.setupEndsAt <= t) {
    cluster.setupDone = true;
    if (cluster.status === 'Creating' && cluster.injectedFailure) {
      failCluster(world, cluster, undefined, cluster.injectedFailure, t);
    } else if (cluster.status === 'Creating') {
      recordEvent(
        cluster,
        t,
        'Info',
        'Cluster',
        `Cluster-level resources are ready; instances of ${cluster.groups.length} instance group(s) are launching.`,
      );
    }
  }
  if (cluster.transitionEndsAt !== undefined && cluster.transitionEndsAt <= t) delete cluster.transitionEndsAt;

  // A training plan that ends takes its reserved instances back: the group scales to zero.
  if (cluster.status !== 'Deleting' && cluster.status !== 'Failed') {
    for (const { group, endTime, name } of planEnds(world, cluster)) {
      if (endTime > t) continue;
      const groupName = group.spec.InstanceGroupName;
      setTarget(world, group, 0);
      for (const node of liveNodes(cluster, groupName)) startShutdown(cluster, node, t);
      recordEvent(
        cluster,
        t,
        'Warn',
        'InstanceGroup',
        `Training plan '${name}' ended; the instances of instance group '${groupName}' are terminated and its target count is 0.`,
        {
          instanceGroupName: groupName,
        },
      );
    }
  }

  for (const node of [...cluster.nodes]) {
    if (node.recoveryAt === undefined || node.recoveryAt > t || node.terminating) continue;
    if (node.healthStatus === 'UnschedulablePendingReplacement') startReplace(world, cluster, node, t);
    else startReboot(cluster, node, t);
  }

  const launches = new Map<string, StoredNode[]>();
  for (const node of [...cluster.nodes]) {
    if (node.phaseEndsAt === undefined || node.phaseEndsAt > t) continue;
    switch (node.phase) {
      case 'launch':
        launches.set(node.groupName, [...(launches.get(node.groupName) ?? []), node]);
        break;
      case 'boot':
        finishBoot(cluster, node, t);
        break;
      case 'deep-health-check':
        finishDeepHealthCheck(cluster, node, t);
        break;
      case 'reboot':
        finishReboot(cluster, node, t);
        break;
      case 'shutdown':
        finishShutdown(world, cluster, node, t);
        break;
      default:
        delete node.phaseEndsAt;
    }
  }
  for (const [groupName, nodes] of launches) {
    const group = cluster.groups.find((g) => g.spec.InstanceGroupName === groupName);
    launchNodes(world, cluster, group, nodes, t);
  }
  return evaluate(world, cluster, t);
}

/** Launch attempts of one group's due slots; a shortfall retries (Continuous, replacements) or fails. */
function launchNodes(
  world: World,
  cluster: StoredCluster,
  group: StoredGroup | undefined,
  nodes: StoredNode[],
  t: number,
): void {
  if (!group || group.deleting || cluster.status === 'Failed' || cluster.status === 'Deleting') {
    for (const n of nodes) startShutdown(cluster, n, t);
    return;
  }
  const failed: { node: StoredNode; reason: string }[] = [];
  const waiting: { node: StoredNode; reason: string; retryAt: number }[] = [];
  for (const node of nodes) {
    const outcome = tryLaunch(world, cluster, group, node, t);
    if (outcome.ok) continue;
    if (outcome.retryAt !== undefined) waiting.push({ node, reason: outcome.reason, retryAt: outcome.retryAt });
    else failed.push({ node, reason: outcome.reason });
  }
  const name = group.spec.InstanceGroupName;
  const type = group.spec.InstanceType!;
  for (const { node, reason, retryAt } of waiting) {
    node.phaseEndsAt = retryAt;
    node.statusMessage = `Waiting: ${reason}`;
  }
  if (waiting.length > 0) {
    recordEvent(
      cluster,
      t,
      'Info',
      'InstanceGroup',
      `${waiting.length} instance(s) of instance group '${name}' wait: ${waiting[0]!.reason}.`,
      { instanceGroupName: name },
    );
  }
  if (failed.length === 0) {
    if (waiting.length === 0) group.retryCount = 0;
    return;
  }
  const reason = [...new Set(failed.map((f) => f.reason))].join('; ');
  const retrying = failed.filter((f) => f.node.replacing || cluster.nodeProvisioningMode === 'Continuous');
  if (retrying.length > 0) {
    const delay = durations.capacityRetry(group.retryCount ?? 0);
    group.retryCount = (group.retryCount ?? 0) + 1;
    for (const { node } of retrying) {
      node.phaseEndsAt = t + delay;
      node.statusMessage = `Waiting for capacity: ${reason}`;
    }
    recordEvent(
      cluster,
      t,
      'Warn',
      'InstanceGroup',
      `Could not launch ${retrying.length} of ${nodes.length} ${type} instance(s) for instance group '${name}': ${reason}. HyperPod retries in ${Math.round(delay / 60_000)} minute(s).`,
      { instanceGroupName: name },
    );
  }
  if (retrying.length === failed.length) return;
  const launched = liveNodes(cluster, name).filter((n) => n.instanceId).length;
  const message = `We currently do not have sufficient capacity for the requested instance type ${type} in instance group '${name}' (${launched} of ${group.targetCount} instances launched): ${reason}. Please try again later, or use other Availability Zones, another instance type or NodeProvisioningMode Continuous.`;
  if (cluster.status === 'Creating') failCluster(world, cluster, group, message, t);
  else rollBackUpdate(world, cluster, group, message, t);
}

/** A create that cannot complete: the cluster stays, Failed, with its instances terminated. */
export function failCluster(
  world: World,
  cluster: StoredCluster,
  group: StoredGroup | undefined,
  message: string,
  t: number,
): void {
  cluster.status = 'Failed';
  cluster.failureMessage = message;
  if (group) group.failureMessage = message;
  if (cluster.autoScaling) cluster.autoScaling.Status = 'Failed';
  for (const g of cluster.groups) releaseReservation(world, g);
  for (const node of [...cluster.nodes]) if (!node.terminating) startShutdown(cluster, node, t);
  recordEvent(
    cluster,
    t,
    'Error',
    'Cluster',
    `Cluster creation failed: ${message}`,
    group ? { instanceGroupName: group.spec.InstanceGroupName } : {},
  );
}

/** A non-Continuous update that cannot complete: nodes it added go away and targets fall back. */
function rollBackUpdate(world: World, cluster: StoredCluster, group: StoredGroup, message: string, t: number): void {
  cluster.status = 'RollingBack';
  cluster.failureMessage = message;
  cluster.transitionEndsAt = t + durations.rollback(`${cluster.arn}:${t}`);
  for (const g of cluster.groups) {
    if (g.deleting) continue;
    const fresh = liveNodes(cluster, g.spec.InstanceGroupName).filter((n) => n.joinedAt === undefined && !n.replacing);
    for (const node of fresh) startShutdown(cluster, node, t);
    setTarget(world, g, liveNodes(cluster, g.spec.InstanceGroupName).length);
    g.reachedInService = true;
  }
  recordEvent(cluster, t, 'Error', 'Cluster', `Cluster update failed and is rolling back: ${message}`, {
    instanceGroupName: group.spec.InstanceGroupName,
  });
}

/** Status transitions that follow from the nodes: groups InService, cluster InService, deletes done. */
function evaluate(world: World, cluster: StoredCluster, t: number): 'removed' | undefined {
  if (cluster.status === 'Deleting') {
    if (cluster.nodes.length === 0 && cluster.transitionEndsAt === undefined) {
      finishDelete(world, cluster);
      return 'removed';
    }
    return undefined;
  }
  if (cluster.status === 'Failed' || !cluster.setupDone) return undefined;

  for (const g of [...cluster.groups]) {
    const name = g.spec.InstanceGroupName;
    if (g.deleting) {
      if (!cluster.nodes.some((n) => n.groupName === name)) {
        releaseReservation(world, g);
        cluster.groups = cluster.groups.filter((x) => x !== g);
        recordEvent(cluster, t, 'Info', 'InstanceGroup', `Instance group '${name}' was deleted.`, {
          instanceGroupName: name,
        });
      }
      continue;
    }
    if (!g.reachedInService && runningCount(cluster, g) >= requiredCount(cluster, g)) {
      g.reachedInService = true;
      recordEvent(
        cluster,
        t,
        'Info',
        'InstanceGroup',
        `Instance group '${name}' is InService with ${runningCount(cluster, g)} of ${g.targetCount} instances.`,
        { instanceGroupName: name },
      );
    }
  }

  const settled =
    cluster.transitionEndsAt === undefined &&
    !cluster.groups.some((g) => g.deleting || (!cluster.nodeProvisioningMode && groupBusy(cluster, g)));
  if (cluster.status === 'Creating' && cluster.groups.every((g) => g.reachedInService)) {
    cluster.status = 'InService';
    cluster.inServiceAt = t;
    if (cluster.autoScaling) cluster.autoScaling.Status = 'InService';
    recordEvent(cluster, t, 'Info', 'Cluster', `Cluster '${cluster.name}' is InService.`);
  } else if (
    (cluster.status === 'Updating' || cluster.status === 'RollingBack') &&
    settled &&
    cluster.groups.every((g) => g.reachedInService)
  ) {
    const was = cluster.status;
    cluster.status = 'InService';
    recordEvent(
      cluster,
      t,
      'Info',
      'Cluster',
      was === 'Updating'
        ? 'Cluster update completed; the cluster is InService.'
        : 'Rollback completed; the cluster is InService.',
    );
  }
  return undefined;
}

/** Nodes that must run before a group first goes InService. */
export function requiredCount(cluster: StoredCluster, group: StoredGroup): number {
  return group.spec.MinInstanceCount ?? (cluster.nodeProvisioningMode === 'Continuous' ? 0 : group.targetCount);
}

/** The last node is gone: HyperPod removes its access entries and forgets the cluster. */
function finishDelete(world: World, cluster: StoredCluster): void {
  for (const roleArn of cluster.accessEntryRoles)
    deleteAccessEntryIfPresent(world.state, world.region, cluster.eksClusterName, roleArn);
  for (const g of cluster.groups) releaseReservation(world, g);
  keyed.delete(hyperpodRegion(world.state, world.region).clusters, cluster.name);
}
