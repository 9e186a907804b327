import Alert from '@cloudscape-design/components/alert';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import Multiselect from '@cloudscape-design/components/multiselect';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import Toggle from '@cloudscape-design/components/toggle';
import type { FeatureId, FeatureState } from '@domain/schemas/features.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { operationPath } from '@kit/lib/format.js';
import { useMemo, useState } from 'react';
import { useInstanceGroups } from '../../instance-groups/ui/index.js';
import { useOperation } from '../../operations/ui/index.js';
import { useFeatures } from './api.js';
import { changeOutcome } from './change-outcome.js';
import { FeaturePlanModal } from './FeaturePlanModal.js';
import { changesToSend, type PendingChange } from './pending-changes.js';

const STATE_LOOK: Record<FeatureState['state'], { type: StatusIndicatorProps.Type; text: string }> = {
  on: { type: 'success', text: 'On' },
  off: { type: 'stopped', text: 'Off' },
  installing: { type: 'in-progress', text: 'Installing' },
  removing: { type: 'in-progress', text: 'Removing' },
  failed: { type: 'error', text: 'Failed' },
  unknown: { type: 'warning', text: 'Unknown' },
};

const isOn = (f: FeatureState) => f.state === 'on' || f.state === 'installing';
const settingsOf = (change: PendingChange | undefined, f: FeatureState): Record<string, unknown> =>
  typeof change === 'object' ? change : isOn(f) ? { ...f.config } : {};

/** The settings a feature takes, edited in place; only what the user types is sent. */
function FeatureSettings(props: {
  cluster: string;
  region: string;
  feature: FeatureState;
  value: Record<string, unknown>;
  onChange(v: Record<string, unknown>): void;
  disabled: boolean;
}) {
  const { feature, value, onChange, disabled } = props;
  const groups = useInstanceGroups(props.cluster, props.region);
  if (feature.id === 'tiered-checkpointing') {
    const pct = value.instanceMemoryAllocationPercentage;
    return (
      <ColumnLayout columns={2}>
        <FormField
          label="Memory for checkpoints (%)"
          description="Share of each node's memory HyperPod keeps for the checkpoint tier: 20–100. Empty: HyperPod's default."
          data-testid="feature-setting-memory"
        >
          <Input
            type="number"
            inputMode="numeric"
            disabled={disabled}
            value={pct === undefined ? '' : String(pct)}
            onChange={({ detail }) =>
              onChange({
                ...value,
                instanceMemoryAllocationPercentage: detail.value === '' ? undefined : Number(detail.value),
              })
            }
          />
        </FormField>
        <FormField
          label="Namespace of training pods"
          description="Its service account instantstart-checkpointing gets the checkpointing role. Empty: default."
          data-testid="feature-setting-namespace"
        >
          <Input
            disabled={disabled}
            value={typeof value.namespace === 'string' ? value.namespace : ''}
            onChange={({ detail }) => onChange({ ...value, namespace: detail.value || undefined })}
          />
        </FormField>
      </ColumnLayout>
    );
  }
  if (feature.id === 'autoscaling') {
    const chosen = Array.isArray(value.instanceGroups) ? (value.instanceGroups as string[]) : [];
    return (
      <FormField
        label="Instance groups Karpenter may scale"
        description="Required to turn autoscaling on."
        data-testid="feature-setting-groups"
      >
        <Multiselect
          disabled={disabled}
          selectedOptions={chosen.map((g) => ({ value: g, label: g }))}
          options={(groups.data ?? []).map((g) => ({
            value: g.name,
            label: g.name,
            description: `${g.instanceType} · ${g.capacityType}`,
          }))}
          onChange={({ detail }) => onChange({ ...value, instanceGroups: detail.selectedOptions.map((o) => o.value!) })}
          placeholder="Choose instance groups"
        />
      </FormField>
    );
  }
  return null;
}

/** Features whose settings the panel edits (the add-ons' only setting, a pinned version, is left to the API). */
const HAS_SETTINGS: ReadonlySet<FeatureId> = new Set(['tiered-checkpointing', 'autoscaling']);

/** The last change the user asked for, as it stands (change-outcome.ts). */
function ChangeOutcome({ id, onDismiss }: { id: string; onDismiss: () => void }) {
  const status = useOperation(id).data?.status;
  const { type, text } = changeOutcome(status);
  return (
    <Alert
      type={type}
      dismissible
      onDismiss={onDismiss}
      data-testid="features-started"
      data-status={status ?? 'pending'}
    >
      {text} <Link href={operationPath(id)}>Its operation</Link>
    </Alert>
  );
}

/**
 * The Advanced Features panel: every managed feature with its actual state (read from AWS and
 * Kubernetes), version and dependencies. Toggles and settings are kept as edits; "Review changes"
 * asks the server for the plan of exactly the edited keys, and Apply sends those keys only.
 */
export function FeaturesPanel({ cluster, region }: { cluster: string; region: string }) {
  const features = useFeatures(cluster, region);
  const [pending, setPending] = useState<ReadonlyMap<FeatureId, PendingChange>>(new Map());
  const [reviewing, setReviewing] = useState(false);
  const [lastOperation, setLastOperation] = useState<string | undefined>();
  const [nothingToDo, setNothingToDo] = useState(false);
  const list = useMemo(() => features.data?.features ?? [], [features.data]);
  const titles = useMemo(() => new Map(list.map((f) => [f.id, f.title])), [list]);
  const changes = useMemo(() => changesToSend(list, pending), [list, pending]);
  const changedCount = Object.keys(changes).length;
  const running = features.data?.runningOperationId;
  const edit = (id: FeatureId, change: PendingChange | undefined) => {
    setNothingToDo(false);
    setPending((prev) => {
      const next = new Map(prev);
      if (change === undefined) next.delete(id);
      else next.set(id, change);
      return next;
    });
  };
  const wantedOn = (f: FeatureState) => {
    const change = pending.get(f.id);
    return change === undefined ? isOn(f) : change !== false;
  };
  const withSettings = list.filter((f) => HAS_SETTINGS.has(f.id) && f.toggleable && wantedOn(f));

  return (
    <Container
      data-testid="features-panel"
      header={
        <Header
          variant="h2"
          counter={changedCount ? `(${changedCount} changed)` : undefined}
          description="HyperPod's managed capabilities and what they stand on. Each state is read from the cluster; a change installs what a feature needs first and refuses to remove what another still needs."
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              <Button
                disabled={pending.size === 0}
                onClick={() => setPending(new Map())}
                data-testid="features-discard"
              >
                Discard changes
              </Button>
              <Button
                variant="primary"
                disabled={changedCount === 0 || !!running}
                onClick={() => setReviewing(true)}
                data-testid="features-review"
              >
                Review changes
              </Button>
            </SpaceBetween>
          }
        >
          Advanced features
        </Header>
      }
    >
      <SpaceBetween size="m">
        {running && (
          <Alert type="info" header="Changing features" data-testid="features-running">
            Each feature's state below follows the change as it runs.{' '}
            <Link href={operationPath(running)}>Follow the operation</Link>
          </Alert>
        )}
        {!running && lastOperation && (
          <ChangeOutcome id={lastOperation} onDismiss={() => setLastOperation(undefined)} />
        )}
        {nothingToDo && (
          <Alert type="info" dismissible onDismiss={() => setNothingToDo(false)} data-testid="features-nothing-to-do">
            The cluster already matched: nothing was changed.
          </Alert>
        )}
        {features.error && !features.data && (
          <Alert type="error" header="The features could not be read" data-testid="features-error">
            <ProblemText error={features.error} />
          </Alert>
        )}
        <Table
          data-testid="features-table"
          variant="embedded"
          wrapLines
          loading={features.isLoading}
          loadingText="Reading the cluster's features"
          items={list}
          trackBy="id"
          empty={<Box textAlign="center">No features could be read.</Box>}
          columnDefinitions={[
            {
              id: 'feature',
              header: 'Feature',
              cell: (f) => (
                <SpaceBetween size="xxxs">
                  <Box fontWeight="bold">{f.title}</Box>
                  <Box variant="small">{f.summary}</Box>
                </SpaceBetween>
              ),
              width: 330,
            },
            {
              id: 'state',
              header: 'State',
              minWidth: 130,
              cell: (f) => (
                <span data-testid={`feature-state-${f.id}`} data-state={f.state}>
                  <StatusIndicator type={STATE_LOOK[f.state].type}>{STATE_LOOK[f.state].text}</StatusIndicator>
                  {f.health && f.state !== 'on' && f.state !== 'off' ? <Box variant="small">{f.health}</Box> : null}
                  {f.providedBy ? (
                    <Box variant="small" data-testid={`feature-provided-by-${f.id}`}>
                      {`Provided by ${f.providedBy}; InstantStart leaves it in charge.`}
                    </Box>
                  ) : null}
                </span>
              ),
            },
            { id: 'version', header: 'Version', minWidth: 150, cell: (f) => f.version ?? '—' },
            {
              id: 'needs',
              header: 'Needs',
              cell: (f) => (f.needs.length ? f.needs.map((n) => titles.get(n) ?? n).join(', ') : '—'),
            },
            {
              id: 'needed-by',
              header: 'Needed by',
              cell: (f) => (f.neededBy.length ? f.neededBy.map((n) => titles.get(n) ?? n).join(', ') : '—'),
            },
            {
              id: 'toggle',
              header: 'On',
              cell: (f) =>
                f.toggleable ? (
                  <SpaceBetween direction="horizontal" size="xs" alignItems="center">
                    <span data-testid={`feature-toggle-${f.id}`}>
                      <Toggle
                        checked={wantedOn(f)}
                        disabled={
                          !!running || f.state === 'installing' || f.state === 'removing' || f.state === 'unknown'
                        }
                        onChange={({ detail }) => edit(f.id, detail.checked === isOn(f) ? undefined : detail.checked)}
                        ariaLabel={`${f.title} on`}
                      />
                    </span>
                    {pending.has(f.id) && Object.hasOwn(changes, f.id) && <Badge color="blue">changed</Badge>}
                  </SpaceBetween>
                ) : (
                  <Box variant="small">part of every cluster</Box>
                ),
            },
          ]}
        />
        {withSettings.map((f) => (
          <Container
            key={f.id}
            header={<Header variant="h3">{`${f.title}: settings`}</Header>}
            data-testid={`feature-settings-${f.id}`}
          >
            <FeatureSettings
              cluster={cluster}
              region={region}
              feature={f}
              disabled={!!running}
              value={settingsOf(pending.get(f.id), f)}
              onChange={(v) => edit(f.id, v)}
            />
          </Container>
        ))}
      </SpaceBetween>
      {reviewing && (
        <FeaturePlanModal
          cluster={cluster}
          region={region}
          changes={changes}
          titles={titles}
          onDismiss={() => setReviewing(false)}
          onApplied={({ operationId }) => {
            setReviewing(false);
            setPending(new Map());
            setLastOperation(operationId);
            setNothingToDo(!operationId);
          }}
        />
      )}
    </Container>
  );
}
