import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import RadioGroup from '@cloudscape-design/components/radio-group';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Toggle from '@cloudscape-design/components/toggle';
import { AddInstanceGroupRequestSchema } from '@domain/schemas/instance-groups.js';
import { useStartOperation } from '@kit/api/queries.js';
import type { Accepted, AddInstanceGroupInput } from '@kit/api/types.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useAvailabilityZones, useInstanceTypes, useTrainingPlans } from '../../catalog/ui/index.js';
import { addInstanceGroup, planInstanceGroup } from './api.js';
import { GroupCost } from './GroupCost.js';

/** A request to start from (a group that found no capacity), and the zone and type it must not repeat. */
export interface GroupPrefill {
  name: string;
  /** Absent: the user chooses (a scale's group view does not say its zone). */
  availabilityZone?: string;
  instanceType: string;
  instanceCount: number;
  capacityType?: 'on-demand' | 'spot' | 'training-plan';
  networkInterface?: 'efa' | 'efa-only';
  deepHealthChecks?: boolean;
  /** InsufficientCapacity for this type in this zone: the same pair again is refused in the dialog. */
  noCapacity?: { availabilityZone: string; instanceType: string };
}

interface Props {
  cluster: string;
  region: string;
  existing: string[];
  onDismiss(): void;
  onStarted(accepted: Accepted): void;
  prefill?: GroupPrefill;
}

/**
 * One create fixes capacity type, network interface mode and placement: the modal offers only the
 * zones and types AWS lists, EFA modes only for EFA types and spot only where it exists. The
 * server checks quotas and plans and answers with the fields at fault.
 */
export function AddInstanceGroupModal({ cluster, region, existing, onDismiss, onStarted, prefill }: Props) {
  const [name, setName] = useState(prefill?.name ?? '');
  const [zone, setZone] = useState<string | undefined>(prefill?.availabilityZone);
  const [type, setType] = useState<string | undefined>(prefill?.instanceType);
  const [capacityType, setCapacityType] = useState<'on-demand' | 'spot' | 'training-plan'>(
    prefill?.capacityType === 'spot' ? 'spot' : 'on-demand',
  );
  const [plan, setPlan] = useState<string>();
  const [iface, setIface] = useState<'none' | 'efa' | 'efa-only'>(prefill?.networkInterface ?? 'none');
  const [count, setCount] = useState(String(prefill?.instanceCount ?? 1));
  const [deep, setDeep] = useState(prefill?.deepHealthChecks ?? false);
  const starved = prefill?.noCapacity;
  const sameAsStarved = !!starved && zone === starved.availabilityZone && type === starved.instanceType;
  const idempotencyKey = useMemo(() => `add-group:${cluster}:${Math.random().toString(36).slice(2)}`, [cluster]);
  const zones = useAvailabilityZones(region);
  const types = useInstanceTypes(region, zone);
  const plans = useTrainingPlans(region);
  const info = types.data?.find((t) => t.instanceType === type);

  const body: AddInstanceGroupInput = {
    name,
    availabilityZone: zone ?? '',
    instanceType: type ?? '',
    instanceCount: Number(count),
    capacityType,
    ...(capacityType === 'training-plan' && plan ? { trainingPlanArn: plan } : {}),
    ...(iface !== 'none' ? { networkInterface: iface } : {}),
    deepHealthChecks: deep,
  };
  const parsed = AddInstanceGroupRequestSchema.safeParse(body);
  const fieldError = (field: string) =>
    parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === field)?.message;
  const nameTaken = existing.includes(name);
  const start = useStartOperation(() => addInstanceGroup(cluster, body, idempotencyKey), onStarted);
  // What the group adds per hour (the plan: the add's checks, then the Price List), once the form is complete.
  const cost = useQuery({
    queryKey: ['group-plan', cluster, region, JSON.stringify(body)],
    queryFn: () => planInstanceGroup(cluster, body),
    enabled: parsed.success && !nameTaken,
    staleTime: 60_000,
    retry: false,
  });
  const option = (v: string | undefined, label?: string) => (v ? { value: v, label: label ?? v } : null);

  return (
    <Modal
      visible
      size="large"
      onDismiss={onDismiss}
      header={`Add an instance group to ${cluster}`}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={!parsed.success || nameTaken || sameAsStarved}
              disabledReason={sameAsStarved ? 'Choose another zone or instance type' : undefined}
              loading={start.isPending}
              onClick={() => start.mutate()}
              data-testid="group-submit"
            >
              Add instance group
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        {starved && (
          <Alert type={sameAsStarved ? 'warning' : 'info'} data-testid="group-no-capacity">
            {`HyperPod found no capacity for ${starved.instanceType} in ${starved.availabilityZone}. Choose another Availability Zone or instance type: the same request would wait for the same capacity.`}
          </Alert>
        )}
        <FormField
          label="Name"
          errorText={name && (nameTaken ? 'A group of this name exists' : fieldError('name'))}
          data-testid="group-name"
        >
          <Input value={name} onChange={({ detail }) => setName(detail.value)} />
        </FormField>
        <FormField
          label="Availability Zone"
          description="The group's /20 compute subnet in this zone is reused, or created."
          errorText={sameAsStarved ? `No capacity for ${type} here: choose another zone or type` : undefined}
          data-testid="group-zone"
        >
          <Select
            selectedOption={option(zone)}
            onChange={({ detail }) => {
              setZone(detail.selectedOption.value);
              setType(undefined);
            }}
            options={(zones.data ?? [])
              .filter((z) => z.state === 'available')
              .map((z) => ({ value: z.name, label: z.name, description: z.zoneId }))}
            statusType={zones.isLoading ? 'loading' : 'finished'}
            placeholder="Choose a zone"
          />
        </FormField>
        <FormField
          label="Instance type"
          description="Only the HyperPod types offered in the zone."
          data-testid="group-instance-type"
        >
          <Select
            selectedOption={option(type)}
            onChange={({ detail }) => {
              setType(detail.selectedOption.value);
              setIface('none');
            }}
            options={(types.data ?? []).map((t) => ({
              value: t.instanceType,
              label: t.instanceType,
              description: [
                t.acceleratorCount ? `${t.acceleratorCount}× ${t.acceleratorName}` : undefined,
                t.vcpus ? `${t.vcpus} vCPU` : undefined,
                t.efaSupported ? 'EFA' : undefined,
                t.clusterUsageQuota !== undefined ? `quota ${t.clusterUsageQuota}` : undefined,
              ]
                .filter(Boolean)
                .join(' · '),
            }))}
            disabled={!zone}
            statusType={types.isLoading ? 'loading' : 'finished'}
            filteringType="auto"
            placeholder={zone ? 'Choose a type' : 'Choose a zone first'}
          />
        </FormField>
        <FormField
          label="Capacity type"
          description="Fixed for the group's lifetime."
          data-testid="group-capacity-type"
        >
          <RadioGroup
            value={capacityType}
            onChange={({ detail }) => setCapacityType(detail.value as typeof capacityType)}
            items={[
              { value: 'on-demand', label: 'On-demand' },
              {
                value: 'spot',
                label: 'Spot',
                description: info && !info.spotSupported ? 'Not offered for this type' : 'Interruptible, cheaper',
                disabled: !!info && !info.spotSupported,
              },
              { value: 'training-plan', label: 'Training plan', description: 'Reserved capacity' },
            ]}
          />
        </FormField>
        {capacityType === 'training-plan' && (
          <FormField label="Training plan" errorText={fieldError('trainingPlanArn')}>
            <Select
              selectedOption={option(plan)}
              onChange={({ detail }) => setPlan(detail.selectedOption.value)}
              options={(plans.data ?? [])
                .filter((p) => !type || p.instanceType === type)
                .map((p) => ({
                  value: p.arn,
                  label: p.name,
                  description: `${p.status} · ${p.availableInstanceCount ?? '?'} available`,
                }))}
              placeholder="Choose a plan"
            />
          </FormField>
        )}
        <FormField
          label="Network interface"
          description={
            info?.efaSupported
              ? "EFA for fast collective communication; fixed for the group's lifetime."
              : 'EFA needs an EFA-capable instance type.'
          }
          data-testid="group-network-interface"
        >
          <RadioGroup
            value={iface}
            onChange={({ detail }) => setIface(detail.value as typeof iface)}
            items={[
              { value: 'none', label: 'ENA only' },
              { value: 'efa', label: 'EFA', disabled: !info?.efaSupported },
              { value: 'efa-only', label: 'EFA-only', disabled: !info?.efaSupported },
            ]}
          />
        </FormField>
        <FormField label="Instance count" errorText={fieldError('instanceCount')} data-testid="group-count">
          <Input type="number" value={count} onChange={({ detail }) => setCount(detail.value)} />
        </FormField>
        <Toggle checked={deep} onChange={({ detail }) => setDeep(detail.checked)}>
          Deep health checks on new nodes
        </Toggle>
        {cost.data && <GroupCost cost={cost.data.cost} />}
        {start.error && (
          <Alert type="error" header="The group was not added">
            <ProblemText error={start.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}
