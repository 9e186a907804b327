import type { HyperPodGroupDetails, HyperPodGroupSpecification } from '../cloud/ports.js';
import type { InstanceGroupChanges, InstanceGroupSpec, TaintEffect } from '../domain/instance-groups.js';

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
): HyperPodGroupSpecification {
  return {
    InstanceGroupName: d.name,
    InstanceType: d.instanceType as HyperPodGroupSpecification['InstanceType'],
    InstanceCount: d.instanceCount,
    ...(d.minInstanceCount !== undefined ? { MinInstanceCount: d.minInstanceCount } : {}),
    ExecutionRole: executionRoleArn,
    ...(d.deepHealthChecks ? { OnStartDeepHealthChecks: ['InstanceStress', 'InstanceConnectivity'] } : {}),
    ...(d.capacityType === 'training-plan' ? { TrainingPlanArn: d.trainingPlanArn } : {}),
    ...(d.capacityType === 'spot'
      ? { CapacityRequirements: { Spot: {} } }
      : d.capacityType === 'on-demand'
        ? { CapacityRequirements: { OnDemand: {} } }
        : {}),
    ...(d.networkInterface ? { NetworkInterface: { InterfaceType: d.networkInterface } } : {}),
    ...(d.threadsPerCore ? { ThreadsPerCore: d.threadsPerCore } : {}),
    ...(d.lifecycleConfig
      ? {
          LifeCycleConfig: {
            SourceS3Uri: d.lifecycleConfig.sourceS3Uri,
            OnCreate: d.lifecycleConfig.onCreate,
            ...(d.lifecycleConfig.onInitComplete ? { OnInitComplete: d.lifecycleConfig.onInitComplete } : {}),
          },
        }
      : {}),
    ...(d.labels || d.taints
      ? {
          KubernetesConfig: {
            ...(d.labels ? { Labels: d.labels } : {}),
            ...(d.taints ? { Taints: d.taints.map((t) => ({ Key: t.key, Value: t.value, Effect: t.effect })) } : {}),
          },
        }
      : {}),
    ...(placement
      ? { OverrideVpcConfig: { Subnets: [placement.subnetId], SecurityGroupIds: [placement.securityGroupId] } }
      : {}),
  };
}

/**
 * The specification that keeps a group exactly as HyperPod describes it, with `changes` applied.
 * UpdateCluster takes whole group specifications, so a change of one field must restate the rest
 * as they are — never as we remember them.
 */
export function specFromDetails(
  details: HyperPodGroupDetails,
  changes: Partial<HyperPodGroupSpecification> = {},
): HyperPodGroupSpecification {
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
    ...(details.AutoPatchConfig?.PatchingStrategy
      ? {
          AutoPatchConfig: {
            PatchingStrategy: details.AutoPatchConfig.PatchingStrategy,
            ...(details.AutoPatchConfig.DesiredPatchSchedule?.NextPatchDate
              ? { PatchSchedule: { NextPatchDate: details.AutoPatchConfig.DesiredPatchSchedule.NextPatchDate } }
              : {}),
          },
        }
      : {}),
    ...(k?.DesiredLabels || k?.DesiredTaints || k?.CurrentLabels || k?.CurrentTaints
      ? { KubernetesConfig: { Labels: k.DesiredLabels ?? k.CurrentLabels, Taints: k.DesiredTaints ?? k.CurrentTaints } }
      : {}),
    ...changes,
  };
}

const iso = (d: Date | string | undefined) => (d === undefined ? undefined : new Date(d).toISOString());

/**
 * The group in our terms, as HyperPod describes it: what a change request is diffed against
 * (diffInstanceGroup). Desired Kubernetes labels and taints win over current ones, because a change
 * already asked for is what the user sees as the group's setting.
 */
export function groupSpecOf(d: HyperPodGroupDetails): InstanceGroupSpec {
  const k = d.KubernetesConfig;
  const iface = (d as { NetworkInterface?: { InterfaceType?: 'efa' | 'efa-only' } }).NetworkInterface?.InterfaceType;
  const schedule = d.ScheduledUpdateConfig;
  const batch = schedule?.DeploymentConfig?.RollingUpdatePolicy?.MaximumBatchSize;
  return {
    name: d.InstanceGroupName!,
    instanceType: d.InstanceType ?? 'unknown',
    capacityType: d.TrainingPlanArn ? 'training-plan' : d.CapacityRequirements?.Spot ? 'spot' : 'on-demand',
    ...(d.TrainingPlanArn ? { trainingPlanArn: d.TrainingPlanArn } : {}),
    ...(iface ? { networkInterface: iface } : {}),
    ...(d.ThreadsPerCore === 1 || d.ThreadsPerCore === 2 ? { threadsPerCore: d.ThreadsPerCore } : {}),
    ...(d.ExecutionRole ? { executionRole: d.ExecutionRole } : {}),
    ...(d.OverrideVpcConfig
      ? {
          overrideVpcConfig: {
            subnetIds: d.OverrideVpcConfig.Subnets ?? [],
            securityGroupIds: d.OverrideVpcConfig.SecurityGroupIds ?? [],
          },
        }
      : {}),
    instanceCount: d.TargetCount ?? d.CurrentCount ?? 0,
    ...(d.MinCount !== undefined ? { minInstanceCount: d.MinCount } : {}),
    labels: k?.DesiredLabels ?? k?.CurrentLabels ?? {},
    taints: (k?.DesiredTaints ?? k?.CurrentTaints ?? []).map((t) => ({
      key: t.Key!,
      ...(t.Value ? { value: t.Value } : {}),
      effect: t.Effect as TaintEffect,
    })),
    deepHealthChecks: (d.OnStartDeepHealthChecks?.length ?? 0) > 0,
    ...(d.LifeCycleConfig?.SourceS3Uri
      ? {
          lifecycleConfig: {
            sourceS3Uri: d.LifeCycleConfig.SourceS3Uri,
            onCreate: d.LifeCycleConfig.OnCreate!,
            ...(d.LifeCycleConfig.OnInitComplete ? { onInitComplete: d.LifeCycleConfig.OnInitComplete } : {}),
          },
        }
      : {}),
    scheduledUpdate: schedule?.ScheduleExpression
      ? {
          scheduleExpression: schedule.ScheduleExpression,
          ...(schedule.DeploymentConfig?.WaitIntervalInSeconds !== undefined
            ? { waitIntervalSeconds: schedule.DeploymentConfig.WaitIntervalInSeconds }
            : {}),
          ...(batch?.Type && batch.Value !== undefined ? { maxBatch: { type: batch.Type, value: batch.Value } } : {}),
        }
      : null,
    autoPatch: d.AutoPatchConfig?.PatchingStrategy
      ? {
          patchingStrategy: d.AutoPatchConfig.PatchingStrategy,
          ...(d.AutoPatchConfig.DesiredPatchSchedule?.NextPatchDate
            ? { nextPatchDate: iso(d.AutoPatchConfig.DesiredPatchSchedule.NextPatchDate) }
            : {}),
        }
      : null,
  };
}

/**
 * UpdateCluster's specification of the group: everything restated as HyperPod describes it, with
 * only `changes` applied (null settings and deepHealthChecks: false remove their block).
 */
export function specWithChanges(d: HyperPodGroupDetails, changes: InstanceGroupChanges): HyperPodGroupSpecification {
  const spec: HyperPodGroupSpecification = specFromDetails(d);
  if (changes.instanceCount !== undefined) spec.InstanceCount = changes.instanceCount;
  if (changes.minInstanceCount !== undefined) spec.MinInstanceCount = changes.minInstanceCount;
  if (changes.labels !== undefined || changes.taints !== undefined) {
    const now = groupSpecOf(d);
    const taints = changes.taints ?? now.taints ?? [];
    spec.KubernetesConfig = {
      Labels: changes.labels ?? now.labels ?? {},
      Taints: taints.map((t) => ({ Key: t.key, ...(t.value ? { Value: t.value } : {}), Effect: t.effect })),
    };
  }
  if (changes.deepHealthChecks === true) spec.OnStartDeepHealthChecks = ['InstanceStress', 'InstanceConnectivity'];
  if (changes.deepHealthChecks === false) delete spec.OnStartDeepHealthChecks;
  if (changes.lifecycleConfig) {
    const l = changes.lifecycleConfig;
    spec.LifeCycleConfig = {
      SourceS3Uri: l.sourceS3Uri,
      OnCreate: l.onCreate,
      ...(l.onInitComplete ? { OnInitComplete: l.onInitComplete } : {}),
    };
  }
  if (changes.scheduledUpdate === null) delete spec.ScheduledUpdateConfig;
  else if (changes.scheduledUpdate) {
    const u = changes.scheduledUpdate;
    spec.ScheduledUpdateConfig = {
      ScheduleExpression: u.scheduleExpression,
      ...(u.waitIntervalSeconds !== undefined || u.maxBatch
        ? {
            DeploymentConfig: {
              ...(u.waitIntervalSeconds !== undefined ? { WaitIntervalInSeconds: u.waitIntervalSeconds } : {}),
              ...(u.maxBatch
                ? { RollingUpdatePolicy: { MaximumBatchSize: { Type: u.maxBatch.type, Value: u.maxBatch.value } } }
                : {}),
            },
          }
        : {}),
    };
  }
  if (changes.autoPatch === null) delete spec.AutoPatchConfig;
  else if (changes.autoPatch) {
    spec.AutoPatchConfig = {
      PatchingStrategy: changes.autoPatch.patchingStrategy,
      ...(changes.autoPatch.nextPatchDate
        ? { PatchSchedule: { NextPatchDate: new Date(changes.autoPatch.nextPatchDate) } }
        : {}),
    };
  }
  return spec;
}
