import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { WizardForm } from './form.js';
import { PreflightResults, type PreflightState } from './PreflightResults.js';

export interface ReviewStepProps {
  form: WizardForm;
  preflight: PreflightState;
  goTo(step: number): void;
}

function Section({
  title,
  step,
  goTo,
  items,
}: {
  title: string;
  step: number;
  goTo(step: number): void;
  items: { label: string; value: string }[];
}) {
  return (
    <Container
      header={
        <Header variant="h2" actions={<Button onClick={() => goTo(step)}>Edit</Button>}>
          {title}
        </Header>
      }
    >
      <KeyValuePairs columns={3} items={items.map((i) => ({ label: i.label, value: i.value || '—' }))} />
    </Container>
  );
}

export function ReviewStep({ form, preflight, goTo }: ReviewStepProps) {
  const capacity =
    form.capacityType === 'training-plan'
      ? `Training plan (${form.trainingPlanArn.split('/').pop()})`
      : form.capacityType === 'spot'
        ? 'Spot'
        : 'On-demand';
  return (
    <SpaceBetween size="l">
      <PreflightResults preflight={preflight} />
      <Section
        title="Step 1: Placement"
        step={0}
        goTo={goTo}
        items={[
          { label: 'Cluster name', value: form.name },
          { label: 'Region', value: form.region },
          { label: 'Availability Zone', value: form.availabilityZone },
          {
            label: 'Kubernetes version',
            value:
              form.kubernetesVersion ||
              `Default${preflight.result?.kubernetesVersion ? ` (${preflight.result.kubernetesVersion})` : ''}`,
          },
        ]}
      />
      <Section
        title="Step 2: Capacity"
        step={1}
        goTo={goTo}
        items={[
          { label: 'Instance type', value: form.instanceType },
          { label: 'Instance count', value: form.instanceCount },
          { label: 'Capacity type', value: capacity },
          {
            label: 'Network interface',
            value: form.networkInterface === 'none' ? 'ENA only' : form.networkInterface === 'efa' ? 'EFA' : 'EFA-only',
          },
          { label: 'Deep health checks', value: form.deepHealthChecks ? 'On' : 'Off' },
        ]}
      />
      <Section
        title="Step 3: Storage"
        step={2}
        goTo={goTo}
        items={[
          { label: 'S3 bucket', value: form.s3 ? 'Yes (Mountpoint CSI)' : 'No' },
          { label: 'FSx for Lustre', value: form.fsx ? `${form.fsxCapacityGiB} GiB` : 'No' },
        ]}
      />
    </SpaceBetween>
  );
}
