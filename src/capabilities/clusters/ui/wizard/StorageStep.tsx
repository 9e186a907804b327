import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Toggle from '@cloudscape-design/components/toggle';
import type { StepProps } from './step-props.js';

/** A shared S3 bucket (on by default) and an optional FSx for Lustre file system. */
export function StorageStep({ form, update, errors }: StepProps) {
  return (
    <Container
      header={
        <Header
          variant="h2"
          description="Every pod mounts the same storage by the same claim names (shared-s3 and shared-fsx in the default namespace), so a job written for one cluster runs on any other."
        >
          Shared storage
        </Header>
      }
    >
      <SpaceBetween size="l">
        <FormField
          description="A bucket mounted in pods through the Mountpoint for Amazon S3 CSI driver (a PersistentVolume and a claim in the default namespace)."
          errorText={errors.s3}
        >
          <Toggle checked={form.s3} onChange={(e) => update({ s3: e.detail.checked })} data-testid="wizard-s3">
            S3 bucket
          </Toggle>
        </FormField>
        <FormField
          description="A high-throughput POSIX file system in the compute zone, mounted through the FSx CSI driver."
          errorText={errors.fsx}
        >
          <Toggle checked={form.fsx} onChange={(e) => update({ fsx: e.detail.checked })} data-testid="wizard-fsx">
            FSx for Lustre
          </Toggle>
        </FormField>
        {form.fsx && (
          <FormField
            label="FSx for Lustre capacity (GiB)"
            constraintText="1200, or a multiple of 2400 up to 100800."
            errorText={errors.fsxCapacityGiB}
          >
            <Input
              type="number"
              inputMode="numeric"
              step={2400}
              value={form.fsxCapacityGiB}
              onChange={(e) => update({ fsxCapacityGiB: e.detail.value })}
              data-testid="wizard-fsx-capacity"
            />
          </FormField>
        )}
      </SpaceBetween>
    </Container>
  );
}
