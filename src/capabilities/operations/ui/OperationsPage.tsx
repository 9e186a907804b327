import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import Table from '@cloudscape-design/components/table';
import { operationKindLabel } from '@domain/naming.js';
import { isTerminal } from '@kit/api/queries.js';
import { OperationStatusIndicator } from '@kit/components/status.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import {
  clusterPath,
  formatDuration,
  formatTime,
  inFormWords,
  operationPath,
  parseClusterTarget,
  targetPart,
} from '@kit/lib/format.js';
import { useMemo, useState } from 'react';
import { useOperations } from './api.js';

type Show = 'all' | 'running' | 'failed';

export function OperationsPage() {
  const follow = useFollow();
  const operations = useOperations();
  const [show, setShow] = useState<Show>('all');
  const items = useMemo(
    () =>
      (operations.data ?? []).filter((o) =>
        show === 'running' ? !isTerminal(o) : show === 'failed' ? o.status === 'failed' : true,
      ),
    [operations.data, show],
  );
  return (
    <Table
      data-testid="operations-table"
      variant="full-page"
      items={items}
      trackBy="id"
      loading={operations.isLoading}
      loadingText="Loading operations"
      filter={
        <SegmentedControl
          selectedId={show}
          onChange={(e) => setShow(e.detail.selectedId as Show)}
          options={[
            { id: 'all', text: 'All' },
            { id: 'running', text: 'In progress' },
            { id: 'failed', text: 'Failed' },
          ]}
        />
      }
      header={
        <Header
          variant="awsui-h1-sticky"
          counter={operations.data ? `(${operations.data.length})` : undefined}
          description="Every long action is an operation of phases; each phase has its own status and log and can be retried alone."
          actions={
            <Button
              iconName="refresh"
              ariaLabel="Refresh"
              onClick={() => void operations.refetch()}
              loading={operations.isFetching && !operations.isLoading}
            />
          }
        >
          Operations
        </Header>
      }
      columnDefinitions={[
        {
          id: 'id',
          header: 'Operation',
          isRowHeader: true,
          cell: (o) => (
            <Link href={operationPath(o.id)} onFollow={follow} data-testid={`operation-link-${o.id}`}>
              {operationKindLabel(o.kind)}
            </Link>
          ),
        },
        {
          id: 'target',
          header: 'Target',
          cell: (o) => {
            const c = parseClusterTarget(o.target);
            return c ? (
              <Link href={clusterPath(c.name, c.region)} onFollow={follow}>
                {c.name}
                {targetPart(o.target) ? ` · ${targetPart(o.target)}` : ''}
              </Link>
            ) : (
              o.target
            );
          },
        },
        { id: 'status', header: 'Status', cell: (o) => <OperationStatusIndicator status={o.status} /> },
        {
          id: 'phase',
          header: 'Phase',
          cell: (o) =>
            (o.runningPhases.length > 1 ? o.runningPhases.join(', ') : o.currentPhase) ??
            (o.error?.phase ? `${o.error.phase} (failed)` : '—'),
        },
        {
          id: 'progress',
          header: 'Progress',
          cell: (o) =>
            `${o.phases.filter((p) => p.status === 'succeeded' || p.status === 'skipped').length}/${o.phases.length}`,
        },
        { id: 'created', header: 'Started', cell: (o) => formatTime(o.createdAt) },
        {
          id: 'duration',
          header: 'Duration',
          cell: (o) => (o.finishedAt ? formatDuration(Date.parse(o.finishedAt) - Date.parse(o.createdAt)) : '—'),
        },
        {
          id: 'error',
          header: 'Error',
          cell: (o) => (o.error ? `${o.error.code}: ${inFormWords(o.error.message, undefined)}` : ''),
          maxWidth: 360,
        },
      ]}
      wrapLines
      empty={
        operations.error ? (
          <Box color="text-status-error">
            <ProblemText error={operations.error} />
          </Box>
        ) : (
          <Box textAlign="center">No operations yet</Box>
        )
      }
    />
  );
}
