import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useAvailabilityZones, useRegions } from '../../../../../web/src/api/queries.js';
import { ProblemText } from '../../../../../web/src/hooks/notifications.js';
import type { StepProps } from './step-props.js';

/** Name, Region and Availability Zone. Zones come from the cloud (only `available` ones are offered). */
export function PlacementStep({ form, update, errors }: StepProps) {
  const regions = useRegions();
  const zones = useAvailabilityZones(form.region || undefined);

  const regionOptions: SelectProps.Option[] = (regions.data ?? [])
    .filter((r) => r.optInStatus !== 'not-opted-in')
    .map((r) => ({ value: r.name, label: r.name }));
  if (form.region && !regionOptions.some((o) => o.value === form.region)) regionOptions.unshift({ value: form.region, label: form.region });
  const validZones = (zones.data ?? []).filter((z) => z.state === 'available');
  const zoneOptions: SelectProps.Option[] = validZones.map((z) => ({ value: z.name, label: z.name, description: z.zoneId }));
  const selectedZone = zoneOptions.find((o) => o.value === form.availabilityZone) ?? null;

  return (
    <Container header={<Header variant="h2">Name and placement</Header>}>
      <SpaceBetween size="l">
        <FormField
          label="Cluster name"
          description="Names the HyperPod cluster; the EKS cluster, IAM roles and S3 bucket derive from it."
          constraintText="1–32 characters: lower-case letters, digits and hyphens; starts with a letter."
          errorText={errors.name}
        >
          <Input
            value={form.name}
            onChange={(e) => update({ name: e.detail.value })}
            placeholder="my-cluster"
            autoFocus
            data-testid="wizard-name"
          />
        </FormField>
        <FormField label="Region" errorText={regions.error ? <ProblemText error={regions.error} /> : errors.region}>
          <Select
            selectedOption={form.region ? { value: form.region, label: form.region } : null}
            onChange={(e) => update({ region: e.detail.selectedOption.value ?? '', availabilityZone: '', instanceType: '', trainingPlanArn: '' })}
            options={regionOptions}
            statusType={regions.isLoading ? 'loading' : 'finished'}
            loadingText="Loading Regions"
            filteringType="auto"
            data-testid="wizard-region"
          />
        </FormField>
        <FormField
          label="Availability Zone"
          description="The compute subnet (/20) and the instances go in this zone. Only zones that are available in the Region are listed."
          errorText={zones.error ? <ProblemText error={zones.error} /> : errors.availabilityZone}
        >
          <Select
            selectedOption={selectedZone ?? (form.availabilityZone ? { value: form.availabilityZone, label: form.availabilityZone } : null)}
            onChange={(e) => {
              const zone = e.detail.selectedOption.value ?? '';
              if (zone !== form.availabilityZone) update({ availabilityZone: zone, instanceType: '', trainingPlanArn: '' });
            }}
            options={zoneOptions}
            placeholder="Choose a zone"
            statusType={zones.isLoading ? 'loading' : zones.error ? 'error' : 'finished'}
            loadingText="Loading Availability Zones"
            errorText="Could not load the zones"
            empty="No available zones in this Region"
            data-testid="wizard-zone"
          />
        </FormField>
      </SpaceBetween>
    </Container>
  );
}
