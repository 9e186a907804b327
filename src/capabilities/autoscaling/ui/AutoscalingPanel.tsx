import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import Modal from '@cloudscape-design/components/modal';
import Multiselect, { type MultiselectProps } from '@cloudscape-design/components/multiselect';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useStartOperation } from '@kit/api/queries.js';
import type { Accepted, AutoscalingView, InstanceGroupView } from '@kit/api/types.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { operationPath } from '@kit/lib/format.js';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useInstanceGroups } from '../../instance-groups/ui/index.js';
import { setAutoscaling, useAutoscaling } from './api.js';

const code = (v: string | undefined) => (v ? <Box variant="code">{v}</Box> : '—');

/** Ready / not Ready (with Karpenter's reason) of one Karpenter object. */
function Readiness({ c, nodes, testId }: { c?: AutoscalingView['nodeClass']; nodes?: number; testId: string }) {
  if (!c) return <span data-testid={testId}>—</span>;
  return (
    <span data-testid={testId} data-ready={c.ready}>
      <StatusIndicator type={c.ready ? 'success' : 'pending'}>
        {c.ready
          ? `Ready${nodes !== undefined ? ` (${nodes} node${nodes === 1 ? '' : 's'})` : ''}`
          : c.message || c.reason || 'Not ready'}
      </StatusIndicator>
    </span>
  );
}

function useSetAutoscaling(cluster: string, region: string, onStarted: (a: Accepted) => void) {
  return useStartOperation(
    (body: { enabled: boolean; instanceGroups?: string[] }) => setAutoscaling(cluster, { ...body, region }),
    onStarted,
  );
}

interface ModalProps {
  cluster: string;
  region: string;
  view: AutoscalingView;
  groups: InstanceGroupView[];
  onDismiss(): void;
  onStarted(accepted: Accepted): void;
}

/** Turns managed autoscaling on for the chosen groups (or changes which groups it scales). */
function EnableAutoscalingModal({ cluster, region, view, groups, onDismiss, onStarted }: ModalProps) {
  const [chosen, setChosen] = useState<readonly MultiselectProps.Option[]>(() =>
    view.instanceGroups.map((g) => ({ value: g, label: g })),
  );
  const start = useSetAutoscaling(cluster, region, onStarted);
  // The server refuses these too (422 naming instanceGroups); the modal says why before anyone asks.
  const unusable = (g: InstanceGroupView) =>
    g.capacityType === 'training-plan'
      ? 'on a training plan: reserved capacity is not launched on demand'
      : g.deepHealthChecks
        ? 'runs deep health checks on new nodes: turn them off first'
        : undefined;
  const options: MultiselectProps.Option[] = groups.map((g) => ({
    value: g.name,
    label: g.name,
    description: `${g.instanceType} · ${g.currentCount} / ${g.targetCount} · ${g.capacityType}${unusable(g) ? ` — ${unusable(g)}` : ''}`,
    disabled: !!unusable(g),
  }));
  const names = chosen.map((o) => o.value!).filter(Boolean);
  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={
        view.mode === 'Enable'
          ? `Change the groups autoscaling scales in ${cluster}`
          : `Enable node autoscaling for ${cluster}`
      }
      data-testid="autoscaling-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={names.length === 0}
              loading={start.isPending}
              onClick={() => start.mutate({ enabled: true, instanceGroups: names })}
              data-testid="autoscaling-submit"
            >
              {view.mode === 'Enable' ? 'Update' : 'Enable'}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Alert type="info">{view.scope}</Alert>
        <FormField
          label="Instance groups"
          description="HyperPod-managed Karpenter adds and removes nodes of these groups for pending pods (groups can scale from zero)."
          data-testid="autoscaling-groups"
        >
          <Multiselect
            selectedOptions={chosen}
            onChange={({ detail }) => setChosen(detail.selectedOptions)}
            options={options}
            placeholder="Choose instance groups"
            filteringType="auto"
          />
        </FormField>
        {start.error && (
          <Alert type="error" header="Autoscaling was not changed">
            <ProblemText error={start.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}

function DisableAutoscalingModal({ cluster, region, view, onDismiss, onStarted }: Omit<ModalProps, 'groups'>) {
  const start = useSetAutoscaling(cluster, region, onStarted);
  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={`Disable node autoscaling for ${cluster}`}
      data-testid="autoscaling-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              loading={start.isPending}
              onClick={() => start.mutate({ enabled: false })}
              data-testid="autoscaling-submit"
            >
              Disable
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box>
          {`Karpenter stops adding and removing nodes of ${view.instanceGroups.length ? view.instanceGroups.join(', ') : "the cluster's instance groups"}; their counts change only when you scale them.`}
        </Box>
        {start.error && (
          <Alert type="error" header="Autoscaling was not changed">
            <ProblemText error={start.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}

/**
 * HyperPod-managed node autoscaling (Karpenter run by AWS): what it is set to, which groups it
 * scales and what it does not cover. Changing it is an operation, followed on its own page.
 */
export function AutoscalingPanel({ cluster, region }: { cluster: string; region: string }) {
  const view = useAutoscaling(cluster, region);
  const groups = useInstanceGroups(cluster, region);
  const navigate = useNavigate();
  const [modal, setModal] = useState<'enable' | 'disable' | null>(null);
  const started = (accepted: Accepted) => navigate(operationPath(accepted.operation.id));
  const v = view.data;
  const enabled = v?.mode === 'Enable';
  return (
    <Container
      data-testid="autoscaling-panel"
      header={
        <Header
          variant="h2"
          description="HyperPod-managed Karpenter launches nodes from instance groups for pods that cannot be scheduled, and removes empty ones."
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              <Button
                disabled={!v || !v.continuous}
                onClick={() => setModal('enable')}
                data-testid="autoscaling-enable"
              >
                {enabled ? 'Change groups' : 'Enable'}
              </Button>
              <Button disabled={!enabled} onClick={() => setModal('disable')} data-testid="autoscaling-disable">
                Disable
              </Button>
            </SpaceBetween>
          }
        >
          Node autoscaling
        </Header>
      }
    >
      {view.isLoading ? (
        <StatusIndicator type="loading">Loading</StatusIndicator>
      ) : !v ? (
        <Alert type="error" header="Autoscaling settings could not be read" data-testid="autoscaling-error">
          <ProblemText error={view.error} />
        </Alert>
      ) : (
        <SpaceBetween size="m">
          <KeyValuePairs
            columns={4}
            items={[
              {
                label: 'Mode',
                value: (
                  <span data-testid="autoscaling-mode" data-mode={v.mode}>
                    <StatusIndicator type={enabled ? 'success' : 'stopped'}>
                      {enabled ? 'Enabled' : 'Disabled'}
                    </StatusIndicator>
                  </span>
                ),
              },
              { label: 'Status', value: <span data-testid="autoscaling-status">{v.status ?? '—'}</span> },
              { label: 'Autoscaler', value: v.autoScalerType ?? '—' },
              { label: 'Cluster role', value: code(v.clusterRoleArn) },
              {
                label: 'Managed instance groups',
                value: (
                  <span data-testid="autoscaling-managed-groups">
                    {v.instanceGroups.length ? v.instanceGroups.join(', ') : '—'}
                  </span>
                ),
              },
              { label: 'HyperpodNodeClass', value: <Readiness testId="autoscaling-nodeclass" c={v.nodeClass} /> },
              {
                label: 'NodePool',
                value: <Readiness testId="autoscaling-nodepool" c={v.nodePool} nodes={v.nodePool?.nodes} />,
              },
              ...(v.activeOperation
                ? [
                    {
                      label: 'Changing',
                      value: (
                        <Link href={operationPath(v.activeOperation.id)} data-testid="autoscaling-operation">
                          {v.activeOperation.status}
                        </Link>
                      ),
                    },
                  ]
                : []),
            ]}
          />
          {v.failureMessage && (
            <Alert type="error" header="HyperPod could not run the autoscaler" data-testid="autoscaling-failure">
              {v.failureMessage}
            </Alert>
          )}
          {!v.continuous && (
            <Alert type="warning" header="Not available for this cluster">
              The cluster does not provision nodes continuously (NodeProvisioningMode Continuous), which managed
              autoscaling requires.
            </Alert>
          )}
          <Alert type="info" header="What autoscaling covers" data-testid="autoscaling-scope">
            {v.scope}
          </Alert>
        </SpaceBetween>
      )}
      {modal === 'enable' && v && (
        <EnableAutoscalingModal
          cluster={cluster}
          region={region}
          view={v}
          groups={groups.data ?? []}
          onDismiss={() => setModal(null)}
          onStarted={started}
        />
      )}
      {modal === 'disable' && v && (
        <DisableAutoscalingModal
          cluster={cluster}
          region={region}
          view={v}
          onDismiss={() => setModal(null)}
          onStarted={started}
        />
      )}
    </Container>
  );
}
