import { findZone } from '../../catalog/regions.js';
import { isAwsError } from '../../core/errors.js';
import { resourceId, uuid } from '../../core/ids.js';
import { createNetworkInterface, deleteNetworkInterface, getSubnet, type SubnetView } from '../ec2/public.js';
import { isOfferedInZone } from '../../catalog/instance-types.js';
import { findTrainingPlan } from './training-plans/public.js';
import { recordEvent } from './events.js';
import { liveNodes, type HealthStatus, type StoredCluster, type StoredGroup, type StoredNode } from './state.js';
import { durations } from './timing.js';
import type { World } from './world.js';

/**
 * One node's life: a logical slot waits for capacity, gets an instance (ENI and private IP in one of
 * its group's subnets), boots, optionally runs deep health checks, runs; it can be rebooted,
 * replaced (new instance id) or shut down. Every step records a cluster event.
 */

const nodeKey = (cluster: StoredCluster, node: StoredNode, salt = '') =>
  `${cluster.arn}:${node.nodeLogicalId}:${node.instanceId ?? ''}:${salt}`;

/** A new node slot in the group; it tries to launch at `launchAt`. */
export function addNodeSlot(cluster: StoredCluster, group: StoredGroup, at: number, launchAt: number): StoredNode {
  const spec = group.spec;
  const node: StoredNode = {
    nodeLogicalId: uuid(),
    groupName: spec.InstanceGroupName,
    instanceType: spec.InstanceType!,
    status: 'Pending',
    phase: 'launch',
    phaseEndsAt: Math.max(at, launchAt),
    capacityType: spec.CapacityRequirements?.Spot ? 'Spot' : 'OnDemand',
    ...(spec.NetworkInterface?.InterfaceType ? { interfaceType: spec.NetworkInterface.InterfaceType } : {}),
    threadsPerCore: spec.ThreadsPerCore ?? 0,
    createdAt: at,
    healthStatus: 'Unschedulable',
    ...(spec.OnStartDeepHealthChecks?.length ? { deepHealthChecks: [...spec.OnStartDeepHealthChecks] } : {}),
  };
  cluster.nodes.push(node);
  return node;
}

/** A failed launch retries at `retryAt` when it only waits for something (a training plan to start). */
export type LaunchOutcome = { ok: true } | { ok: false; reason: string; retryAt?: number };

/** AWS's EC2 private DNS names: `ec2.internal` in us-east-1, `<region>.compute.internal` elsewhere. */
export function privateDnsName(region: string, ip: string): string {
  const domain = region === 'us-east-1' ? 'ec2.internal' : `${region}.compute.internal`;
  return `ip-${ip.replaceAll('.', '-')}.${domain}`;
}

function zoneLabel(region: string, zone: string): string {
  const id = findZone(region, zone)?.zoneId;
  return id ? `${zone} (${id})` : zone;
}

/**
 * Tries to give a node an instance: among the group's subnets in Availability Zones that offer the
 * type (and, for a training plan, its zone), the least-used zone with capacity left. Consumes
 * capacity and creates the instance's ENI on success; explains the shortfall otherwise.
 */
export function tryLaunch(
  world: World,
  cluster: StoredCluster,
  group: StoredGroup,
  node: StoredNode,
  at: number,
): LaunchOutcome {
  const type = node.instanceType;
  const plan = group.spec.TrainingPlanArn
    ? findTrainingPlan(world.state, world.region, group.spec.TrainingPlanArn)
    : undefined;
  if (group.spec.TrainingPlanArn && plan?.status !== 'Active') {
    // Reserved capacity exists only while the plan is Active: before, nodes wait; after, they cannot launch.
    if (plan && (plan.status === 'Pending' || plan.status === 'Scheduled')) {
      return {
        ok: false,
        reason: `training plan '${plan.name}' is ${plan.status}; its capacity starts at ${new Date(plan.startTime).toISOString()}`,
        retryAt: Math.max(at + 60_000, plan.startTime),
      };
    }
    return {
      ok: false,
      reason: `training plan ${plan ? `'${plan.name}' is ${plan.status}` : `${group.spec.TrainingPlanArn} no longer exists`}`,
    };
  }
  const planZone = plan?.availabilityZone;
  const subnets = group.subnets
    .map((id) => getSubnet(world.state, world.region, id))
    .filter((s): s is SubnetView => s !== undefined);
  const problems: string[] = [];
  const usable: SubnetView[] = [];
  for (const subnet of subnets) {
    const zone = subnet.availabilityZone;
    if (planZone && zone !== planZone) continue;
    if (node.allowedZones && !node.allowedZones.includes(zone)) continue;
    if (!isOfferedInZone(world.region, zone, type))
      problems.push(`${type} is not offered in ${zoneLabel(world.region, zone)}`);
    else if (!plan && world.faults.capacityAvailable(world.region, zone, type) < 1)
      problems.push(`insufficient ${type} capacity in ${zoneLabel(world.region, zone)}`);
    else usable.push(subnet);
  }
  if (subnets.length === 0) problems.push(`none of the subnets ${group.subnets.join(', ')} exists any more`);
  // Spread the group across its zones: the zone with the fewest of its nodes first.
  const perZone = (zone: string) =>
    liveNodes(cluster, group.spec.InstanceGroupName).filter((n) => n.availabilityZone === zone).length;
  usable.sort((a, b) => perZone(a.availabilityZone) - perZone(b.availabilityZone));
  for (const subnet of usable) {
    try {
      const instanceId = resourceId('i');
      const eni = createNetworkInterface(world.state, world.region, {
        subnetId: subnet.subnetId,
        groupIds: group.securityGroupIds,
        description: `SageMaker HyperPod cluster ${cluster.clusterId} instance group ${group.spec.InstanceGroupName} node ${instanceId}`,
        interfaceType: node.interfaceType === 'efa' ? 'efa' : 'interface',
        requesterId: 'sagemaker.amazonaws.com',
        tags: { 'sagemaker:cluster-arn': cluster.arn, 'sagemaker:instance-group-name': group.spec.InstanceGroupName },
      });
      // A training plan's capacity is reserved: on-demand shortfalls do not touch it.
      if (!plan) world.faults.consumeCapacity(world.region, subnet.availabilityZone, type, 1);
      Object.assign(node, {
        instanceId,
        subnetId: subnet.subnetId,
        availabilityZone: subnet.availabilityZone,
        availabilityZoneId: subnet.availabilityZoneId,
        networkInterfaceId: eni.networkInterfaceId,
        privateIp: eni.privateIpAddress,
        privateDnsName: privateDnsName(world.region, eni.privateIpAddress),
        launchTime: at,
        status: 'Pending',
        phase: 'boot',
      } satisfies Partial<StoredNode>);
      delete node.statusMessage;
      if (node.replacing) {
        // Fresh hardware: the new instance joins without the old one's fault labels.
        node.healthStatus = 'Unschedulable';
        delete node.faultType;
        delete node.faultReason;
      }
      node.phaseEndsAt = at + durations.nodeBoot(nodeKey(cluster, node));
      recordEvent(
        cluster,
        at,
        'Info',
        'Instance',
        `Launched instance ${instanceId} (${type}, ${node.capacityType}) in ${zoneLabel(world.region, subnet.availabilityZone)} with private IP ${eni.privateIpAddress}.`,
        {
          instanceGroupName: group.spec.InstanceGroupName,
          instanceId,
        },
      );
      return { ok: true };
    } catch (err) {
      if (!isAwsError(err) || err.code !== 'InsufficientFreeAddressesInSubnet') throw err;
      problems.push(
        `subnet ${subnet.subnetId} in ${zoneLabel(world.region, subnet.availabilityZone)} has no free IP addresses`,
      );
    }
  }
  if (planZone && !subnets.some((s) => s.availabilityZone === planZone))
    problems.push(`no subnet of the group is in the training plan's zone ${zoneLabel(world.region, planZone)}`);
  return { ok: false, reason: problems.join('; ') };
}

export function becomeRunning(node: StoredNode, at: number): void {
  node.status = 'Running';
  node.joinedAt ??= at;
  node.healthStatus = 'Schedulable';
  delete node.statusMessage;
  delete node.phase;
  delete node.phaseEndsAt;
  delete node.faultType;
  delete node.faultReason;
  delete node.replacing;
}

/** Boot finished: deep health checks first when the group asks for them, else Running. */
export function finishBoot(cluster: StoredCluster, node: StoredNode, at: number): void {
  const checks = node.deepHealthChecks;
  delete node.deepHealthChecks;
  if (checks?.length && !node.replacing) {
    startDeepHealthCheck(cluster, node, checks, at);
    return;
  }
  becomeRunning(node, at);
  recordEvent(cluster, at, 'Info', 'Instance', `Instance ${node.instanceId} is running and schedulable.`, scope(node));
}

export function startDeepHealthCheck(cluster: StoredCluster, node: StoredNode, checks: string[], at: number): void {
  node.status = 'DeepHealthCheckInProgress';
  node.healthStatus = 'Unschedulable';
  node.deepHealthCheckStatus = 'InProgress';
  node.phase = 'deep-health-check';
  node.phaseEndsAt = at + durations.deepHealthCheck(nodeKey(cluster, node, String(at)), checks.length);
  recordEvent(
    cluster,
    at,
    'Info',
    'Instance',
    `Deep health checks (${checks.join(', ')}) started on instance ${node.instanceId}.`,
    scope(node),
  );
}

export function finishDeepHealthCheck(cluster: StoredCluster, node: StoredNode, at: number): void {
  node.deepHealthCheckStatus = 'Passed';
  becomeRunning(node, at);
  recordEvent(
    cluster,
    at,
    'Info',
    'Instance',
    `Deep health checks passed on instance ${node.instanceId}; the node is schedulable.`,
    scope(node),
  );
}

export function startReboot(cluster: StoredCluster, node: StoredNode, at: number): void {
  node.status = 'Pending';
  node.statusMessage = 'Rebooting instance';
  node.healthStatus = 'UnschedulablePendingReboot';
  node.phase = 'reboot';
  node.phaseEndsAt = at + durations.reboot(nodeKey(cluster, node, String(at)));
  delete node.recoveryAt;
  recordEvent(cluster, at, 'Info', 'Instance', `Rebooting instance ${node.instanceId}.`, scope(node));
}

export function finishReboot(cluster: StoredCluster, node: StoredNode, at: number): void {
  becomeRunning(node, at);
  recordEvent(
    cluster,
    at,
    'Info',
    'Instance',
    `Instance ${node.instanceId} rebooted and is schedulable again.`,
    scope(node),
  );
}

/** Terminates the node's instance and sends its slot back to launch: it comes back with a new instance id. */
export function startReplace(world: World, cluster: StoredCluster, node: StoredNode, at: number): void {
  const old = node.instanceId;
  releaseInstance(world, node);
  node.status = 'Pending';
  node.statusMessage = `Replacing instance ${old}`;
  node.healthStatus = 'UnschedulablePendingReplacement';
  node.phase = 'launch';
  node.phaseEndsAt = at + durations.replaceLaunch(`${cluster.arn}:${node.nodeLogicalId}:${old}`);
  node.replacing = true;
  delete node.recoveryAt;
  delete node.deepHealthChecks;
  recordEvent(
    cluster,
    at,
    'Info',
    'Instance',
    `Replacing instance ${old}: it is terminated and a new instance launches with the same configuration.`,
    {
      instanceGroupName: node.groupName,
      ...(old ? { instanceId: old } : {}),
    },
  );
}

/** Scale-down, BatchDelete, cluster or group delete: a node without an instance just goes. */
export function startShutdown(cluster: StoredCluster, node: StoredNode, at: number): void {
  if (!node.instanceId) {
    cluster.nodes = cluster.nodes.filter((n) => n !== node);
    return;
  }
  node.terminating = true;
  node.status = 'ShuttingDown';
  node.healthStatus = 'Unschedulable';
  node.phase = 'shutdown';
  node.phaseEndsAt = at + durations.shutdown(nodeKey(cluster, node, 'shutdown'));
  delete node.statusMessage;
  delete node.recoveryAt;
  recordEvent(cluster, at, 'Info', 'Instance', `Terminating instance ${node.instanceId}.`, scope(node));
}

export function finishShutdown(world: World, cluster: StoredCluster, node: StoredNode, at: number): void {
  const id = node.instanceId;
  releaseInstance(world, node);
  cluster.nodes = cluster.nodes.filter((n) => n !== node);
  recordEvent(cluster, at, 'Info', 'Instance', `Instance ${id} terminated.`, {
    instanceGroupName: node.groupName,
    ...(id ? { instanceId: id } : {}),
  });
}

/** Gives back the instance's ENI (and with it the private IP). */
function releaseInstance(world: World, node: StoredNode): void {
  if (node.networkInterfaceId) deleteNetworkInterface(world.state, world.region, node.networkInterfaceId);
  for (const k of [
    'instanceId',
    'networkInterfaceId',
    'privateIp',
    'privateDnsName',
    'subnetId',
    'availabilityZone',
    'availabilityZoneId',
    'launchTime',
  ] as const) {
    delete node[k];
  }
}

/** A fault label on a running node; with recovery HyperPod acts on it after a short delay. */
export function markFault(
  cluster: StoredCluster,
  node: StoredNode,
  health: HealthStatus,
  reason: string | undefined,
  at: number,
  recover: boolean,
): void {
  node.healthStatus = health;
  if (reason) {
    node.faultReason = reason;
    node.faultType = faultTypeOf(reason);
  }
  if (recover) node.recoveryAt = at + durations.recoveryDelay(`${cluster.arn}:${node.instanceId}:${at}`);
  const action = health === 'UnschedulablePendingReplacement' ? 'replacement' : 'reboot';
  recordEvent(
    cluster,
    at,
    'Warn',
    'Instance',
    `Instance ${node.instanceId} is unhealthy${reason ? ` (${reason})` : ''} and was labelled ${health}; ${recover ? `HyperPod will start a ${action}.` : 'node recovery is None, so it stays labelled until you act.'}`,
    scope(node),
  );
}

/** The high-level category HyperPod puts in `sagemaker.amazonaws.com/fault-type` (the sandbox's own classification). */
function faultTypeOf(reason: string): string {
  if (/xid|gpu|nvlink|dcgm|nvidia/i.test(reason)) return 'GpuError';
  if (/neuron|trainium/i.test(reason)) return 'NeuronError';
  if (/efa|network|nic/i.test(reason)) return 'NetworkError';
  if (/kernel|deadlock|panic/i.test(reason)) return 'KernelError';
  return 'InstanceError';
}

function scope(node: StoredNode): { instanceGroupName: string; instanceId?: string } {
  return { instanceGroupName: node.groupName, ...(node.instanceId ? { instanceId: node.instanceId } : {}) };
}
