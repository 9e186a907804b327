import { groupBusy } from './scaling.js';
import type { GroupStatus, StoredCluster, StoredGroup, StoredNode } from './state.js';

/**
 * DescribeCluster / ListClusters / ListClusterNodes / DescribeClusterNode output shapes, with the
 * member names of the SageMaker API model. Times become Dates so the protocol renders them.
 */
const date = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms));

function groupStatus(cluster: StoredCluster, group: StoredGroup): GroupStatus {
  if (cluster.status === 'Deleting' || group.deleting) return 'Deleting';
  if (group.failureMessage || (cluster.status === 'Failed' && !group.reachedInService)) return 'Failed';
  if (!group.reachedInService) return 'Creating';
  if (!cluster.nodeProvisioningMode && groupBusy(cluster, group)) return 'Updating';
  return 'InService';
}

/** Nodes of the group that exist and have joined (rebooting nodes included, leaving ones not). */
function currentCount(cluster: StoredCluster, group: StoredGroup): number {
  return cluster.nodes.filter(
    (n) => n.groupName === group.spec.InstanceGroupName && !n.terminating && n.instanceId && n.joinedAt !== undefined,
  ).length;
}

function kubernetesConfig(group: StoredGroup) {
  const k = group.spec.KubernetesConfig;
  if (!k) return undefined;
  // HyperPod applies declared labels and taints as nodes join; in the sandbox they apply at once.
  return {
    ...(k.Labels ? { CurrentLabels: { ...k.Labels }, DesiredLabels: { ...k.Labels } } : {}),
    ...(k.Taints
      ? { CurrentTaints: k.Taints.map((t) => ({ ...t })), DesiredTaints: k.Taints.map((t) => ({ ...t })) }
      : {}),
  };
}

/** Looks up a training plan's status (the plan lives in the training-plans part of SageMaker). */
export type PlanStatusLookup = (trainingPlanArn: string) => string | undefined;

/** ClusterAutoPatchConfigDetails: the strategy, and the asked-for next patch date as both current and desired. */
function autoPatchDetails(c: Record<string, unknown>) {
  const next = (c.PatchSchedule as { NextPatchDate?: unknown } | undefined)?.NextPatchDate;
  const schedule = next !== undefined ? { NextPatchDate: next } : undefined;
  return {
    PatchingStrategy: c.PatchingStrategy,
    ...(schedule ? { CurrentPatchSchedule: schedule, DesiredPatchSchedule: schedule } : {}),
  };
}

export function groupDetails(cluster: StoredCluster, group: StoredGroup, planStatus: PlanStatusLookup) {
  const s = group.spec;
  const scaling =
    groupBusy(cluster, group) && !group.deleting && cluster.status !== 'Failed' && cluster.status !== 'Deleting';
  const tpStatus = s.TrainingPlanArn ? planStatus(s.TrainingPlanArn) : undefined;
  return {
    CurrentCount: currentCount(cluster, group),
    TargetCount: group.targetCount,
    ...(s.MinInstanceCount !== undefined ? { MinCount: s.MinInstanceCount } : {}),
    InstanceGroupName: s.InstanceGroupName,
    InstanceType: s.InstanceType,
    ...(s.LifeCycleConfig ? { LifeCycleConfig: s.LifeCycleConfig } : {}),
    ExecutionRole: s.ExecutionRole,
    ThreadsPerCore: s.ThreadsPerCore,
    ...(s.InstanceStorageConfigs ? { InstanceStorageConfigs: s.InstanceStorageConfigs } : {}),
    ...(s.OnStartDeepHealthChecks ? { OnStartDeepHealthChecks: s.OnStartDeepHealthChecks } : {}),
    Status: groupStatus(cluster, group),
    ...(s.TrainingPlanArn
      ? { TrainingPlanArn: s.TrainingPlanArn, ...(tpStatus ? { TrainingPlanStatus: tpStatus } : {}) }
      : {}),
    ...(s.OverrideVpcConfig ? { OverrideVpcConfig: s.OverrideVpcConfig } : {}),
    ...(s.ScheduledUpdateConfig ? { ScheduledUpdateConfig: s.ScheduledUpdateConfig } : {}),
    ...(s.AutoPatchConfig ? { AutoPatchConfig: autoPatchDetails(s.AutoPatchConfig) } : {}),
    ...(s.ImageId ? { CurrentImageId: s.ImageId, DesiredImageId: s.ImageId } : {}),
    ...(scaling ? { ActiveOperations: { Scaling: 1 } } : {}),
    ...(s.KubernetesConfig ? { KubernetesConfig: kubernetesConfig(group) } : {}),
    ...(s.CapacityRequirements ? { CapacityRequirements: s.CapacityRequirements } : {}),
    ...(s.NetworkInterface ? { NetworkInterface: s.NetworkInterface } : {}),
  };
}

export function describeCluster(cluster: StoredCluster, planStatus: PlanStatusLookup) {
  return {
    ClusterArn: cluster.arn,
    ClusterName: cluster.name,
    ClusterStatus: cluster.status,
    CreationTime: date(cluster.createdAt),
    ...(cluster.failureMessage ? { FailureMessage: cluster.failureMessage } : {}),
    InstanceGroups: cluster.groups.map((g) => groupDetails(cluster, g, planStatus)),
    VpcConfig: cluster.vpcConfig,
    Orchestrator: { Eks: { ClusterArn: cluster.eksClusterArn } },
    ...(cluster.tieredStorageConfig ? { TieredStorageConfig: cluster.tieredStorageConfig } : {}),
    NodeRecovery: cluster.nodeRecovery,
    ...(cluster.nodeProvisioningMode ? { NodeProvisioningMode: cluster.nodeProvisioningMode } : {}),
    ...(cluster.clusterRole ? { ClusterRole: cluster.clusterRole } : {}),
    ...(cluster.autoScaling ? { AutoScaling: cluster.autoScaling } : {}),
  };
}

export function clusterSummary(cluster: StoredCluster) {
  const plans = [
    ...new Set(cluster.groups.map((g) => g.spec.TrainingPlanArn).filter((a): a is string => a !== undefined)),
  ];
  return {
    ClusterArn: cluster.arn,
    ClusterName: cluster.name,
    CreationTime: date(cluster.createdAt),
    ClusterStatus: cluster.status,
    ...(plans.length ? { TrainingPlanArns: plans } : {}),
  };
}

function instanceStatus(node: StoredNode) {
  return { Status: node.status, ...(node.statusMessage ? { Message: node.statusMessage } : {}) };
}

export function nodeSummary(node: StoredNode, withLogicalId: boolean) {
  return {
    InstanceGroupName: node.groupName,
    ...(node.instanceId ? { InstanceId: node.instanceId } : {}),
    ...(withLogicalId ? { NodeLogicalId: node.nodeLogicalId } : {}),
    InstanceType: node.instanceType,
    LaunchTime: date(node.launchTime ?? node.createdAt),
    InstanceStatus: instanceStatus(node),
    ...(node.privateDnsName ? { PrivateDnsHostname: node.privateDnsName } : {}),
  };
}

export function nodeDetails(cluster: StoredCluster, node: StoredNode) {
  const group = cluster.groups.find((g) => g.spec.InstanceGroupName === node.groupName);
  const s = group?.spec;
  const k8s = group ? kubernetesConfig(group) : undefined;
  return {
    InstanceGroupName: node.groupName,
    ...(node.instanceId ? { InstanceId: node.instanceId } : {}),
    NodeLogicalId: node.nodeLogicalId,
    InstanceStatus: instanceStatus(node),
    InstanceType: node.instanceType,
    LaunchTime: date(node.launchTime ?? node.createdAt),
    ...(s?.LifeCycleConfig ? { LifeCycleConfig: s.LifeCycleConfig } : {}),
    ...(s?.OverrideVpcConfig ? { OverrideVpcConfig: s.OverrideVpcConfig } : {}),
    ThreadsPerCore: node.threadsPerCore,
    ...(s?.InstanceStorageConfigs ? { InstanceStorageConfigs: s.InstanceStorageConfigs } : {}),
    ...(node.privateIp ? { PrivatePrimaryIp: node.privateIp } : {}),
    ...(node.privateDnsName ? { PrivateDnsHostname: node.privateDnsName } : {}),
    ...(node.availabilityZone
      ? { Placement: { AvailabilityZone: node.availabilityZone, AvailabilityZoneId: node.availabilityZoneId } }
      : {}),
    ...(k8s ? { KubernetesConfig: k8s } : {}),
    CapacityType: node.capacityType,
    ...(node.interfaceType ? { NetworkInterface: { InterfaceType: node.interfaceType } } : {}),
  };
}
