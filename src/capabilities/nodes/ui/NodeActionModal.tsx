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
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ProblemError } from '../../../../web/src/api/client.js';
import { actOnNodes, startDeepHealthCheck } from '../../../../web/src/api/endpoints.js';
import { keys } from '../../../../web/src/api/queries.js';
import type { NodeActionKind, NodeActionResults, NodeView } from '../../../../web/src/api/types.js';
import { ProblemText } from '../../../../web/src/hooks/notifications.js';
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
  reboot: 'HyperPod reboots each instance: it keeps its instance id and its volumes, takes no work while it reboots (a few minutes) and comes back Ready.',
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
  { value: 'InstanceStress', label: 'Instance stress', description: 'GPU/Neuron stress, DCGM diagnostics, EFA loopback on each instance' },
  { value: 'InstanceConnectivity', label: 'Instance connectivity', description: 'NCCL/NCCOM tests across the instances' },
];

/** Turns a refused request for one group into per-node refusals, so a multi-group check reports every node. */
function refusedAll(nodeIds: string[], error: unknown): NodeActionResults['results'] {
  const code = error instanceof ProblemError ? (error.problem.code ?? `HTTP ${error.status}`) : 'Error';
  const message = error instanceof ProblemError ? [error.problem.detail ?? error.problem.title, ...error.fieldMessages].filter(Boolean).join(' ') : String(error);
  return nodeIds.map((nodeId) => ({ nodeId, ok: false, code, message }));
}

async function runDeepHealthChecks(cluster: string, region: string, target: NodeActionTarget, checks: Check[]): Promise<NodeActionResults> {
  if (target.nodes.length === 0) {
    return startDeepHealthCheck(cluster, { region, instanceGroupName: target.group!, checks });
  }
  // StartClusterHealthCheck takes one group per request: one call per group, results merged in the order chosen.
  const byGroup = new Map<string, string[]>();
  for (const n of target.nodes) byGroup.set(n.instanceGroupName, [...(byGroup.get(n.instanceGroupName) ?? []), n.instanceId]);
  if (byGroup.size === 1) {
    const [[group, nodeIds]] = [...byGroup];
    return startDeepHealthCheck(cluster, { region, instanceGroupName: group!, nodeIds: nodeIds!, checks });
  }
  const answers = await Promise.all(
    [...byGroup].map(async ([group, nodeIds]) => {
      try {
        return (await startDeepHealthCheck(cluster, { region, instanceGroupName: group, nodeIds, checks })).results;
      } catch (err) {
        return refusedAll(nodeIds, err);
      }
    }),
  );
  const byId = new Map(answers.flat().map((r) => [r.nodeId, r]));
  const results = target.nodes.map((n) => byId.get(n.instanceId)!);
  const succeeded = results.filter((r) => r.ok).length;
  return {
    action: 'deep-health-check',
    results,
    succeeded,
    failed: results.length - succeeded,
    next: 'The checked nodes take no new work while the checks run (transitional); they end healthy (Passed) or failed (deep-health-check-failed).',
  };
}

export function NodeResultsTable({ results }: { results: NodeActionResults }) {
  return (
    <SpaceBetween size="s">
      <Table
        data-testid="node-results"
        variant="embedded"
        items={results.results}
        trackBy="nodeId"
        wrapLines
        header={<Box variant="h3">{`${results.succeeded} accepted, ${results.failed} refused`}</Box>}
        columnDefinitions={[
          { id: 'node', header: 'Node', cell: (r) => <span data-testid={`node-result-${r.nodeId}`}>{r.nodeId}</span>, isRowHeader: true },
          {
            id: 'outcome',
            header: 'Outcome',
            cell: (r) => (
              <span data-testid={`node-result-status-${r.nodeId}`} data-ok={String(r.ok)}>
                <StatusIndicator type={r.ok ? 'success' : 'error'}>{r.ok ? 'Accepted' : 'Refused'}</StatusIndicator>
              </span>
            ),
          },
          { id: 'code', header: 'Code', cell: (r) => r.code ?? '—' },
          { id: 'message', header: 'Message', cell: (r) => r.message ?? '—' },
        ]}
      />
      <Alert type="info" header="What to watch next">{results.next}</Alert>
    </SpaceBetween>
  );
}

/**
 * Confirms a node action, sends it, then shows HyperPod's answer node by node. Replace and delete
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
    mutationFn: (): Promise<NodeActionResults> => {
      const ids = nodes.map((n) => n.instanceId);
      if (action === 'deep-health-check') return runDeepHealthChecks(cluster, region, target, checks);
      return actOnNodes(cluster, action, ids, region);
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.nodes(cluster, region) }),
  });
  const ready = (!word || typed === word) && (action !== 'deep-health-check' || checks.length > 0);
  const subject = nodes.length > 0 ? `${nodes.length} node${nodes.length === 1 ? '' : 's'}` : `every node of ${target.group}`;
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
              <Button variant="primary" disabled={!ready} loading={run.isPending} onClick={() => run.mutate()} data-testid="node-confirm">
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
                  onChange={({ detail }) => setChecks((now) => (detail.checked ? [...now, c.value] : now.filter((x) => x !== c.value)))}
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
        {done && <NodeResultsTable results={done} />}
      </SpaceBetween>
    </Modal>
  );
}
