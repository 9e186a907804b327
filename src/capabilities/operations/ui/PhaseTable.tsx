import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import { keys } from '@kit/api/queries.js';
import type { OperationView, PhaseView } from '@kit/api/types.js';
import { isPhaseRunning, PhaseStatusIndicator } from '@kit/components/status.js';
import { useNotifications } from '@kit/hooks/notifications.js';
import { useNow } from '@kit/hooks/use-now.js';
import { formatDuration, formatExpected, inFormWords } from '@kit/lib/format.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { retryPhase } from './api.js';
import { checkRetry, ScaleRetryRefused, ScaleRetryRefusedNotice } from './scale-retry-check.js';

function phaseDuration(p: PhaseView, now: number): number | undefined {
  if (isPhaseRunning(p.status) && p.startedAt) return Math.max(0, now - Date.parse(p.startedAt));
  if (p.durationMs !== undefined) return p.durationMs;
  if (p.startedAt && p.finishedAt) return Date.parse(p.finishedAt) - Date.parse(p.startedAt);
  return undefined;
}

/** The progress panel: one row per phase, its status, live duration, attempts, note, error and Retry. */
export function PhaseTable({ operation }: { operation: OperationView }) {
  const qc = useQueryClient();
  const { notify, notifyError } = useNotifications();
  const running = operation.phases.some((p) => isPhaseRunning(p.status));
  const now = useNow(running);
  const retry = useMutation({
    mutationFn: async (phase: string) => {
      await checkRetry(operation);
      return retryPhase(operation.id, phase);
    },
    onSuccess: (accepted, phase) => {
      qc.setQueryData(keys.operation(operation.id), accepted.operation);
      notify({ type: 'info', header: `Retrying phase ${phase}` });
    },
    onError: (err, phase) =>
      err instanceof ScaleRetryRefused
        ? notify({
            type: 'error',
            header: `Phase ${phase} was not retried: the count no longer fits`,
            content: <ScaleRetryRefusedNotice error={err} />,
            autoDismiss: false,
          })
        : notifyError(`Could not retry phase ${phase}`, err),
  });

  const done = operation.phases.filter((p) => p.status === 'succeeded' || p.status === 'skipped').length;
  // Independent phases run side by side: say so, so several "running" rows read as intended.
  const together = operation.phases.filter((p) => isPhaseRunning(p.status)).length;
  const description =
    together > 1
      ? `${together} phases are running side by side: each starts once the phases it needs are done. Each observes the actual state first, so a retry continues where reality is.`
      : 'Each phase starts once the phases it needs are done, and observes the actual state first, so a retry continues where reality is.';
  const columns: TableProps.ColumnDefinition<PhaseView>[] = [
    {
      id: 'phase',
      header: 'Phase',
      isRowHeader: true,
      cell: (p) => (
        <div data-testid={`phase-row-${p.name}`} data-status={p.status}>
          <Box fontWeight="bold">{p.title}</Box>
          <Box variant="small" color="text-body-secondary">
            {p.name}
            {p.expectedSeconds ? ` · ${formatExpected(p.expectedSeconds)}` : ''}
            {p.status === 'pending' && p.after?.length ? (
              <span data-testid={`phase-after-${p.name}`}>{` · after ${p.after.join(', ')}`}</span>
            ) : null}
          </Box>
        </div>
      ),
      minWidth: 260,
    },
    {
      id: 'status',
      header: 'Status',
      width: 150,
      cell: (p) => (
        <span data-testid={`phase-status-${p.name}`} style={{ whiteSpace: 'nowrap' }}>
          <PhaseStatusIndicator status={p.status} />
        </span>
      ),
    },
    {
      id: 'duration',
      header: 'Duration',
      width: 110,
      cell: (p) => <span data-testid={`phase-duration-${p.name}`}>{formatDuration(phaseDuration(p, now))}</span>,
    },
    { id: 'attempts', header: 'Attempts', width: 100, cell: (p) => p.attempts || '—' },
    {
      id: 'detail',
      header: 'Progress / error',
      cell: (p) =>
        p.error ? (
          <Box color="text-status-error" data-testid={`phase-error-${p.name}`}>
            <b>{p.error.code}</b>: {inFormWords(p.error.message, undefined)}
          </Box>
        ) : (
          <Box color="text-body-secondary">{inFormWords(p.progress ?? '', undefined)}</Box>
        ),
      minWidth: 240,
    },
    {
      id: 'actions',
      header: '',
      width: 110,
      cell: (p) =>
        p.status === 'failed' && p.retryable && operation.status === 'failed' ? (
          <Button
            loading={retry.isPending && retry.variables === p.name}
            onClick={() => retry.mutate(p.name)}
            data-testid={`phase-retry-${p.name}`}
          >
            Retry
          </Button>
        ) : null,
    },
  ];

  return (
    <Table
      data-testid="phase-table"
      items={operation.phases}
      columnDefinitions={columns}
      trackBy="name"
      wrapLines
      header={
        <Header
          variant="h2"
          counter={`(${done}/${operation.phases.length})`}
          description={<span data-testid="phase-table-description">{description}</span>}
        >
          Phases
        </Header>
      }
      empty={<Box textAlign="center">No phases</Box>}
    />
  );
}
