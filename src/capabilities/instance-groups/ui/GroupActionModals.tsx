import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useStartOperation } from '@kit/api/queries.js';
import type { Accepted, InstanceGroupView } from '@kit/api/types.js';
import { PreflightProblemList } from '@kit/components/PreflightProblemList.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useDebounced } from '@kit/hooks/use-debounced.js';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { checkScaleInstanceGroup, deleteInstanceGroup, scaleInstanceGroup } from './api.js';
import { GroupCost } from './GroupCost.js';

interface GroupModalProps {
  cluster: string;
  region: string;
  group: InstanceGroupView;
  onDismiss(): void;
  onStarted(accepted: Accepted): void;
}

/**
 * Sends only the new count, and only when it differs (the diff contract). A growth is checked first by
 * the server's scale preflight (the create's quota and training-plan checks): Scale stays disabled
 * while it reports problems, which are shown with their fix.
 */
export function ScaleInstanceGroupModal({ cluster, region, group, onDismiss, onStarted }: GroupModalProps) {
  const [count, setCount] = useState(String(group.targetCount));
  const n = Number(count);
  const valid = count.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= 1000;
  const changed = valid && n !== group.targetCount;
  const grows = changed && n > group.targetCount;
  // A lower count terminates nodes: the user says yes first, and that yes is the API's confirm.
  const shrinking = changed && n < group.targetCount;
  const [confirmed, setConfirmed] = useState(false);
  const settled = useDebounced(n);
  const check = useQuery({
    queryKey: ['scale-preflight', region, cluster, group.name, settled],
    queryFn: () => checkScaleInstanceGroup(cluster, group.name, settled, region),
    // A growth is checked against the quotas; any change is priced (what it adds or saves per hour).
    enabled: changed && settled === n,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const checking = grows && (settled !== n || check.isFetching);
  const refused = grows && !checking && check.data !== undefined && !check.data.ok;
  const start = useStartOperation(
    () => scaleInstanceGroup(cluster, group.name, n, region, shrinking && confirmed),
    onStarted,
  );
  const disabledReason = !changed
    ? 'Enter a count other than the current target'
    : checking
      ? 'Checking quotas'
      : refused
        ? 'The new count does not fit: see the problems'
        : shrinking && !confirmed
          ? 'Confirm that nodes are terminated'
          : undefined;
  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={`Scale ${group.name}`}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={disabledReason !== undefined}
              disabledReason={disabledReason}
              loading={start.isPending}
              onClick={() => start.mutate()}
              data-testid="scale-submit"
            >
              Scale
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box>{`${group.currentCount} running of ${group.targetCount} requested × ${group.instanceType} (${group.capacityType}).`}</Box>
        <FormField
          label="Instance count"
          errorText={valid ? undefined : 'A whole number from 0 to 1000'}
          description="0 keeps the group with no nodes. A larger count is checked against your quotas first."
        >
          <Input
            type="number"
            value={count}
            onChange={({ detail }) => setCount(detail.value)}
            data-testid="scale-count"
          />
        </FormField>
        {checking && (
          <StatusIndicator type="loading">
            Checking quotas for {n - group.targetCount} more instance(s)…
          </StatusIndicator>
        )}
        {grows && !checking && check.data?.ok && (
          <span data-testid="scale-check-ok">
            <StatusIndicator type="success">{`Quotas allow ${check.data.adds} more ${group.instanceType}.`}</StatusIndicator>
          </span>
        )}
        {refused && check.data && (
          <Alert type="error" header={`${group.name} cannot grow to ${n}`} data-testid="scale-check-problems">
            <PreflightProblemList problems={check.data.problems} testId="scale-check-problem" />
          </Alert>
        )}
        {grows && check.error ? (
          <Alert type="warning" header="The quota check could not run">
            <ProblemText error={check.error} />
          </Alert>
        ) : null}
        {changed && settled === n && check.data?.costChange && (
          <GroupCost cost={check.data.costChange} testId="scale-cost" />
        )}
        {shrinking && (
          <Checkbox
            checked={confirmed}
            onChange={({ detail }) => setConfirmed(detail.checked)}
            data-testid="scale-confirm-shrink"
          >
            {`Terminate ${group.targetCount - n} node(s) of ${group.name}; jobs running on them stop.`}
          </Checkbox>
        )}
        {start.error && (
          <Alert type="error">
            <ProblemText error={start.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}

/** Terminates the group's nodes, so the user types its name first (the API's confirm=true). */
export function DeleteInstanceGroupModal({ cluster, region, group, onDismiss, onStarted }: GroupModalProps) {
  const [typed, setTyped] = useState('');
  const start = useStartOperation(() => deleteInstanceGroup(cluster, group.name, region), onStarted);
  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={`Delete instance group ${group.name}`}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={typed !== group.name}
              loading={start.isPending}
              onClick={() => start.mutate()}
              data-testid="group-delete-confirm"
            >
              Delete
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Alert type="warning">{`Its ${group.currentCount} node(s) are terminated; jobs running on them stop.`}</Alert>
        <FormField label={`Type ${group.name} to confirm`}>
          <Input
            value={typed}
            onChange={({ detail }) => setTyped(detail.value)}
            data-testid="group-delete-confirm-input"
          />
        </FormField>
        {start.error && (
          <Alert type="error">
            <ProblemText error={start.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}
