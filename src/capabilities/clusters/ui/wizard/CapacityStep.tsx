import Alert from '@cloudscape-design/components/alert';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Tiles from '@cloudscape-design/components/tiles';
import Toggle from '@cloudscape-design/components/toggle';
import { useInstanceTypes, useTrainingPlans } from '../../../../../web/src/api/queries.js';
import { ProblemText } from '../../../../../web/src/hooks/notifications.js';
import type { WizardForm } from './form.js';
import { instanceTypeOption, planUnusableReason, trainingPlanOption } from './instance-options.js';
import type { StepProps } from './step-props.js';

/** Instance type (offered in the chosen zone), capacity type, training plan, count, deep health checks. */
export function CapacityStep({ form, update, errors }: StepProps) {
  const types = useInstanceTypes(form.region || undefined, form.availabilityZone || undefined);
  const plans = useTrainingPlans(form.region || undefined);

  const chosen = types.data?.find((t) => t.instanceType === form.instanceType);
  const plansForType = (plans.data ?? []).filter((p) => p.instanceType === form.instanceType);
  const usablePlans = plansForType.filter((p) => !planUnusableReason(p, form.availabilityZone));
  const typeOptions = (types.data ?? []).map(instanceTypeOption);

  const chooseType = (instanceType: string) => {
    const t = types.data?.find((x) => x.instanceType === instanceType);
    const patch: Partial<WizardForm> = { instanceType, trainingPlanArn: '' };
    if (form.capacityType === 'spot' && t && !t.spotSupported) patch.capacityType = 'on-demand';
    const planStillFits = plans.data?.some((p) => p.instanceType === instanceType && p.arn === form.trainingPlanArn);
    if (planStillFits) patch.trainingPlanArn = form.trainingPlanArn;
    update(patch);
  };

  return (
    <SpaceBetween size="l">
      <Container header={<Header variant="h2" description={`Types SageMaker HyperPod offers in ${form.availabilityZone || 'the zone'}.`}>Instances</Header>}>
        <SpaceBetween size="l">
          <FormField label="Instance type" errorText={types.error ? <ProblemText error={types.error} /> : errors.instanceType}>
            <Select
              selectedOption={chosen ? instanceTypeOption(chosen) : form.instanceType ? { value: form.instanceType, label: form.instanceType } : null}
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
            constraintText={chosen?.clusterUsageQuota !== undefined ? `1–1000. Account quota for ${chosen.instanceType} cluster usage: ${chosen.clusterUsageQuota}.` : '1–1000.'}
            errorText={errors.instanceCount}
          >
            <Input type="number" inputMode="numeric" value={form.instanceCount} onChange={(e) => update({ instanceCount: e.detail.value })} data-testid="wizard-count" />
          </FormField>
        </SpaceBetween>
      </Container>
      <Container header={<Header variant="h2" description="Fixed for the instance group's lifetime.">Capacity type</Header>}>
        <SpaceBetween size="l">
          <FormField errorText={errors.capacityType}>
            <Tiles
              value={form.capacityType}
              onChange={(e) => update({ capacityType: e.detail.value as WizardForm['capacityType'], ...(e.detail.value !== 'training-plan' ? { trainingPlanArn: '' } : {}) })}
              columns={3}
              data-testid="wizard-capacity-type"
              items={[
                { value: 'on-demand', label: 'On-demand', description: 'Pay by the second; no commitment.' },
                {
                  value: 'spot',
                  label: 'Spot',
                  description: chosen && !chosen.spotSupported ? `${chosen.instanceType} has no spot capacity.` : 'Interruptible spare capacity at a lower price.',
                  disabled: !chosen || !chosen.spotSupported,
                },
                {
                  value: 'training-plan',
                  label: 'Training plan',
                  description: !chosen
                    ? 'Reserved capacity for a time window.'
                    : usablePlans.length > 0
                      ? `${usablePlans.length} usable plan${usablePlans.length > 1 ? 's' : ''} for ${chosen.instanceType}.`
                      : `No usable training plan for ${chosen.instanceType} in ${form.availabilityZone}.`,
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
                selectedOption={plansForType.map((p) => trainingPlanOption(p, form.availabilityZone)).find((o) => o.value === form.trainingPlanArn) ?? null}
                onChange={(e) => update({ trainingPlanArn: e.detail.selectedOption.value ?? '' })}
                options={plansForType.map((p) => trainingPlanOption(p, form.availabilityZone))}
                placeholder="Choose a training plan"
                statusType={plans.isLoading ? 'loading' : 'finished'}
                empty={`No training plans for ${form.instanceType}`}
                data-testid="wizard-training-plan"
              />
            </FormField>
          )}
          {form.capacityType === 'spot' && (
            <Alert type="info">Spot instances can be reclaimed at short notice. Elastic training does not run on spot capacity.</Alert>
          )}
        </SpaceBetween>
      </Container>
      <Container header={<Header variant="h2">Node health</Header>}>
        <FormField description="GPU stress and EFA connectivity tests under load before nodes take work. Adds time to node start; HyperPod's basic health checks and automatic node recovery are always on.">
          <Toggle checked={form.deepHealthChecks} onChange={(e) => update({ deepHealthChecks: e.detail.checked })} data-testid="wizard-deep-health">
            Deep health checks
          </Toggle>
        </FormField>
      </Container>
    </SpaceBetween>
  );
}
