import Box from '@cloudscape-design/components/box';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import type { ClusterEvent } from '@kit/api/types.js';
import { CloudTime } from '@kit/components/CloudTime.js';
import { useCloudTimeLabel } from '@kit/hooks/cloud-clock.js';
import type { ReactNode } from 'react';

const LEVEL: Record<ClusterEvent['level'], StatusIndicatorProps.Type> = {
  info: 'info',
  warning: 'warning',
  error: 'error',
};
const LEVEL_LABEL: Record<ClusterEvent['level'], string> = { info: 'Info', warning: 'Warning', error: 'Error' };
const SOURCE_LABEL: Record<ClusterEvent['source'], string> = { hyperpod: 'HyperPod', kubernetes: 'Kubernetes' };

export function EventLevel({ level }: { level: ClusterEvent['level'] }) {
  return <StatusIndicator type={LEVEL[level] ?? 'info'}>{LEVEL_LABEL[level] ?? level}</StatusIndicator>;
}

interface Props {
  events: ClusterEvent[];
  loading?: boolean;
  header?: ReactNode;
  filter?: ReactNode;
  empty?: ReactNode;
  /** Hide the group/node column (a single node's events). */
  hideSubject?: boolean;
  variant?: TableProps['variant'];
  'data-testid'?: string;
}

/** A timeline of HyperPod and Kubernetes events, newest first, as the server orders them. */
export function EventsTable({
  events,
  loading,
  header,
  filter,
  empty,
  hideSubject,
  variant,
  'data-testid': testId = 'events-table',
}: Props) {
  const cloudLabel = useCloudTimeLabel();
  const columns: Array<TableProps.ColumnDefinition<ClusterEvent>> = [
    { id: 'time', header: cloudLabel('Time'), cell: (e) => <CloudTime iso={e.time} />, width: 190 },
    { id: 'source', header: 'Source', cell: (e) => SOURCE_LABEL[e.source] ?? e.source, width: 120 },
    { id: 'level', header: 'Level', cell: (e) => <EventLevel level={e.level} />, width: 130 },
    { id: 'kind', header: 'Kind', cell: (e) => e.kind },
    ...(hideSubject
      ? []
      : [
          {
            id: 'subject',
            header: 'Group / node',
            cell: (e: ClusterEvent) => [e.instanceGroupName, e.instanceId].filter(Boolean).join(' / ') || '—',
          },
        ]),
    {
      id: 'message',
      header: 'Message',
      cell: (e) => (e.count && e.count > 1 ? `${e.message} (×${e.count})` : e.message),
    },
  ];
  return (
    <Table
      data-testid={testId}
      variant={variant}
      items={events}
      loading={loading}
      loadingText="Loading events"
      wrapLines
      header={header}
      filter={filter}
      columnDefinitions={columns}
      empty={empty ?? <Box textAlign="center">No events</Box>}
    />
  );
}
