import type { SelectProps } from '@cloudscape-design/components/select';
import type { InstanceTypeView, TrainingPlanView } from '@kit/api/types.js';
import { planDates } from './plan-dates.js';

/** "8 × H100 · 192 vCPU · 2048 GiB" — what a person compares when choosing a type. */
export function describeInstanceType(t: InstanceTypeView): string {
  const parts: string[] = [];
  if (t.acceleratorCount) parts.push(`${t.acceleratorCount} × ${t.acceleratorName ?? 'accelerator'}`);
  if (t.vcpus !== undefined) parts.push(`${t.vcpus} vCPU`);
  if (t.memoryGiB !== undefined) parts.push(`${t.memoryGiB} GiB memory`);
  return parts.join(' · ') || 'No details reported';
}

export function instanceTypeTags(t: InstanceTypeView): string[] {
  const tags: string[] = [];
  tags.push(t.efaSupported ? `EFA${t.maximumEfaInterfaces ? ` × ${t.maximumEfaInterfaces}` : ''}` : 'No EFA');
  if (t.clusterUsageQuota !== undefined) tags.push(`Quota ${t.clusterUsageQuota}`);
  tags.push(t.spotSupported ? 'Spot' : 'No spot');
  return tags;
}

export function instanceTypeOption(t: InstanceTypeView): SelectProps.Option {
  return {
    value: t.instanceType,
    label: t.instanceType,
    description: describeInstanceType(t),
    tags: instanceTypeTags(t),
    // The select's filter also searches these: "H100", "EFA"…
    filteringTags: [t.acceleratorName ?? '', t.efaSupported ? 'EFA' : ''].filter(Boolean),
  };
}

/** Why a plan cannot be used for this zone/type, or undefined when it can. */
export function planUnusableReason(plan: TrainingPlanView, zone: string): string | undefined {
  if (plan.availabilityZone && zone && plan.availabilityZone !== zone) return `reserved in ${plan.availabilityZone}`;
  if (!['Active', 'Scheduled', 'Pending'].includes(plan.status)) return `status ${plan.status}`;
  if (plan.targetResources.length > 0 && !plan.targetResources.includes('hyperpod-cluster'))
    return 'not for HyperPod clusters';
  return undefined;
}

/** A plan as an option of the wizard's select; its dates as plan-dates.ts words them. */
export function trainingPlanOption(plan: TrainingPlanView, zone: string, sandboxTime = false): SelectProps.Option {
  const reason = planUnusableReason(plan, zone);
  const count =
    plan.availableInstanceCount !== undefined
      ? `${plan.availableInstanceCount} of ${plan.totalInstanceCount ?? '?'} instances available`
      : plan.totalInstanceCount !== undefined
        ? `${plan.totalInstanceCount} instances`
        : '';
  const window = planDates(plan, sandboxTime);
  return {
    value: plan.arn,
    label: plan.name,
    description: [count, plan.availabilityZone, window].filter(Boolean).join(' · '),
    tags: [plan.status, ...(reason ? [`Unusable: ${reason}`] : [])],
    disabled: !!reason,
  };
}
