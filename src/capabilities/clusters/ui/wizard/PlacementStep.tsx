import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useAvailabilityZones, useKubernetesVersions, useRegions } from '../../../catalog/ui/index.js';
import type { StepProps } from './step-props.js';

/**
 * Name, Region, Availability Zone and Kubernetes version. Zones come from the cloud (only `available`
 * ones are offered); versions from the server, which knows what EKS offers in the Region and what
 * HyperPod supports (only versions both support are offered).
 */
export function PlacementStep({ form, update, errors }: StepProps) {
  const regions = useRegions();
  const zones = useAvailabilityZones(form.region || undefined);
  const versions = useKubernetesVersions(form.region || undefined);

  const regionOptions: SelectProps.Option[] = (regions.data ?? [])
    .filter((r) => r.optInStatus !== 'not-opted-in')
    .map((r) => ({ value: r.name, label: r.name }));
  if (form.region && !regionOptions.some((o) => o.value === form.region))
    regionOptions.unshift({ value: form.region, label: form.region });
  const validZones = (zones.data ?? []).filter((z) => z.state === 'available');
  const zoneOptions: SelectProps.Option[] = validZones.map((z) => ({
    value: z.name,
    label: z.name,
    description: z.zoneId,
  }));
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
            onChange={(e) =>
              update({
                region: e.detail.selectedOption.value ?? '',
                availabilityZone: '',
                kubernetesVersion: '',
                instanceType: '',
                trainingPlanArn: '',
              })
            }
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
            selectedOption={
              selectedZone ??
              (form.availabilityZone ? { value: form.availabilityZone, label: form.availabilityZone } : null)
            }
            onChange={(e) => {
              const zone = e.detail.selectedOption.value ?? '';
              if (zone !== form.availabilityZone)
                update({ availabilityZone: zone, instanceType: '', trainingPlanArn: '' });
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
        <KubernetesVersionField form={form} update={update} versions={versions} error={errors.kubernetesVersion} />
      </SpaceBetween>
    </Container>
  );
}

function KubernetesVersionField({
  form,
  update,
  versions,
  error,
}: Pick<StepProps, 'form' | 'update'> & {
  versions: ReturnType<typeof useKubernetesVersions>;
  error: string | undefined;
}) {
  const data = versions.data;
  const defaultLabel = data?.defaultVersion ? `Default (${data.defaultVersion})` : 'Default';
  const options: SelectProps.Option[] = [
    {
      value: '',
      label: defaultLabel,
      description: "EKS's default version when HyperPod supports it, else the newest version both support",
    },
    ...(data?.versions ?? [])
      .filter((v) => v.usable)
      .map((v) => ({
        value: v.version,
        label: v.version,
        description: [
          v.eks.status === 'EXTENDED_SUPPORT' ? 'EKS extended support (costs more per hour)' : 'EKS standard support',
          v.eks.isDefault ? 'EKS default' : '',
        ]
          .filter(Boolean)
          .join(' · '),
      })),
  ];
  const selected =
    options.find((o) => o.value === form.kubernetesVersion) ??
    (form.kubernetesVersion ? { value: form.kubernetesVersion, label: form.kubernetesVersion } : options[0]!);
  const notOffered = (data?.versions ?? [])
    .filter((v) => !v.usable)
    .map((v) => `${v.version} (${v.hyperpod ? 'EKS does not offer it here' : 'HyperPod does not support it'})`);
  return (
    <FormField
      label="Kubernetes version"
      description="The EKS control plane's version. Only versions both EKS (in this Region) and SageMaker HyperPod support are offered."
      constraintText={notOffered.length ? `Not offered: ${notOffered.join(', ')}.` : undefined}
      errorText={versions.error ? <ProblemText error={versions.error} /> : error}
    >
      <Select
        selectedOption={selected}
        onChange={(e) => update({ kubernetesVersion: e.detail.selectedOption.value ?? '' })}
        options={options}
        statusType={versions.isLoading ? 'loading' : versions.error ? 'error' : 'finished'}
        loadingText="Loading Kubernetes versions"
        errorText="Could not load the Kubernetes versions"
        data-testid="wizard-kubernetes-version"
      />
    </FormField>
  );
}
