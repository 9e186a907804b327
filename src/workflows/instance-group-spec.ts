import type { ClusterInstanceGroupDetails, ClusterInstanceGroupSpecification } from '@aws-sdk/client-sagemaker';

/** The decisions that make one HyperPod instance group; every capacity path builds its spec here. */
export interface InstanceGroupDecisions {
  name: string;
  instanceType: string;
  instanceCount: number;
  minInstanceCount?: number;
  capacityType: 'on-demand' | 'spot' | 'training-plan';
  trainingPlanArn?: string;
  /** EFA alongside ENA, or EFA-only interfaces (EFA-capable types only; fixed for the group's lifetime). */
  networkInterface?: 'efa' | 'efa-only';
  deepHealthChecks?: boolean;
  threadsPerCore?: number;
  lifecycleConfig?: { sourceS3Uri: string; onCreate: string; onInitComplete?: string };
  labels?: Record<string, string>;
  taints?: Array<{ key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }>;
}

/**
 * The SageMaker specification of a group. `placement` pins the group to the /20 compute subnet the
 * capacity-placement function chose (OverrideVpcConfig), which is how a group lands in its zone.
 */
export function instanceGroupSpec(
  d: InstanceGroupDecisions,
  executionRoleArn: string,
  placement?: { subnetId: string; securityGroupId: string },
): ClusterInstanceGroupSpecification {
  return {
    InstanceGroupName: d.name,
    InstanceType: d.instanceType as ClusterInstanceGroupSpecification['InstanceType'],
    InstanceCount: d.instanceCount,
    ...(d.minInstanceCount !== undefined ? { MinInstanceCount: d.minInstanceCount } : {}),
    ExecutionRole: executionRoleArn,
    ...(d.deepHealthChecks ? { OnStartDeepHealthChecks: ['InstanceStress', 'InstanceConnectivity'] } : {}),
    ...(d.capacityType === 'training-plan' ? { TrainingPlanArn: d.trainingPlanArn } : {}),
    ...(d.capacityType === 'spot' ? { CapacityRequirements: { Spot: {} } } : d.capacityType === 'on-demand' ? { CapacityRequirements: { OnDemand: {} } } : {}),
    ...(d.networkInterface ? { NetworkInterface: { InterfaceType: d.networkInterface } } : {}),
    ...(d.threadsPerCore ? { ThreadsPerCore: d.threadsPerCore } : {}),
    ...(d.lifecycleConfig
      ? { LifeCycleConfig: { SourceS3Uri: d.lifecycleConfig.sourceS3Uri, OnCreate: d.lifecycleConfig.onCreate, ...(d.lifecycleConfig.onInitComplete ? { OnInitComplete: d.lifecycleConfig.onInitComplete } : {}) } }
      : {}),
    ...(d.labels || d.taints
      ? {
          KubernetesConfig: {
            ...(d.labels ? { Labels: d.labels } : {}),
            ...(d.taints ? { Taints: d.taints.map((t) => ({ Key: t.key, Value: t.value, Effect: t.effect })) } : {}),
          },
        }
      : {}),
    ...(placement ? { OverrideVpcConfig: { Subnets: [placement.subnetId], SecurityGroupIds: [placement.securityGroupId] } } : {}),
  };
}

/**
 * The specification that keeps a group exactly as HyperPod describes it, with `changes` applied.
 * UpdateCluster takes whole group specifications, so a change of one field must restate the rest
 * as they are — never as we remember them.
 */
export function specFromDetails(details: ClusterInstanceGroupDetails, changes: Partial<ClusterInstanceGroupSpecification> = {}): ClusterInstanceGroupSpecification {
  const k = details.KubernetesConfig;
  return {
    InstanceGroupName: details.InstanceGroupName!,
    InstanceType: details.InstanceType,
    InstanceCount: details.TargetCount ?? details.CurrentCount ?? 0,
    ...(details.MinCount !== undefined ? { MinInstanceCount: details.MinCount } : {}),
    ExecutionRole: details.ExecutionRole!,
    ...(details.LifeCycleConfig ? { LifeCycleConfig: details.LifeCycleConfig } : {}),
    ...(details.ThreadsPerCore ? { ThreadsPerCore: details.ThreadsPerCore } : {}),
    ...(details.InstanceStorageConfigs?.length ? { InstanceStorageConfigs: details.InstanceStorageConfigs } : {}),
    ...(details.OnStartDeepHealthChecks?.length ? { OnStartDeepHealthChecks: details.OnStartDeepHealthChecks } : {}),
    ...(details.TrainingPlanArn ? { TrainingPlanArn: details.TrainingPlanArn } : {}),
    ...(details.OverrideVpcConfig ? { OverrideVpcConfig: details.OverrideVpcConfig } : {}),
    ...(details.ScheduledUpdateConfig ? { ScheduledUpdateConfig: details.ScheduledUpdateConfig } : {}),
    ...(details.CapacityRequirements ? { CapacityRequirements: details.CapacityRequirements } : {}),
    ...(k?.DesiredLabels || k?.DesiredTaints || k?.CurrentLabels || k?.CurrentTaints
      ? { KubernetesConfig: { Labels: k.DesiredLabels ?? k.CurrentLabels, Taints: k.DesiredTaints ?? k.CurrentTaints } }
      : {}),
    ...changes,
  };
}
