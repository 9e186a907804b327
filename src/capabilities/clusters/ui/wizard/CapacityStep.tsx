import Alert from '@cloudscape-design/components/alert';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Tiles from '@cloudscape-design/components/tiles';
import Toggle from '@cloudscape-design/components/toggle';
import { compareInstanceTypes } from '@domain/instance-type-order.js';
import type { InstanceTypeView } from '@kit/api/types.js';
import { PreflightProblemList } from '@kit/components/PreflightProblemList.js';
import { useSandboxTime } from '@kit/hooks/cloud-clock.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useState } from 'react';
import { useInstanceTypes, useTrainingPlans } from '../../../catalog/ui/index.js';
import type { CapacityCheck } from './capacity-check.js';
import type { WizardForm } from './form.js';
import { instanceTypeOption, planUnusableReason, trainingPlanOption } from './instance-options.js';
import type { StepProps } from './step-props.js';

type TypeFilter = 'all' | 'accelerated' | 'cpu';
const FILTERS: Record<TypeFilter, (t: InstanceTypeView) => boolean> = {
  all: () => true,
  accelerated: (t) => (t.acceleratorCount ?? 0) > 0,
  cpu: (t) => !t.acceleratorCount,
};

/**
 * Instance type (offered in the chosen zone; accelerators first, then family and size, with a filter),
 * capacity type (a disabled choice says why), training plan, count — checked against the quotas here —
 * and deep health checks.
 */
export function CapacityStep({ form, update, errors, check }: StepProps & { check: CapacityCheck }) {
  const [typeFilter, setTypeFilter] = useState<TypeFilter>('all');
  const types = useInstanceTypes(form.region || undefined, form.availabilityZone || undefined);
  const plans = useTrainingPlans(form.region || undefined);
  const sandboxTime = useSandboxTime();

  const chosen = types.data?.find((t) => t.instanceType === form.instanceType);
  const plansForType = (plans.data ?? []).filter((p) => p.instanceType === form.instanceType);
  const usablePlans = plansForType.filter((p) => !planUnusableReason(p, form.availabilityZone));
  const typeOptions = [...(types.data ?? [])]
    .sort(compareInstanceTypes)
    .filter(FILTERS[typeFilter])
    .map(instanceTypeOption);

  const chooseType = (instanceType: string) => {
    const t = types.data?.find((x) => x.instanceType === instanceType);
    const patch: Partial<WizardForm> = { instanceType, trainingPlanArn: '' };
    if (form.capacityType === 'spot' && t && !t.spotSupported) patch.capacityType = 'on-demand';
    if (t && !t.efaSupported) patch.networkInterface = 'none';
    const planStillFits = plans.data?.some((p) => p.instanceType === instanceType && p.arn === form.trainingPlanArn);
    if (planStillFits) patch.trainingPlanArn = form.trainingPlanArn;
    update(patch);
  };

  return (
    <SpaceBetween size="l">
      <Container
        header={
          <Header
            variant="h2"
            description={`Types SageMaker HyperPod offers in ${form.availabilityZone || 'the zone'}.`}
          >
            Instances
          </Header>
        }
      >
        <SpaceBetween size="l">
          <SegmentedControl
            selectedId={typeFilter}
            onChange={(e) => setTypeFilter(e.detail.selectedId as TypeFilter)}
            label="Show instance types"
            options={[
              { id: 'all', text: 'All types' },
              { id: 'accelerated', text: 'GPU and Trainium' },
              { id: 'cpu', text: 'CPU only' },
            ]}
            data-testid="wizard-type-filter"
          />
          <FormField
            label="Instance type"
            description="Accelerated types first, then by family and size."
            errorText={types.error ? <ProblemText error={types.error} /> : errors.instanceType}
          >
            <Select
              selectedOption={
                chosen
                  ? instanceTypeOption(chosen)
                  : form.instanceType
                    ? { value: form.instanceType, label: form.instanceType }
                    : null
              }
              onChange={(e) => chooseType(e.detail.selectedOption.value ?? '')}
              options={typeOptions}
              placeholder="Choose an instance type"
              filteringType="auto"
              filteringPlaceholder="Find a type, accelerator or EFA"
              statusType={types.isLoading ? 'loading' : types.error ? 'error' : 'finished'}
              loadingText="Loading the instance types offered in this zone"
              empty={`No HyperPod instance types are offered in ${form.availabilityZone}`}
              triggerVariant="option"
              data-testid="wizard-instance-type"
            />
          </FormField>
          <FormField
            label="Instance count"
            description="Instances in the first instance group."
            constraintText={
              chosen?.clusterUsageQuota !== undefined
                ? `1–1000. Account quota for ${chosen.instanceType} cluster usage: ${chosen.clusterUsageQuota}.`
                : '1–1000.'
            }
            errorText={errors.instanceCount}
          >
            <Input
              type="number"
              inputMode="numeric"
              value={form.instanceCount}
              onChange={(e) => update({ instanceCount: e.detail.value })}
              data-testid="wizard-count"
            />
          </FormField>
          <CapacityCheckResult check={check} instanceType={form.instanceType} />
        </SpaceBetween>
      </Container>
      <Container
        header={
          <Header variant="h2" description="Fixed for the instance group's lifetime.">
            Capacity type
          </Header>
        }
      >
        <SpaceBetween size="l">
          <FormField errorText={errors.capacityType}>
            <Tiles
              value={form.capacityType}
              onChange={(e) =>
                update({
                  capacityType: e.detail.value as WizardForm['capacityType'],
                  ...(e.detail.value !== 'training-plan' ? { trainingPlanArn: '' } : {}),
                })
              }
              columns={3}
              data-testid="wizard-capacity-type"
              items={[
                { value: 'on-demand', label: 'On-demand', description: 'Pay by the second; no commitment.' },
                {
                  value: 'spot',
                  label: 'Spot',
                  description: !chosen
                    ? 'Not available yet: choose an instance type first.'
                    : !chosen.spotSupported
                      ? `Not available: ${chosen.instanceType} is not offered as spot capacity.`
                      : 'Interruptible spare capacity at a lower price.',
                  disabled: !chosen || !chosen.spotSupported,
                },
                {
                  value: 'training-plan',
                  label: 'Training plan',
                  description: !chosen
                    ? 'Not available yet: choose an instance type first.'
                    : usablePlans.length > 0
                      ? `Reserved capacity: ${usablePlans.length} usable plan${usablePlans.length > 1 ? 's' : ''} for ${chosen.instanceType}.`
                      : `Not available: no usable training plan reserves ${chosen.instanceType} in ${form.availabilityZone}${plansForType.length > 0 ? ` (${plansForType.map((p) => `${p.name}: ${planUnusableReason(p, form.availabilityZone) ?? 'usable'}`).join('; ')})` : ''}.`,
                  disabled: !chosen || (usablePlans.length === 0 && form.capacityType !== 'training-plan'),
                },
              ]}
            />
          </FormField>
          {form.capacityType === 'training-plan' && (
            <FormField
              label="Training plan"
              description={`Plans reserving ${form.instanceType}. A plan reserved in another zone cannot place instances in ${form.availabilityZone}.`}
              errorText={plans.error ? <ProblemText error={plans.error} /> : errors.trainingPlanArn}
            >
              <Select
                selectedOption={
                  plansForType
                    .map((p) => trainingPlanOption(p, form.availabilityZone, sandboxTime))
                    .find((o) => o.value === form.trainingPlanArn) ?? null
                }
                onChange={(e) => update({ trainingPlanArn: e.detail.selectedOption.value ?? '' })}
                options={plansForType.map((p) => trainingPlanOption(p, form.availabilityZone, sandboxTime))}
                placeholder="Choose a training plan"
                statusType={plans.isLoading ? 'loading' : 'finished'}
                empty={`No training plans for ${form.instanceType}`}
                data-testid="wizard-training-plan"
              />
            </FormField>
          )}
          {form.capacityType === 'spot' && (
            <Alert type="info">
              Spot instances can be reclaimed at short notice. Elastic training does not run on spot capacity.
            </Alert>
          )}
        </SpaceBetween>
      </Container>
      <Container
        header={
          <Header variant="h2" description="Fixed for the instance group's lifetime.">
            Network interface
          </Header>
        }
      >
        <FormField
          errorText={errors.networkInterface}
          description={
            !chosen
              ? 'Choose an instance type first.'
              : chosen.efaSupported
                ? `${chosen.instanceType} supports EFA${chosen.maximumEfaInterfaces ? ` (up to ${chosen.maximumEfaInterfaces} interfaces)` : ''}: fast collective communication between nodes for distributed training.`
                : `${chosen.instanceType} does not support EFA.`
          }
        >
          <Tiles
            value={form.networkInterface}
            onChange={(e) => update({ networkInterface: e.detail.value as WizardForm['networkInterface'] })}
            columns={3}
            data-testid="wizard-network-interface"
            items={[
              { value: 'none', label: 'ENA only', description: 'The standard network interface.' },
              { value: 'efa', label: 'EFA', description: 'EFA alongside ENA.', disabled: !chosen?.efaSupported },
              {
                value: 'efa-only',
                label: 'EFA-only',
                description: 'EFA-only interfaces.',
                disabled: !chosen?.efaSupported,
              },
            ]}
          />
        </FormField>
      </Container>
      <Container header={<Header variant="h2">Node health</Header>}>
        <FormField description="GPU stress and EFA connectivity tests under load before nodes take work. Adds time to node start; HyperPod's basic health checks and automatic node recovery are always on.">
          <Toggle
            checked={form.deepHealthChecks}
            onChange={(e) => update({ deepHealthChecks: e.detail.checked })}
            data-testid="wizard-deep-health"
          >
            Deep health checks
          </Toggle>
        </FormField>
      </Container>
    </SpaceBetween>
  );
}

/** The quota check's verdict under the count: checking, enough, or each problem with its fix. */
function CapacityCheckResult({ check, instanceType }: { check: CapacityCheck; instanceType: string }) {
  if (!check.enabled) return null;
  if (check.checking) return <StatusIndicator type="loading">Checking your quotas…</StatusIndicator>;
  if (check.error) {
    return (
      <Alert type="warning" header="The quota check could not run">
        <ProblemText error={check.error} />
      </Alert>
    );
  }
  if (!check.result) return null;
  if (check.result.ok) {
    return (
      <span data-testid="capacity-check-ok">
        <StatusIndicator type="success">{`Your quotas allow this many ${instanceType}.`}</StatusIndicator>
      </span>
    );
  }
  return (
    <Alert type="error" header="This request does not fit your quotas" data-testid="capacity-check-problems">
      <PreflightProblemList problems={check.result.problems} testId="capacity-check-problem" />
    </Alert>
  );
}
