import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import type { NodeActionKind, NodeDetail, NodeView } from '@kit/api/types.js';
import { CloudTime } from '@kit/components/CloudTime.js';
import { useCloudClockNote, useCloudTimeLabel } from '@kit/hooks/cloud-clock.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { DiagnoseNodeButton } from '../../diagnostics/ui/index.js';
import { useNode } from './api.js';
import { EventsTable } from './events/EventsTable.js';
import { EscalationOrder, HEALTH_LABEL, suggestedActionLabel } from './health.js';

interface Props {
  cluster: string;
  region: string;
  instanceId: string;
  onDismiss(): void;
  /** Opens an action for this node (the modal closes first). */
  onAction(action: NodeActionKind, node: NodeView): void;
}

const code = (v: string | undefined) => (v ? <Box variant="code">{v}</Box> : '—');

function Verdict({ node }: { node: NodeView }) {
  const { health } = node;
  const type =
    health.state === 'healthy'
      ? 'success'
      : health.state === 'transitional'
        ? 'info'
        : health.state === 'degraded'
          ? 'warning'
          : 'error';
  return (
    // The alert's own icon says the state: a status indicator in its header would show a second one.
    <Alert
      type={type}
      header={
        <span data-testid="node-detail-health" data-state={health.state}>
          {HEALTH_LABEL[health.state]}
        </span>
      }
    >
      <SpaceBetween size="xxs">
        <Box data-testid="node-detail-reason">{health.reason}</Box>
        <Box variant="small">{`Cause code ${health.code} · next step: ${suggestedActionLabel(health.suggestedAction)}`}</Box>
      </SpaceBetween>
    </Alert>
  );
}

function Facts({ d }: { d: NodeDetail }) {
  const cloudLabel = useCloudTimeLabel();
  const n = d.node;
  const k = n.kubernetes;
  const accel = [
    n.allocatable.gpus ? `${n.allocatable.gpus} GPU` : '',
    n.allocatable.neuronDevices ? `${n.allocatable.neuronDevices} Neuron` : '',
    n.allocatable.efa ? `${n.allocatable.efa} EFA` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <KeyValuePairs
      columns={3}
      items={[
        {
          label: 'SageMaker status',
          value: (
            <span data-testid="node-detail-sagemaker-status">
              {n.instanceStatus.status}
              {n.instanceStatus.message ? ` — ${n.instanceStatus.message}` : ''}
            </span>
          ),
        },
        { label: 'Instance group', value: n.instanceGroupName },
        { label: 'Instance type', value: n.instanceType },
        { label: 'Availability Zone', value: n.availabilityZone ?? '—' },
        { label: 'Private IP', value: code(n.privateIp) },
        { label: cloudLabel('Launched'), value: <CloudTime iso={n.launchTime} /> },
        { label: 'Capacity type', value: n.capacityType ?? '—' },
        { label: 'Logical id', value: code(n.nodeLogicalId) },
        { label: 'Kubernetes node', value: code(n.nodeName) },
        { label: 'Ready', value: k?.ready ?? (k ? 'Not reported' : 'Not in Kubernetes') },
        { label: 'Cordoned', value: k ? (k.unschedulable ? 'Yes' : 'No') : '—' },
        { label: 'Accelerators', value: accel || 'None' },
        { label: 'Health label', value: n.labels.healthStatus ?? '—' },
        { label: 'Deep health check', value: n.labels.deepHealthCheckStatus ?? '—' },
        { label: 'Fault', value: [n.labels.faultType, n.labels.faultReason].filter(Boolean).join(': ') || '—' },
        {
          label: 'Taints',
          value: k?.taints.length
            ? k.taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join(', ')
            : '—',
        },
      ]}
    />
  );
}

function Body({ d }: { d: NodeDetail }) {
  const clockNote = useCloudClockNote();
  const cloudLabel = useCloudTimeLabel();
  const labels = Object.entries(d.labels).sort(([a], [b]) => a.localeCompare(b));
  return (
    <SpaceBetween size="l">
      <Verdict node={d.node} />
      <Facts d={d} />
      <Table
        data-testid="node-detail-conditions"
        variant="embedded"
        items={d.conditions}
        wrapLines
        header={<Header variant="h3">Conditions</Header>}
        columnDefinitions={[
          { id: 'type', header: 'Type', cell: (c) => c.type, isRowHeader: true },
          {
            id: 'status',
            header: 'Status',
            cell: (c) => {
              const good = c.type === 'Ready' ? c.status === 'True' : c.status === 'False';
              return (
                <StatusIndicator type={c.status === 'Unknown' ? 'warning' : good ? 'success' : 'error'}>
                  {c.status}
                </StatusIndicator>
              );
            },
          },
          { id: 'reason', header: 'Reason', cell: (c) => c.reason ?? '—' },
          { id: 'message', header: 'Message', cell: (c) => c.message ?? '—' },
          { id: 'since', header: cloudLabel('Since'), cell: (c) => <CloudTime iso={c.lastTransitionTime} /> },
        ]}
        empty={<Box textAlign="center">Not in Kubernetes: no conditions</Box>}
      />
      <Table
        data-testid="node-detail-pods"
        variant="embedded"
        items={d.pods}
        header={
          <Header variant="h3" counter={`(${d.pods.length})`}>
            Pods
          </Header>
        }
        columnDefinitions={[
          { id: 'ns', header: 'Namespace', cell: (p) => p.namespace },
          { id: 'name', header: 'Name', cell: (p) => p.name, isRowHeader: true },
          { id: 'phase', header: 'Phase', cell: (p) => p.phase },
        ]}
        empty={<Box textAlign="center">No pods on this node</Box>}
      />
      <EventsTable
        data-testid="node-detail-events"
        variant="embedded"
        events={d.events}
        hideSubject
        header={
          <Header
            variant="h3"
            counter={`(${d.events.length})`}
            description={`HyperPod and Kubernetes events of this node, newest first.${clockNote ? ` ${clockNote}` : ''}`}
          >
            Events
          </Header>
        }
        empty={<Box textAlign="center">No recent events for this node</Box>}
      />
      <ExpandableSection headerText={`Kubernetes labels (${labels.length})`} data-testid="node-detail-labels">
        {labels.length === 0 ? (
          <Box>Not in Kubernetes: no labels</Box>
        ) : (
          <ColumnLayout columns={1} variant="text-grid">
            <Box variant="code">
              {labels.map(([key, value]) => (
                <div key={key}>{`${key}=${value}`}</div>
              ))}
            </Box>
          </ColumnLayout>
        )}
      </ExpandableSection>
    </SpaceBetween>
  );
}

/** Everything about one node, read fresh from the server and refreshed every 10 s while open. */
export function NodeDetailModal({ cluster, region, instanceId, onDismiss, onAction }: Props) {
  const detail = useNode(cluster, region, instanceId);
  const node = detail.data?.node;
  return (
    <Modal
      visible
      size="max"
      onDismiss={onDismiss}
      header={`Node ${instanceId}`}
      data-testid="node-detail"
      footer={
        <SpaceBetween size="s">
          <EscalationOrder
            current={node && node.health.suggestedAction !== 'none' ? node.health.suggestedAction : undefined}
          />
          <Box float="right">
            <SpaceBetween direction="horizontal" size="xs">
              <DiagnoseNodeButton cluster={cluster} region={region} node={instanceId} />
              <Button
                disabled={!node}
                onClick={() => node && onAction('reboot', node)}
                data-testid="node-detail-reboot"
              >
                Reboot
              </Button>
              <Button
                disabled={!node}
                onClick={() => node && onAction('replace', node)}
                data-testid="node-detail-replace"
              >
                Replace
              </Button>
              <Button
                disabled={!node}
                onClick={() => node && onAction('deep-health-check', node)}
                data-testid="node-detail-dhc"
              >
                Deep health check
              </Button>
              <Button variant="primary" onClick={onDismiss} data-testid="node-detail-close">
                Close
              </Button>
            </SpaceBetween>
          </Box>
        </SpaceBetween>
      }
    >
      {detail.isLoading ? (
        <Spinner size="large" />
      ) : detail.data ? (
        <Body d={detail.data} />
      ) : (
        <Alert type="error" header={`Node ${instanceId} could not be read`} data-testid="node-detail-error">
          <ProblemText error={detail.error} />
        </Alert>
      )}
    </Modal>
  );
}
