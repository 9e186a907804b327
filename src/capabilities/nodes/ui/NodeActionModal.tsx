import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import { isTerminal, keys } from '@kit/api/queries.js';
import type { Accepted, NodeActionKind, NodeActionResult, NodeOutcome, NodeView } from '@kit/api/types.js';
import { OperationLink } from '@kit/components/OperationLink.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { inFormWords } from '@kit/lib/format.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useOperation } from '../../operations/ui/index.js';
import { actOnNodes, startDeepHealthCheck } from './api.js';
import { EscalationOrder, NodeHealthIndicator } from './health.js';

type Check = 'InstanceStress' | 'InstanceConnectivity';

export interface NodeActionTarget {
  action: NodeActionKind;
  /** The chosen nodes; empty for a deep health check of a whole group. */
  nodes: NodeView[];
  /** Deep health check of every node of this group (when no nodes are chosen). */
  group?: string;
}

interface Props {
  cluster: string;
  region: string;
  target: NodeActionTarget;
  onDismiss(): void;
}

const TITLE: Record<NodeActionKind, string> = {
  reboot: 'Reboot',
  replace: 'Replace',
  delete: 'Delete',
  'deep-health-check': 'Run deep health checks on',
};

/** What each action does, in the words the confirmation shows. */
const WHAT: Record<NodeActionKind, string> = {
  reboot:
    'HyperPod reboots each instance: it keeps its instance id and its volumes, takes no work while it reboots (a few minutes) and comes back Ready.',
  replace:
    'HyperPod terminates each instance and launches a new one in its place under a new instance id. Local data on the root and secondary volumes is lost; pods running on the nodes stop.',
  delete:
    'HyperPod terminates each instance and removes it from its instance group, which shrinks by as many: the capacity is given back and not replaced. Local data is lost; pods running on the nodes stop.',
  'deep-health-check':
    'GPU/Neuron stress, DCGM diagnostics and EFA tests run on the nodes; they take no new work until the checks end (transitional), then show healthy or failed.',
};

/** The word to type for destructive actions (the UI's side of the API's `confirm: true`). */
const CONFIRM_WORD: Partial<Record<NodeActionKind, string>> = { replace: 'replace', delete: 'delete' };

const CHECKS: Array<{ value: Check; label: string; description: string }> = [
  {
    value: 'InstanceStress',
    label: 'Instance stress',
    description: 'GPU/Neuron stress, DCGM diagnostics, EFA loopback on each instance',
  },
  {
    value: 'InstanceConnectivity',
    label: 'Instance connectivity',
    description: 'NCCL/NCCOM tests across the instances',
  },
];

/** One request of the action: the operation it started, or why it was refused (a multi-group check sends one per group). */
type Sent = { group?: string; accepted?: Accepted; error?: unknown };

async function runDeepHealthChecks(
  cluster: string,
  region: string,
  target: NodeActionTarget,
  checks: Check[],
): Promise<Sent[]> {
  if (target.nodes.length === 0) {
    return [
      {
        group: target.group,
        accepted: await startDeepHealthCheck(cluster, { region, instanceGroupName: target.group!, checks }),
      },
    ];
  }
  // StartClusterHealthCheck takes one group per request: one operation per group.
  const byGroup = new Map<string, string[]>();
  for (const n of target.nodes)
    byGroup.set(n.instanceGroupName, [...(byGroup.get(n.instanceGroupName) ?? []), n.instanceId]);
  if (byGroup.size === 1) {
    const [[group, nodeIds]] = [...byGroup];
    return [
      {
        group,
        accepted: await startDeepHealthCheck(cluster, { region, instanceGroupName: group!, nodeIds: nodeIds!, checks }),
      },
    ];
  }
  return Promise.all(
    [...byGroup].map(async ([group, nodeIds]): Promise<Sent> => {
      try {
        return {
          group,
          accepted: await startDeepHealthCheck(cluster, { region, instanceGroupName: group, nodeIds, checks }),
        };
      } catch (error) {
        return { group, error };
      }
    }),
  );
}

const OUTCOME_WORD: Record<NodeOutcome['outcome'], string> = { succeeded: 'Succeeded', failed: 'Failed' };

/** The per-node results of a finished node-action operation. */
export function NodeResultsTable({ result }: { result: NodeActionResult }) {
  return (
    <Table
      data-testid="node-results"
      variant="embedded"
      items={result.results}
      trackBy="nodeId"
      wrapLines
      header={<Box variant="h3">{`${result.succeeded} succeeded, ${result.failed} failed`}</Box>}
      columnDefinitions={[
        {
          id: 'node',
          header: 'Node',
          cell: (r) => <span data-testid={`node-result-${r.nodeId}`}>{r.nodeId}</span>,
          isRowHeader: true,
        },
        {
          id: 'outcome',
          header: 'Outcome',
          cell: (r) => (
            <span data-testid={`node-result-status-${r.nodeId}`} data-outcome={r.outcome}>
              <StatusIndicator type={r.outcome === 'succeeded' ? 'success' : 'error'}>
                {OUTCOME_WORD[r.outcome]}
              </StatusIndicator>
            </span>
          ),
        },
        { id: 'code', header: 'Code', cell: (r) => r.code ?? '—' },
        {
          id: 'message',
          header: 'Why',
          cell: (r) => r.message ?? (r.newInstanceId ? `Replaced by ${r.newInstanceId}` : '—'),
        },
      ]}
    />
  );
}

/** A started node action: a link to its operation page while it runs, then its per-node results. */
function NodeOperation({
  sent,
  accepted,
  cluster,
  region,
}: {
  sent: Sent;
  accepted: Accepted;
  cluster: string;
  region: string;
}) {
  const qc = useQueryClient();
  const view = useOperation(accepted.operation.id).data ?? accepted.operation;
  const ended = isTerminal(view);
  useEffect(() => {
    if (ended) void qc.invalidateQueries({ queryKey: keys.nodes(cluster, region) });
  }, [ended, qc, cluster, region]);
  const result = view.status === 'succeeded' ? (view.result as NodeActionResult | undefined) : undefined;
  return (
    <SpaceBetween size="s">
      <Box data-testid="node-action-operation" data-status={view.status}>
        {sent.group ? `Group ${sent.group}: ` : ''}
        <OperationLink op={view} testId="node-action-operation-link" />
        {!ended &&
          ' — it ends when every node reached the end of the action; you may close this dialog, the operation goes on.'}
      </Box>
      {view.status === 'failed' && view.error && (
        <Alert
          type="error"
          header="The operation failed"
        >{`${view.error.code}: ${inFormWords(view.error.message, undefined)}`}</Alert>
      )}
      {result && <NodeResultsTable result={result} />}
    </SpaceBetween>
  );
}

/**
 * Confirms a node action, starts it (an operation), then follows the operation: a link to its page,
 * and once it ended the result node by node. Replace and delete
 * lose data or capacity, so the user types the action's word first; every action shows the
 * escalation order so that nobody replaces what a reboot would have healed.
 */
export function NodeActionModal({ cluster, region, target, onDismiss }: Props) {
  const qc = useQueryClient();
  const { action, nodes } = target;
  const [typed, setTyped] = useState('');
  const [checks, setChecks] = useState<Check[]>(['InstanceStress', 'InstanceConnectivity']);
  const word = CONFIRM_WORD[action];
  const run = useMutation({
    mutationFn: async (): Promise<Sent[]> => {
      const ids = nodes.map((n) => n.instanceId);
      if (action === 'deep-health-check') return runDeepHealthChecks(cluster, region, target, checks);
      return [{ accepted: await actOnNodes(cluster, action, ids, region) }];
    },
    onSuccess: (sent) => {
      for (const s of sent)
        if (s.accepted) qc.setQueryData(keys.operation(s.accepted.operation.id), s.accepted.operation);
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.nodes(cluster, region) }),
  });
  const ready = (!word || typed === word) && (action !== 'deep-health-check' || checks.length > 0);
  const subject =
    nodes.length > 0 ? `${nodes.length} node${nodes.length === 1 ? '' : 's'}` : `every node of ${target.group}`;
  const done = run.data;

  return (
    <Modal
      visible
      size="large"
      onDismiss={onDismiss}
      header={`${TITLE[action]} ${subject}`}
      data-testid="node-action-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant={done ? 'primary' : 'link'} onClick={onDismiss} data-testid="node-action-close">
              {done ? 'Close' : 'Cancel'}
            </Button>
            {!done && (
              <Button
                variant="primary"
                disabled={!ready}
                loading={run.isPending}
                onClick={() => run.mutate()}
                data-testid="node-confirm"
              >
                {action === 'deep-health-check' ? 'Run checks' : TITLE[action]}
              </Button>
            )}
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <EscalationOrder current={action} />
        <Alert type={word ? 'warning' : 'info'} header={word ? `Why ${action} needs confirmation` : undefined}>
          {WHAT[action]}
        </Alert>
        {nodes.length > 0 && !done && (
          <Table
            variant="embedded"
            items={nodes}
            trackBy="instanceId"
            wrapLines
            data-testid="node-action-nodes"
            columnDefinitions={[
              { id: 'id', header: 'Instance', cell: (n) => n.instanceId, isRowHeader: true },
              { id: 'group', header: 'Group', cell: (n) => n.instanceGroupName },
              { id: 'health', header: 'Health', cell: (n) => <NodeHealthIndicator state={n.health.state} /> },
              { id: 'reason', header: 'Reason', cell: (n) => n.health.reason },
              { id: 'pods', header: 'Pods', cell: (n) => n.podCount },
            ]}
          />
        )}
        {action === 'deep-health-check' && !done && (
          <FormField label="Checks">
            <SpaceBetween size="xxs">
              {CHECKS.map((c) => (
                <Checkbox
                  key={c.value}
                  checked={checks.includes(c.value)}
                  description={c.description}
                  onChange={({ detail }) =>
                    setChecks((now) => (detail.checked ? [...now, c.value] : now.filter((x) => x !== c.value)))
                  }
                  data-testid={`node-dhc-${c.value}`}
                >
                  {c.label}
                </Checkbox>
              ))}
            </SpaceBetween>
          </FormField>
        )}
        {word && !done && (
          <FormField label={`To confirm, type "${word}"`}>
            <Input
              value={typed}
              onChange={({ detail }) => setTyped(detail.value)}
              placeholder={word}
              ariaRequired
              data-testid="node-confirm-input"
              onKeyDown={({ detail }) => {
                if (detail.key === 'Enter' && ready && !run.isPending) run.mutate();
              }}
            />
          </FormField>
        )}
        {run.error && (
          <Alert type="error" header="The request was refused" data-testid="node-action-error">
            <ProblemText error={run.error} />
          </Alert>
        )}
        {done?.map((sent, i) =>
          sent.accepted ? (
            <NodeOperation
              key={sent.accepted.operation.id}
              sent={sent}
              accepted={sent.accepted}
              cluster={cluster}
              region={region}
            />
          ) : (
            <Alert
              key={`refused-${i}`}
              type="error"
              header={`The request${sent.group ? ` for group ${sent.group}` : ''} was refused`}
              data-testid="node-action-error"
            >
              <ProblemText error={sent.error} />
            </Alert>
          ),
        )}
      </SpaceBetween>
    </Modal>
  );
}
