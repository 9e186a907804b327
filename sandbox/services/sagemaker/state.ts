import { keyed, type Keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';

/**
 * HyperPod state, per region, under `state.hyperpod` (not `state.sagemaker`: training plans, written
 * separately, live in the same SageMaker service and must never collide with clusters).
 * Everything is JSON: times are sandbox epoch ms.
 */
export type ClusterStatus =
  | 'Creating'
  | 'Deleting'
  | 'Failed'
  | 'InService'
  | 'RollingBack'
  | 'SystemUpdating'
  | 'Updating';
export type GroupStatus = 'InService' | 'Creating' | 'Updating' | 'Failed' | 'Degraded' | 'SystemUpdating' | 'Deleting';
export type NodeStatus =
  | 'Running'
  | 'Failure'
  | 'Pending'
  | 'ShuttingDown'
  | 'SystemUpdating'
  | 'DeepHealthCheckInProgress'
  | 'NotFound';
export type HealthStatus =
  | 'Schedulable'
  | 'Unschedulable'
  | 'UnschedulablePendingReboot'
  | 'UnschedulablePendingReplacement';
export type DeepHealthCheckStatus = 'InProgress' | 'Passed' | 'Failed';
export type EventLevel = 'Info' | 'Warn' | 'Error';
export type EventResourceType = 'Cluster' | 'InstanceGroup' | 'Instance';

export interface StoredVpcConfig {
  SecurityGroupIds: string[];
  Subnets: string[];
}

export interface StoredTaint {
  Key: string;
  Value?: string;
  Effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/** The instance-group specification as the caller last sent it (CreateCluster / UpdateCluster). */
export interface StoredGroupSpec {
  InstanceGroupName: string;
  InstanceCount: number;
  MinInstanceCount?: number;
  InstanceType?: string;
  InstanceRequirements?: { InstanceTypes: string[] };
  LifeCycleConfig?: { SourceS3Uri?: string; OnCreate?: string; OnInitComplete?: string };
  ExecutionRole: string;
  ThreadsPerCore?: number;
  InstanceStorageConfigs?: Record<string, unknown>[];
  OnStartDeepHealthChecks?: string[];
  TrainingPlanArn?: string;
  OverrideVpcConfig?: StoredVpcConfig;
  ScheduledUpdateConfig?: Record<string, unknown>;
  ImageId?: string;
  ImageReleaseVersion?: string;
  AutoPatchConfig?: Record<string, unknown>;
  KubernetesConfig?: { Labels?: Record<string, string>; Taints?: StoredTaint[] };
  CapacityRequirements?: { Spot?: Record<string, never>; OnDemand?: Record<string, never> };
  NetworkInterface?: { InterfaceType?: 'efa' | 'efa-only' };
}

export interface StoredGroup {
  spec: StoredGroupSpec;
  /** Nodes the group should have (InstanceCount, moved by BatchAdd/BatchDelete too). */
  targetCount: number;
  /** The first transition to InService happened (MinInstanceCount only applies before it). */
  reachedInService: boolean;
  /** Effective subnets / security groups (OverrideVpcConfig, else the cluster's VpcConfig). */
  subnets: string[];
  securityGroupIds: string[];
  /** Instances reserved from the group's training plan. */
  trainingPlanReserved: number;
  /** Continuous mode: next launch attempt after a capacity shortfall. */
  retryCount?: number;
  /** Set when the group failed (its status is then Failed). */
  failureMessage?: string;
  createdAt: number;
  /** InstanceGroupsToDelete: the group goes once its nodes are gone. */
  deleting?: boolean;
}

export interface StoredNode {
  nodeLogicalId: string;
  groupName: string;
  /** Absent while the node waits for capacity (it has only a logical id). */
  instanceId?: string;
  instanceType: string;
  status: NodeStatus;
  statusMessage?: string;
  /** When the current phase (launch, boot, deep health check, reboot, shutdown) ends. */
  phaseEndsAt?: number;
  /** What follows the current phase. */
  phase?: 'launch' | 'boot' | 'deep-health-check' | 'reboot' | 'shutdown';
  deepHealthChecks?: string[];
  subnetId?: string;
  availabilityZone?: string;
  availabilityZoneId?: string;
  networkInterfaceId?: string;
  privateIp?: string;
  privateDnsName?: string;
  capacityType: 'Spot' | 'OnDemand';
  interfaceType?: 'efa' | 'efa-only';
  threadsPerCore: number;
  launchTime?: number;
  createdAt: number;
  /** First time the node ran (a node that never did is still being added, and a failed update rolls it back). */
  joinedAt?: number;
  healthStatus: HealthStatus;
  deepHealthCheckStatus?: DeepHealthCheckStatus;
  faultType?: string;
  faultReason?: string;
  /** NodeRecovery Automatic: when HyperPod starts the reboot / replacement of a faulted node. */
  recoveryAt?: number;
  /** Removed from the cluster once ShuttingDown ends (BatchDelete, scale-down, cluster delete). */
  terminating?: boolean;
  /** BatchAddClusterNodes AvailabilityZones: the zones this node may launch in. */
  allowedZones?: string[];
  /** Waiting for (or booting) the new instance of a replacement: never fails the cluster. */
  replacing?: boolean;
}

export interface StoredEvent {
  eventId: string;
  time: number;
  resourceType: EventResourceType;
  level: EventLevel;
  description: string;
  instanceGroupName?: string;
  instanceId?: string;
}

export interface StoredCluster {
  clusterId: string;
  name: string;
  arn: string;
  status: ClusterStatus;
  failureMessage?: string;
  createdAt: number;
  /** When the create completed (first InService, sandbox ms), for the admin inventory. */
  inServiceAt?: number;
  vpcConfig: StoredVpcConfig;
  eksClusterArn: string;
  eksClusterName: string;
  nodeRecovery: 'Automatic' | 'None';
  nodeProvisioningMode?: 'Continuous';
  tieredStorageConfig?: { Mode: 'Enable' | 'Disable'; InstanceMemoryAllocationPercentage?: number };
  clusterRole?: string;
  autoScaling?: {
    Mode: 'Enable' | 'Disable';
    AutoScalerType?: 'Karpenter';
    Status: 'InService' | 'Failed' | 'Creating' | 'Deleting';
  };
  tags: { Key: string; Value: string }[];
  groups: StoredGroup[];
  nodes: StoredNode[];
  events: StoredEvent[];
  /** HyperPod's cluster-level setup (access entries, networking) completes at this instant. */
  setupEndsAt: number;
  setupDone: boolean;
  /** Updating / RollingBack ends no earlier than this. */
  transitionEndsAt?: number;
  /** create-failure fault: the create ends Failed with this message once setup completes. */
  injectedFailure?: string;
  /** Execution roles registered as HYPERPOD_LINUX access entries on the EKS cluster. */
  accessEntryRoles: string[];
}

export interface HyperPodRegionState {
  clusters: Keyed<StoredCluster>;
}

const regionsOf = (state: SandboxState) => state.hyperpod as Keyed<HyperPodRegionState> | undefined;

/** `state.hyperpod[region]`, created lazily. */
export function hyperpodRegion(state: SandboxState, region: string): HyperPodRegionState {
  const all = (state.hyperpod ??= {}) as Keyed<HyperPodRegionState>;
  return keyed.ensure(all, region, () => ({ clusters: {} }));
}

/** Every region's HyperPod state; does not create the section. */
export function hyperpodRegions(state: SandboxState): Array<[string, HyperPodRegionState]> {
  return keyed.entries(regionsOf(state));
}

/** The region's clusters without creating the section (for read-only callers). */
export function clustersIn(state: SandboxState, region: string): StoredCluster[] {
  return keyed.values(keyed.get(regionsOf(state), region)?.clusters);
}

/** A cluster by name or by ARN (`arn:aws:sagemaker:<region>:<acct>:cluster/<12-char id>`). */
export function findCluster(state: SandboxState, region: string, nameOrArn: string): StoredCluster | undefined {
  const clusters = keyed.get(regionsOf(state), region)?.clusters;
  if (nameOrArn.startsWith('arn:')) return keyed.values(clusters).find((c) => c.arn === nameOrArn);
  return keyed.get(clusters, nameOrArn);
}

export function findGroup(cluster: StoredCluster, groupName: string): StoredGroup | undefined {
  return cluster.groups.find((g) => g.spec.InstanceGroupName === groupName);
}

/** Nodes that count towards their group: not on their way out. */
export function liveNodes(cluster: StoredCluster, groupName?: string): StoredNode[] {
  return cluster.nodes.filter((n) => !n.terminating && (groupName === undefined || n.groupName === groupName));
}
