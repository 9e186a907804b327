import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import type { InstanceGroupView, OperationView } from '@kit/api/types.js';
import { operationPath } from '@kit/lib/format.js';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AddInstanceGroupModal, type GroupPrefill } from './AddInstanceGroupModal.js';
import { useInstanceGroups } from './api.js';

/** The operations whose nodes HyperPod could not launch, and what the group asked for. */
const CAPACITY_KINDS = new Set([
  'create-cluster',
  'add-instance-group',
  'scale-instance-group',
  'update-instance-group',
]);

type Input = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

/** The cluster an operation acts on (create-cluster names it `name`, the group kinds `cluster`). */
function clusterOf(op: OperationView): { cluster: string; region: string } | undefined {
  const input = op.input as Input;
  const cluster = op.kind === 'create-cluster' ? str(input.name) : str(input.cluster);
  const region = str(input.region);
  return cluster && region ? { cluster, region } : undefined;
}

/** A free name near `base`: base-2, base-3, … */
const freeName = (base: string, taken: string[]) => {
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) if (!taken.includes(`${base.slice(0, 60)}-${i}`)) return `${base.slice(0, 60)}-${i}`;
};

/**
 * What the failed request asked of HyperPod, as a new group: the add's own request (its half-made group is gone),
 * the create's first group, or the instances a scale could not get, as a group of their own.
 */
export function prefillOf(op: OperationView, groups: InstanceGroupView[]): GroupPrefill | undefined {
  const input = op.input as Input;
  const taken = groups.map((g) => g.name);
  const capacity = (v: unknown) =>
    (v === 'spot' ? 'spot' : v === 'training-plan' ? 'training-plan' : 'on-demand') as GroupPrefill['capacityType'];
  const iface = (v: unknown): Pick<GroupPrefill, 'networkInterface'> =>
    v === 'efa' || v === 'efa-only' ? { networkInterface: v } : {};
  if (op.kind === 'add-instance-group' || op.kind === 'create-cluster') {
    const zone = str(input.availabilityZone);
    const type = str(input.instanceType);
    if (!zone || !type) return undefined;
    return {
      name: freeName(op.kind === 'add-instance-group' ? (str(input.name) ?? 'workers') : 'workers', taken),
      availabilityZone: zone,
      instanceType: type,
      instanceCount: num(input.instanceCount) ?? 1,
      capacityType: capacity(input.capacityType),
      ...iface(input.networkInterface),
      deepHealthChecks: input.deepHealthChecks === true,
      noCapacity: { availabilityZone: zone, instanceType: type },
    };
  }
  const group = groups.find((g) => g.name === str(input.name));
  const wanted = num(input.instanceCount);
  if (!group || wanted === undefined) return undefined;
  // The group view does not say its zone (only its subnets): the user chooses one; the type is the group's.
  return {
    name: freeName(`${group.name}-more`, taken),
    instanceType: group.instanceType,
    instanceCount: Math.max(1, wanted - group.targetCount),
    capacityType: group.capacityType === 'spot' ? 'spot' : 'on-demand',
    ...iface(group.networkInterface),
    deepHealthChecks: group.deepHealthChecks,
  };
}

/**
 * On the page of an operation that failed for want of capacity (InsufficientCapacity): retrying the phase asks
 * for the same type in the same zone again, so this offers the change a person makes instead — the same request as
 * a new instance group in another zone or of another type, prefilled, one click from the add dialog.
 */
export function CapacityRetryPanel({ operation: op }: { operation: OperationView }) {
  const target = clusterOf(op);
  const applies =
    op.status === 'failed' && op.error?.code === 'InsufficientCapacity' && CAPACITY_KINDS.has(op.kind) && !!target;
  const groups = useInstanceGroups(applies ? target!.cluster : '', target?.region ?? '');
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  if (!applies || !groups.data) return null;
  const prefill = prefillOf(op, groups.data);
  if (!prefill) return null;
  return (
    <>
      <Alert
        type="info"
        header={
          prefill.noCapacity
            ? `No capacity for ${prefill.noCapacity.instanceType} in ${prefill.noCapacity.availabilityZone}`
            : `No capacity for ${prefill.instanceType}`
        }
        action={
          <Button onClick={() => setOpen(true)} data-testid="capacity-change-retry">
            Try another zone or type
          </Button>
        }
        data-testid="capacity-retry"
      >
        Retrying waits for the same capacity. Ask for these {prefill.instanceCount} instance(s) as a new instance group
        in another Availability Zone or of another instance type instead; the form starts from this request.
        {op.kind !== 'add-instance-group' ? ' The group that is short keeps its target until you scale it down.' : ''}
      </Alert>
      {open && (
        <AddInstanceGroupModal
          cluster={target!.cluster}
          region={target!.region}
          existing={groups.data.map((g) => g.name)}
          prefill={prefill}
          onDismiss={() => setOpen(false)}
          onStarted={(accepted) => navigate(operationPath(accepted.operation.id))}
        />
      )}
    </>
  );
}
