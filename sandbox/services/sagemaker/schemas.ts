import { z } from 'zod';
import { CLUSTER_INSTANCE_TYPES } from './instance-types.js';

/**
 * Request shapes of the HyperPod operations, with the constraints of the SageMaker API model
 * (lengths, ranges, patterns, enums), so a bad request fails with Coral's wording before anything
 * is looked up.
 */
const NAME = /^[a-zA-Z0-9](-*[a-zA-Z0-9])*$/;
const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/?[a-zA-Z_0-9+=,.@\-_/]+$/;
const NAME_OR_ARN =
  /^(?:(arn:aws[a-z-]*:sagemaker:[a-z0-9-]*:[0-9]{12}:cluster\/[a-z0-9]{12})|([a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}))$/;
const NODE_ID = /^i-[a-f0-9]{8}(?:[a-f0-9]{9})?$/;
const NODE_LOGICAL_ID = /^[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]$/;
const K8S_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const K8S_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const TAG_TEXT = /^([\p{L}\p{Z}\p{N}_.:/=+\-@]*)$/u;

export const clusterName = z.string().min(1).max(63).regex(NAME);
export const clusterNameOrArn = z.string().max(256).regex(NAME_OR_ARN);
export const groupName = z.string().min(1).max(63).regex(NAME);
export const roleArn = z.string().min(20).max(2048).regex(ROLE_ARN);
export const nodeId = z.string().min(1).max(256).regex(NODE_ID);
export const nodeLogicalId = z.string().min(1).max(128).regex(NODE_LOGICAL_ID);
export const instanceType = z.enum(CLUSTER_INSTANCE_TYPES);
export const deepHealthCheckType = z.enum(['InstanceStress', 'InstanceConnectivity']);
export const trainingPlanArn = z
  .string()
  .min(50)
  .max(2048)
  .regex(/^arn:aws[a-z-]*:sagemaker:[a-z0-9-]*:[0-9]{12}:training-plan\/.*$/);
const count = z.number().int().min(0).max(6758);
const timestamp = z.union([z.number(), z.string(), z.date()]);
export const maxResults = z.number().int().min(1).max(100).optional();
export const nextToken = z.string().max(8192).optional();
export const sortOrder = z.enum(['Ascending', 'Descending']).optional();

export const vpcConfig = z.object({
  SecurityGroupIds: z
    .array(
      z
        .string()
        .max(32)
        .regex(/^[-0-9a-zA-Z]+$/),
    )
    .min(1)
    .max(5),
  Subnets: z
    .array(
      z
        .string()
        .max(32)
        .regex(/^[-0-9a-zA-Z]+$/),
    )
    .min(1)
    .max(16),
});

export const tag = z.object({
  Key: z.string().min(1).max(128).regex(TAG_TEXT),
  Value: z.string().max(256).regex(TAG_TEXT),
});

const capacitySize = z.object({
  Type: z.enum(['INSTANCE_COUNT', 'CAPACITY_PERCENTAGE']),
  Value: z.number().int().min(1),
});
const deploymentConfig = z.object({
  RollingUpdatePolicy: z
    .object({ MaximumBatchSize: capacitySize, RollbackMaximumBatchSize: capacitySize.optional() })
    .optional(),
  WaitIntervalInSeconds: z.number().int().min(0).max(3600).optional(),
  AutoRollbackConfiguration: z
    .array(z.object({ AlarmName: z.string().min(1).max(255) }))
    .min(1)
    .max(10)
    .optional(),
});

const storageConfig = z.object({
  EbsVolumeConfig: z
    .object({
      VolumeSizeInGB: z.number().int().min(1).max(16384).optional(),
      VolumeKmsKeyId: z
        .string()
        .max(2048)
        .regex(/^[a-zA-Z0-9:/_-]*$/)
        .optional(),
      RootVolume: z.boolean().optional(),
    })
    .optional(),
  FsxLustreConfig: z
    .object({
      DnsName: z
        .string()
        .min(16)
        .max(275)
        .regex(/^((fs|fc)i?-[0-9a-f]{8,}\..{4,253})$/),
      MountName: z
        .string()
        .min(1)
        .max(8)
        .regex(/^([A-Za-z0-9_-]{1,8})$/),
      MountPath: z
        .string()
        .min(1)
        .max(1024)
        .regex(/^\/[a-zA-Z0-9._/-]+$/)
        .optional(),
    })
    .optional(),
  FsxOpenZfsConfig: z
    .object({
      DnsName: z
        .string()
        .min(16)
        .max(275)
        .regex(/^((fs|fc)i?-[0-9a-f]{8,}\..{4,253})$/),
      MountPath: z
        .string()
        .min(1)
        .max(1024)
        .regex(/^\/[a-zA-Z0-9._/-]+$/)
        .optional(),
    })
    .optional(),
});

export const groupSpec = z.object({
  InstanceCount: count,
  MinInstanceCount: count.optional(),
  InstanceGroupName: groupName,
  InstanceType: instanceType.optional(),
  InstanceRequirements: z.object({ InstanceTypes: z.array(instanceType).min(1).max(20) }).optional(),
  LifeCycleConfig: z
    .object({
      SourceS3Uri: z
        .string()
        .max(1024)
        .regex(/^(https|s3):\/\/([^/]+)\/?(.*)$/)
        .optional(),
      OnCreate: z.string().min(1).max(128).optional(),
      OnInitComplete: z.string().min(1).max(128).optional(),
    })
    .optional(),
  ExecutionRole: roleArn,
  ThreadsPerCore: z.number().int().min(1).max(2).optional(),
  InstanceStorageConfigs: z.array(storageConfig).max(4).optional(),
  OnStartDeepHealthChecks: z.array(deepHealthCheckType).min(1).max(2).optional(),
  TrainingPlanArn: trainingPlanArn.optional(),
  OverrideVpcConfig: vpcConfig.optional(),
  ScheduledUpdateConfig: z
    .object({ ScheduleExpression: z.string().min(1).max(256), DeploymentConfig: deploymentConfig.optional() })
    .optional(),
  ImageId: z
    .string()
    .min(7)
    .max(21)
    .regex(/^(ami-[0-9a-fA-F]{8,17}|default)$/)
    .optional(),
  ImageReleaseVersion: z.string().min(1).max(32).optional(),
  AutoPatchConfig: z
    .object({ PatchingStrategy: z.enum(['WhenIdle', 'WhenAllIdle']) })
    .passthrough()
    .optional(),
  KubernetesConfig: z
    .object({
      Labels: z
        .record(z.string().min(1).max(317).regex(K8S_KEY), z.string().min(1).max(63).regex(K8S_VALUE))
        .optional(),
      Taints: z
        .array(
          z.object({
            Key: z.string().min(1).max(317).regex(K8S_KEY),
            Value: z.string().min(1).max(63).regex(K8S_VALUE).optional(),
            Effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
          }),
        )
        .max(50)
        .optional(),
    })
    .optional(),
  SlurmConfig: z
    .object({
      NodeType: z.enum(['Controller', 'Login', 'Compute']),
      PartitionNames: z.array(z.string()).max(1).optional(),
    })
    .optional(),
  CapacityRequirements: z.object({ Spot: z.object({}).optional(), OnDemand: z.object({}).optional() }).optional(),
  NetworkInterface: z.object({ InterfaceType: z.enum(['efa', 'efa-only']).optional() }).optional(),
});
export type GroupSpecInput = z.infer<typeof groupSpec>;

const orchestrator = z.object({
  Eks: z
    .object({
      ClusterArn: z
        .string()
        .min(20)
        .max(2048)
        .regex(/^arn:aws[a-z-]*:eks:[a-z0-9-]*:[0-9]{12}:cluster\/[0-9A-Za-z][A-Za-z0-9\-_]{0,99}$/),
    })
    .optional(),
  Slurm: z.object({ SlurmConfigStrategy: z.enum(['Overwrite', 'Managed', 'Merge']).optional() }).optional(),
});
const tieredStorage = z.object({
  Mode: z.enum(['Enable', 'Disable']),
  InstanceMemoryAllocationPercentage: z.number().int().min(0).max(100).optional(),
});
const autoScaling = z.object({ Mode: z.enum(['Enable', 'Disable']), AutoScalerType: z.enum(['Karpenter']).optional() });

export const createClusterInput = z.object({
  ClusterName: clusterName,
  InstanceGroups: z.array(groupSpec).min(1).max(100).optional(),
  RestrictedInstanceGroups: z.array(z.unknown()).min(1).max(100).optional(),
  VpcConfig: vpcConfig.optional(),
  Tags: z.array(tag).max(50).optional(),
  Orchestrator: orchestrator.optional(),
  NodeRecovery: z.enum(['Automatic', 'None']).optional(),
  TieredStorageConfig: tieredStorage.optional(),
  NodeProvisioningMode: z.enum(['Continuous']).optional(),
  ClusterRole: roleArn.optional(),
  AutoScaling: autoScaling.optional(),
});
export type CreateClusterInput = z.infer<typeof createClusterInput>;

export const updateClusterInput = z.object({
  ClusterName: clusterNameOrArn,
  InstanceGroups: z.array(groupSpec).min(1).max(100).optional(),
  RestrictedInstanceGroups: z.array(z.unknown()).min(1).max(100).optional(),
  TieredStorageConfig: tieredStorage.optional(),
  NodeRecovery: z.enum(['Automatic', 'None']).optional(),
  InstanceGroupsToDelete: z.array(groupName).max(100).optional(),
  NodeProvisioningMode: z.enum(['Continuous']).optional(),
  ClusterRole: roleArn.optional(),
  AutoScaling: autoScaling.optional(),
  Orchestrator: orchestrator.optional(),
  // Not in the API model: raw JSON callers sometimes send it; it cannot change, so it is refused by name.
  VpcConfig: vpcConfig.optional(),
});
export type UpdateClusterInput = z.infer<typeof updateClusterInput>;

export const clusterOnlyInput = z.object({ ClusterName: clusterNameOrArn });

export const listClustersInput = z.object({
  CreationTimeAfter: timestamp.optional(),
  CreationTimeBefore: timestamp.optional(),
  MaxResults: maxResults,
  NameContains: z
    .string()
    .max(63)
    .regex(/^[a-zA-Z0-9-]+$/)
    .optional(),
  NextToken: nextToken,
  SortBy: z.enum(['CREATION_TIME', 'NAME']).optional(),
  SortOrder: sortOrder,
  TrainingPlanArn: trainingPlanArn.optional(),
});

export const listClusterNodesInput = z.object({
  ClusterName: clusterNameOrArn,
  CreationTimeAfter: timestamp.optional(),
  CreationTimeBefore: timestamp.optional(),
  InstanceGroupNameContains: groupName.optional(),
  MaxResults: maxResults,
  NextToken: nextToken,
  SortBy: z.enum(['CREATION_TIME', 'NAME']).optional(),
  SortOrder: sortOrder,
  IncludeNodeLogicalIds: z.boolean().optional(),
});

export const describeClusterNodeInput = z.object({
  ClusterName: clusterNameOrArn,
  NodeId: nodeId.optional(),
  NodeLogicalId: nodeLogicalId.optional(),
});

export const batchDeleteNodesInput = z.object({
  ClusterName: clusterNameOrArn,
  NodeIds: z.array(nodeId).min(1).max(3000).optional(),
  NodeLogicalIds: z.array(nodeLogicalId).min(1).max(99).optional(),
});

export const batchNodeActionInput = z.object({
  ClusterName: clusterNameOrArn,
  NodeIds: z.array(nodeId).min(1).max(25).optional(),
  NodeLogicalIds: z.array(nodeLogicalId).min(1).max(25).optional(),
});

export const batchAddNodesInput = z.object({
  ClusterName: clusterNameOrArn,
  ClientToken: z
    .string()
    .max(64)
    .regex(/^[\x21-\x7E]+$/)
    .optional(),
  NodesToAdd: z
    .array(
      z.object({
        InstanceGroupName: groupName,
        IncrementTargetCountBy: z.number().int().min(1).max(50),
        AvailabilityZones: z
          .array(z.string().regex(/^[a-z]{2}-[a-z]+-\d[a-z]$/))
          .min(1)
          .max(10)
          .optional(),
        InstanceTypes: z.array(instanceType).min(1).max(20).optional(),
      }),
    )
    .min(1)
    .max(5),
});

export const startHealthCheckInput = z.object({
  ClusterName: clusterNameOrArn,
  DeepHealthCheckConfigurations: z
    .array(
      z.object({
        InstanceGroupName: groupName,
        InstanceIds: z.array(nodeId).min(1).max(500).optional(),
        DeepHealthChecks: z.array(deepHealthCheckType).min(1).max(2),
      }),
    )
    .min(1)
    .max(99),
});

export const listClusterEventsInput = z.object({
  ClusterName: clusterNameOrArn,
  InstanceGroupName: groupName.optional(),
  NodeId: nodeId.optional(),
  EventTimeAfter: timestamp.optional(),
  EventTimeBefore: timestamp.optional(),
  SortBy: z.enum(['EventTime']).optional(),
  SortOrder: sortOrder,
  ResourceType: z.enum(['Cluster', 'InstanceGroup', 'Instance']).optional(),
  MaxResults: maxResults,
  NextToken: nextToken,
});

export const describeClusterEventInput = z.object({
  EventId: z.string().regex(/^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$/),
  ClusterName: clusterNameOrArn,
});

const resourceArn = z
  .string()
  .max(256)
  .regex(/^arn:aws[a-z-]*:sagemaker:[a-z0-9-]*:[0-9]{12}:.+$/);
export const addTagsInput = z.object({ ResourceArn: resourceArn, Tags: z.array(tag).max(50) });
export const listTagsInput = z.object({
  ResourceArn: resourceArn,
  NextToken: nextToken,
  MaxResults: z.number().int().min(50).optional(),
});
export const deleteTagsInput = z.object({
  ResourceArn: resourceArn,
  TagKeys: z.array(z.string().min(1).max(128).regex(TAG_TEXT)).min(1).max(50),
});

/** JSON timestamps arrive as epoch seconds (SDK, CLI) or ISO text; to epoch ms. */
export function toMillis(value: number | string | Date | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value * 1000;
  const n = Number(value);
  return Number.isFinite(n) ? n * 1000 : Date.parse(value);
}
