import type {
  ClusterInstanceGroupSpecification,
  ClusterInstanceStorageConfig,
  ClusterInstanceType,
} from '@aws-sdk/client-sagemaker';
import type { HyperPodGroupSpecification } from '../ports.js';

/**
 * An instance group as CreateCluster and UpdateCluster take it, from the port's specification: member
 * by member (absent ones stay unset). Two members are passed as they are rather than checked against
 * the SDK's lists: the instance type, because the product offers the types AWS says exist (the
 * catalog), never a list of its own, and SageMaker judges it; and the extra volumes, which the product
 * never builds, only restates from DescribeCluster.
 */
export function sagemakerGroupSpec(g: HyperPodGroupSpecification): ClusterInstanceGroupSpecification {
  return {
    InstanceCount: g.InstanceCount,
    MinInstanceCount: g.MinInstanceCount,
    InstanceGroupName: g.InstanceGroupName,
    InstanceType: g.InstanceType as ClusterInstanceType | undefined,
    LifeCycleConfig: g.LifeCycleConfig,
    ExecutionRole: g.ExecutionRole,
    ThreadsPerCore: g.ThreadsPerCore,
    InstanceStorageConfigs: g.InstanceStorageConfigs as ClusterInstanceStorageConfig[] | undefined,
    OnStartDeepHealthChecks: g.OnStartDeepHealthChecks,
    TrainingPlanArn: g.TrainingPlanArn,
    OverrideVpcConfig: g.OverrideVpcConfig,
    ScheduledUpdateConfig: g.ScheduledUpdateConfig,
    AutoPatchConfig: g.AutoPatchConfig,
    KubernetesConfig: g.KubernetesConfig,
    CapacityRequirements: g.CapacityRequirements,
    NetworkInterface: g.NetworkInterface,
  };
}
