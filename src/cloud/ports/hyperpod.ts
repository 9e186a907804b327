/**
 * SageMaker HyperPod clusters (EKS-orchestrated). The answers and the instance-group specifications
 * keep SageMaker's own member names (PascalCase, as DescribeCluster sends them): an instance group is
 * restated to UpdateCluster exactly as HyperPod described it, and the read models name the members
 * they show. Value lists are those of @aws-sdk/client-sagemaker 3.1142.0; a status only shown keeps
 * `string & {}`, so one AWS adds later still reads.
 */

/** `ClusterStatus` (client-sagemaker 3.1142.0). */
export type HyperPodClusterStatus =
  | 'Creating'
  | 'Deleting'
  | 'Failed'
  | 'InService'
  | 'RollingBack'
  | 'SystemUpdating'
  | 'Updating'
  | (string & {});

/** `InstanceGroupStatus` (client-sagemaker 3.1142.0). */
export type InstanceGroupStatus =
  | 'Creating'
  | 'Degraded'
  | 'Deleting'
  | 'Failed'
  | 'InService'
  | 'SystemUpdating'
  | 'Updating'
  | (string & {});

/*
 * What an instance group is made of. DescribeCluster describes a group with these and UpdateCluster takes
 * them back, so one type serves both ways, with the SDK's required members kept required: a group
 * restated from its description goes to SageMaker as it came. Their value lists are the SDK's own (an
 * instance group is sent back to AWS, so a value is one SageMaker accepts); a value AWS adds later is
 * still carried through at run time, as the SDK itself does.
 */

/** `DeepHealthCheckType` (client-sagemaker 3.1142.0): the checks run on a node before it joins. */
export type DeepHealthCheckType = 'InstanceStress' | 'InstanceConnectivity';

/** A Kubernetes taint as HyperPod puts it on a group's nodes (ClusterKubernetesTaint). */
export interface HyperPodTaint {
  Key: string | undefined;
  Value?: string;
  /** ClusterKubernetesTaintEffect (client-sagemaker 3.1142.0). */
  Effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' | undefined;
}

export interface HyperPodLifeCycleConfig {
  SourceS3Uri?: string;
  OnCreate?: string;
  OnInitComplete?: string;
}

export interface HyperPodVpcConfig {
  Subnets: string[] | undefined;
  SecurityGroupIds: string[] | undefined;
}

/** How many nodes a rolling update takes at once (CapacitySizeConfig; `Type` as NodeUnavailabilityType). */
export interface HyperPodBatchSize {
  Type: 'INSTANCE_COUNT' | 'CAPACITY_PERCENTAGE' | undefined;
  Value: number | undefined;
}

/** A group's rolling-update deployment settings (DeploymentConfiguration). */
export interface HyperPodDeploymentConfig {
  RollingUpdatePolicy?: {
    MaximumBatchSize: HyperPodBatchSize | undefined;
    RollbackMaximumBatchSize?: HyperPodBatchSize;
  };
  WaitIntervalInSeconds?: number;
  AutoRollbackConfiguration?: Array<{ AlarmName: string | undefined }>;
}

export interface HyperPodScheduledUpdateConfig {
  ScheduleExpression: string | undefined;
  DeploymentConfig?: HyperPodDeploymentConfig;
}

/** The group's capacity: spot or on-demand (absent on a training plan's group); both carry no settings today. */
export interface HyperPodCapacityRequirements {
  Spot?: object;
  OnDemand?: object;
}

/** `InterfaceType` as in ClusterInterfaceType: EFA alongside ENA, or EFA only. */
export interface HyperPodNetworkInterface {
  InterfaceType?: 'efa' | 'efa-only';
}

/** `PatchingStrategy` as in ClusterPatchingStrategy (client-sagemaker 3.1142.0). */
export type PatchingStrategy = 'WhenIdle' | 'WhenAllIdle';

/** One instance group as DescribeCluster describes it (ClusterInstanceGroupDetails): the members the product reads or restates. */
export interface HyperPodGroupDetails {
  InstanceGroupName?: string;
  InstanceType?: string;
  Status?: InstanceGroupStatus;
  CurrentCount?: number;
  TargetCount?: number;
  MinCount?: number;
  ExecutionRole?: string;
  LifeCycleConfig?: HyperPodLifeCycleConfig;
  ThreadsPerCore?: number;
  /** Extra volumes of each instance (ClusterInstanceStorageConfig): never read, only restated as described. */
  InstanceStorageConfigs?: unknown[];
  OnStartDeepHealthChecks?: DeepHealthCheckType[];
  TrainingPlanArn?: string;
  OverrideVpcConfig?: HyperPodVpcConfig;
  ScheduledUpdateConfig?: HyperPodScheduledUpdateConfig;
  AutoPatchConfig?: {
    PatchingStrategy?: PatchingStrategy;
    DesiredPatchSchedule?: { NextPatchDate?: Date };
  };
  KubernetesConfig?: {
    CurrentLabels?: Record<string, string>;
    DesiredLabels?: Record<string, string>;
    CurrentTaints?: HyperPodTaint[];
    DesiredTaints?: HyperPodTaint[];
  };
  CapacityRequirements?: HyperPodCapacityRequirements;
  NetworkInterface?: HyperPodNetworkInterface;
}

/**
 * One instance group as CreateCluster and UpdateCluster take it (ClusterInstanceGroupSpecification):
 * built by src/workflows/instance-group-spec.ts, or restated from HyperPodGroupDetails with a change.
 */
export interface HyperPodGroupSpecification {
  InstanceGroupName: string;
  InstanceType?: string;
  InstanceCount: number;
  MinInstanceCount?: number;
  ExecutionRole: string;
  LifeCycleConfig?: HyperPodLifeCycleConfig;
  ThreadsPerCore?: number;
  /** Extra volumes of each instance (ClusterInstanceStorageConfig): never read, only restated as described. */
  InstanceStorageConfigs?: unknown[];
  OnStartDeepHealthChecks?: DeepHealthCheckType[];
  TrainingPlanArn?: string;
  OverrideVpcConfig?: HyperPodVpcConfig;
  ScheduledUpdateConfig?: HyperPodScheduledUpdateConfig;
  AutoPatchConfig?: { PatchingStrategy: PatchingStrategy | undefined; PatchSchedule?: { NextPatchDate?: Date } };
  KubernetesConfig?: { Labels?: Record<string, string>; Taints?: HyperPodTaint[] };
  CapacityRequirements?: HyperPodCapacityRequirements;
  NetworkInterface?: HyperPodNetworkInterface;
}

/** A HyperPod cluster as DescribeCluster answers it: the members the product reads. */
export interface HyperPodCluster {
  ClusterArn?: string;
  ClusterName?: string;
  ClusterStatus?: HyperPodClusterStatus;
  CreationTime?: Date;
  FailureMessage?: string;
  InstanceGroups?: HyperPodGroupDetails[];
  VpcConfig?: HyperPodVpcConfig;
  /** The EKS cluster that orchestrates it (its ARN ends in the EKS cluster's name). */
  Orchestrator?: { Eks?: { ClusterArn?: string } };
  /** `Automatic` or `None` (ClusterNodeRecovery). */
  NodeRecovery?: 'Automatic' | 'None' | (string & {});
  /** `Continuous` (ClusterNodeProvisioningMode); absent on a cluster made without it. */
  NodeProvisioningMode?: 'Continuous' | (string & {});
  /** The role HyperPod-managed autoscaling assumes. */
  ClusterRole?: string;
  /** HyperPod-managed Karpenter: `Mode` Enable/Disable, `Status` as ClusterAutoScalingStatus. */
  AutoScaling?: {
    Mode?: 'Enable' | 'Disable' | (string & {});
    AutoScalerType?: string;
    Status?: 'Creating' | 'Deleting' | 'Failed' | 'InService' | (string & {});
    FailureMessage?: string;
  };
  /** Managed tiered checkpointing. */
  TieredStorageConfig?: { Mode?: 'Enable' | 'Disable' | (string & {}); InstanceMemoryAllocationPercentage?: number };
}

export interface HyperPodClusterSpec {
  name: string;
  eksClusterArn: string;
  subnetIds: string[];
  securityGroupIds: string[];
  instanceGroups: HyperPodGroupSpecification[];
  tags: Record<string, string>;
}

export interface HyperPodPort {
  describe(region: string, name: string): Promise<HyperPodCluster | undefined>;
  create(region: string, spec: HyperPodClusterSpec): Promise<string>;
  delete(region: string, name: string): Promise<void>;
  list(region: string): Promise<Array<{ name: string; arn: string; status: string; createdAt?: Date }>>;
  tags(region: string, arn: string): Promise<Record<string, string>>;
  /** Turns HyperPod-managed Karpenter on (with the ClusterRole HyperPod assumes) or off (UpdateCluster AutoScaling). */
  setAutoScaling(
    region: string,
    name: string,
    setting: { mode: 'Enable'; clusterRoleArn: string } | { mode: 'Disable' },
  ): Promise<void>;
  /** Turns managed tiered checkpointing on (with the share of instance memory, absent = HyperPod's default) or off (UpdateCluster TieredStorageConfig). */
  setTieredStorage(
    region: string,
    name: string,
    setting: { mode: 'Enable'; instanceMemoryAllocationPercentage?: number } | { mode: 'Disable' },
  ): Promise<void>;
}
