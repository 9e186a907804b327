import { adjustTrainingPlanUsage } from './training-plans/public.js';
import { recordEvent } from './events.js';
import { addNodeSlot, startShutdown } from './node-lifecycle.js';
import { liveNodes, type StoredCluster, type StoredGroup, type StoredNode } from './state.js';
import type { World } from './world.js';

/**
 * Target counts and the node slots that follow them. Operations (UpdateCluster, BatchAdd/Delete)
 * and the controller move a group's target; `reconcileGroup` then adds launch slots or shuts
 * surplus nodes down, so the nodes always head towards the target.
 */

/** Moves the target, reserving or returning training-plan instances with it. */
export function setTarget(world: World, group: StoredGroup, target: number): void {
  const delta = target - group.targetCount;
  const arn = group.spec.TrainingPlanArn;
  if (arn && delta !== 0) {
    const change = Math.max(-group.trainingPlanReserved, delta);
    if (change !== 0) adjustTrainingPlanUsage(world.state, world.region, arn, change);
    group.trainingPlanReserved += change;
  }
  group.targetCount = target;
}

/** Returns every instance the group reserved from its training plan (failure, delete). */
export function releaseReservation(world: World, group: StoredGroup): void {
  if (group.spec.TrainingPlanArn && group.trainingPlanReserved > 0) {
    adjustTrainingPlanUsage(world.state, world.region, group.spec.TrainingPlanArn, -group.trainingPlanReserved);
  }
  group.trainingPlanReserved = 0;
}

/** Which nodes go first on a scale-down: still waiting, then still booting, then the newest. */
function removalOrder(a: StoredNode, b: StoredNode): number {
  const rank = (n: StoredNode) => (!n.instanceId ? 0 : n.joinedAt === undefined ? 1 : 2);
  return rank(a) - rank(b) || (b.launchTime ?? b.createdAt) - (a.launchTime ?? a.createdAt);
}

/** Adds launch slots up to the target, or shuts surplus nodes down; returns the new slots. */
export function reconcileGroup(cluster: StoredCluster, group: StoredGroup, at: number): StoredNode[] {
  const name = group.spec.InstanceGroupName;
  const live = liveNodes(cluster, name);
  const added: StoredNode[] = [];
  if (live.length < group.targetCount) {
    const launchAt = cluster.setupDone ? at : cluster.setupEndsAt;
    for (let i = live.length; i < group.targetCount; i++) added.push(addNodeSlot(cluster, group, at, launchAt));
    recordEvent(
      cluster,
      at,
      'Info',
      'InstanceGroup',
      `Instance group '${name}' is scaling up from ${live.length} to ${group.targetCount} instances.`,
      { instanceGroupName: name },
    );
  } else if (live.length > group.targetCount) {
    const surplus = [...live].sort(removalOrder).slice(0, live.length - group.targetCount);
    for (const node of surplus) startShutdown(cluster, node, at);
    recordEvent(
      cluster,
      at,
      'Info',
      'InstanceGroup',
      `Instance group '${name}' is scaling down from ${live.length} to ${group.targetCount} instances.`,
      { instanceGroupName: name },
    );
  }
  return added;
}

/** Nodes a group still has to bring up or take down (the group is scaling). */
export function groupBusy(cluster: StoredCluster, group: StoredGroup): boolean {
  const name = group.spec.InstanceGroupName;
  return cluster.nodes.some(
    (n) => n.groupName === name && (n.terminating || (!n.replacing && n.joinedAt === undefined)),
  );
}

/** Nodes that joined and are not leaving: what counts towards MinInstanceCount. */
export function runningCount(cluster: StoredCluster, group: StoredGroup): number {
  return liveNodes(cluster, group.spec.InstanceGroupName).filter((n) => n.joinedAt !== undefined).length;
}
