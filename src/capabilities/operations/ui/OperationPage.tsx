import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Table from '@cloudscape-design/components/table';
import { fieldLabel } from '@domain/field-labels.js';
import { operationKindLabel } from '@domain/naming.js';
import { isTerminal, keys } from '@kit/api/queries.js';
import type { OperationView } from '@kit/api/types.js';
import { useOperationPanels } from '@kit/capability.js';
import { OperationStatusIndicator } from '@kit/components/status.js';
import { ProblemText, useNotifications } from '@kit/hooks/notifications.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { useNow } from '@kit/hooks/use-now.js';
import {
  clusterPath,
  formatDuration,
  formatTime,
  inFormWords,
  parseClusterTarget,
  targetPart,
} from '@kit/lib/format.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { DiagnoseCreationButton } from '../../diagnostics/ui/index.js';
import { cancelOperation, useOperation } from './api.js';
import { LogViewer } from './LogViewer.js';
import { PhaseTable } from './PhaseTable.js';

type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A list of records (one result per node, say): shown as a table, one column per field. */
const isRows = (v: unknown): v is Row[] => Array.isArray(v) && v.length > 0 && v.every(isRow);

/** A result value as a person reads it: yes/no, a list, a number, labelled fields; identifiers stay in code style. */
function ResultValue({ value }: { value: unknown }) {
  if (value === undefined || value === null || value === '') return <>—</>;
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  if (typeof value === 'number') return <>{value}</>;
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object')) return <>{value.join(', ') || '—'}</>;
  if (isRow(value)) {
    return (
      <SpaceBetween size="xxxs">
        {Object.entries(value).map(([k, v]) => (
          <div key={k}>
            <Box variant="awsui-key-label" display="inline">
              {fieldLabel(k)}
            </Box>
            : <ResultValue value={v} />
          </div>
        ))}
      </SpaceBetween>
    );
  }
  return <Box variant="code">{typeof value === 'string' ? value : JSON.stringify(value)}</Box>;
}

/** A list of records from the result as a table; columns are the records' fields, labelled. */
function ResultTable({ name, rows }: { name: string; rows: Row[] }) {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return (
    <Table
      variant="embedded"
      data-testid={`operation-result-table-${name}`}
      header={
        <Header variant="h3" counter={`(${rows.length})`}>
          {fieldLabel(name)}
        </Header>
      }
      items={rows}
      wrapLines
      columnDefinitions={columns.map((c) => ({
        id: c,
        header: fieldLabel(c),
        cell: (r: Row) => <ResultValue value={r[c]} />,
      }))}
    />
  );
}

/** What the operation acts on, in words: "Storage models of cluster demo (us-west-2)"; a target naming no cluster as it is. */
function targetDescription(target: string): string {
  const cluster = parseClusterTarget(target);
  if (!cluster) return target;
  const part = targetPart(target);
  return `${part ? `${part} of cluster` : 'Cluster'} ${cluster.name} (${cluster.region})`;
}

/** Where the operation acts; operations journaled by older versions did not record it. */
function placeOf(op: OperationView): string {
  if (!op.cloud) return 'unknown (recorded before InstantStart kept the cloud of each operation)';
  const where = op.cloud === 'sandbox' ? 'Sandbox cloud' : 'AWS';
  return `${where} · account ${op.accountId ?? 'unknown'}${op.region ? ` · ${op.region}` : ''}`;
}

function Summary({ op }: { op: OperationView }) {
  const follow = useFollow();
  const now = useNow(!isTerminal(op));
  const cluster = parseClusterTarget(op.target);
  const part = targetPart(op.target);
  const elapsed = (op.finishedAt ? Date.parse(op.finishedAt) : now) - Date.parse(op.createdAt);
  return (
    <Container header={<Header variant="h2">Summary</Header>}>
      <KeyValuePairs
        columns={4}
        items={[
          {
            label: 'Status',
            value: (
              <span data-testid="operation-status" data-status={op.status}>
                <OperationStatusIndicator status={op.status} />
              </span>
            ),
          },
          {
            label: op.runningPhases.length > 1 ? 'Running phases' : 'Current phase',
            value: (
              <span data-testid="operation-running-phases">
                {op.runningPhases.length > 1 ? op.runningPhases.join(', ') : (op.currentPhase ?? '—')}
              </span>
            ),
          },
          {
            label: 'Target',
            value: cluster ? (
              <Link href={clusterPath(cluster.name, cluster.region)} onFollow={follow} data-testid="operation-target">
                {part ? `${part} of ` : ''}
                {cluster.name} ({cluster.region})
              </Link>
            ) : (
              op.target
            ),
          },
          { label: 'Cloud and account', value: <span data-testid="operation-place">{placeOf(op)}</span> },
          { label: 'Elapsed', value: formatDuration(elapsed) },
          { label: 'Started', value: formatTime(op.createdAt) },
          { label: 'Finished', value: formatTime(op.finishedAt) },
          { label: 'Operation id', value: <Box variant="code">{op.id}</Box> },
        ]}
      />
    </Container>
  );
}

export function OperationPage() {
  const { id = '' } = useParams();
  const qc = useQueryClient();
  const { notify, notifyError } = useNotifications();
  const operation = useOperation(id);
  const operationPanels = useOperationPanels();
  // Arriving from a long form (the wizard's Review) must not keep its scroll position: open at the top.
  // In braces: current Chromium's scrollTo returns a Promise, which React would call as the effect's cleanup on
  // leaving.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [id]);
  const cancel = useMutation({
    mutationFn: () => cancelOperation(id),
    onSuccess: (accepted) => {
      qc.setQueryData(keys.operation(id), accepted.operation);
      notify({ type: 'info', header: 'Cancelling at the next safe point' });
    },
    onError: (err) => notifyError('Could not cancel the operation', err),
  });

  if (operation.isLoading) return <Spinner size="large" />;
  if (operation.error || !operation.data) {
    return (
      <Alert type="error" header={`Operation ${id}`}>
        <ProblemText error={operation.error} />
      </Alert>
    );
  }
  const op = operation.data;
  const cancellable = op.status === 'running' || op.status === 'pending';
  const cluster = parseClusterTarget(op.target);
  // What the operation made, in words; a REST path in it (a create's `statusUrl`) points API clients onward and is no
  // word for a person.
  const result =
    op.status === 'succeeded' && op.result
      ? Object.entries(op.result).filter(([, v]) => !(typeof v === 'string' && v.startsWith('/api/')))
      : [];
  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description={
            <span data-testid="operation-target-label" title={op.target}>
              {targetDescription(op.target)}
            </span>
          }
          actions={
            cancellable || op.status === 'cancelling' ? (
              <Button
                onClick={() => cancel.mutate()}
                loading={cancel.isPending || op.status === 'cancelling'}
                disabled={op.status === 'cancelling'}
                data-testid="operation-cancel"
              >
                Cancel operation
              </Button>
            ) : undefined
          }
        >
          <span data-testid="operation-title" data-kind={op.kind}>
            {operationKindLabel(op.kind)}
          </span>
        </Header>
      }
    >
      <SpaceBetween size="l">
        {op.error && (
          <Alert
            type="error"
            header={`Failed${op.error.phase ? ` in phase ${op.error.phase}` : ''}: ${op.error.code}`}
            data-testid="operation-error"
            action={
              op.kind === 'create-cluster' && cluster ? (
                <DiagnoseCreationButton cluster={cluster.name} region={cluster.region} operationId={op.id} />
              ) : undefined
            }
          >
            {inFormWords(op.error.message, undefined)}
            {op.status === 'failed' && op.phases.some((p) => p.retryable)
              ? op.phases.filter((p) => p.retryable).length > 1
                ? ' — fix the cause, then retry a failed phase below: every failed phase runs again, in order; completed phases are not repeated.'
                : ' — fix the cause, then retry the failed phase below; completed phases are not repeated.'
              : ''}
          </Alert>
        )}
        {operationPanels.map(({ id: panel, Panel }) => (
          <Panel key={panel} operation={op} />
        ))}
        {op.paused && (
          <Alert
            type="warning"
            header={`Paused: the server cannot write its data directory (${op.paused.code})`}
            data-testid="operation-paused"
          >
            {op.paused.reason}
          </Alert>
        )}
        <Summary op={op} />
        <PhaseTable operation={op} />
        {result.length > 0 && (
          <Container header={<Header variant="h2">Result</Header>} data-testid="operation-result">
            <SpaceBetween size="m">
              <KeyValuePairs
                columns={3}
                items={result
                  .filter(([, v]) => !isRows(v))
                  .map(([k, v]) => ({
                    label: <span data-testid="operation-result-label">{fieldLabel(k)}</span>,
                    value: <ResultValue value={v} />,
                  }))}
              />
              {result.flatMap(([k, v]) => (isRows(v) ? [<ResultTable key={k} name={k} rows={v} />] : []))}
            </SpaceBetween>
          </Container>
        )}
        <LogViewer operationId={op.id} live={!isTerminal(op)} />
      </SpaceBetween>
    </ContentLayout>
  );
}
