import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import Popover from '@cloudscape-design/components/popover';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import { keys } from '@kit/api/queries.js';
import type { Accepted, ClusterSummary } from '@kit/api/types.js';
import { CloudTime } from '@kit/components/CloudTime.js';
import { ClusterHealthBadge } from '@kit/components/ClusterHealth.js';
import { OperationLink } from '@kit/components/OperationLink.js';
import { ClusterStatus } from '@kit/components/status.js';
import { useCloudTimeLabel } from '@kit/hooks/cloud-clock.js';
import { ProblemText, useNotifications } from '@kit/hooks/notifications.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { clusterPath, operationPath } from '@kit/lib/format.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { clusterKeys, setActiveCluster, useActiveCluster, useClusters } from './api.js';
import { DeleteClusterModal } from './DeleteClusterModal.js';

export function ClustersPage() {
  const cloudLabel = useCloudTimeLabel();
  const navigate = useNavigate();
  const follow = useFollow();
  const qc = useQueryClient();
  const { notify, notifyError } = useNotifications();
  const clusters = useClusters();
  const active = useActiveCluster();
  const [selected, setSelected] = useState<ClusterSummary[]>([]);
  const [filter, setFilter] = useState('');
  const [deleting, setDeleting] = useState<ClusterSummary | null>(null);

  const isActive = (c: ClusterSummary) =>
    active.data?.name === c.name && (!active.data.region || active.data.region === c.region);
  const items = useMemo(
    () =>
      (clusters.data ?? [])
        .filter((c) => c.name.toLowerCase().includes(filter.trim().toLowerCase()))
        .sort((a, b) => (b.createdAt ?? '9').localeCompare(a.createdAt ?? '9') || a.name.localeCompare(b.name)),
    [clusters.data, filter],
  );
  // Keep the selection pointing at fresh rows (the list refreshes live).
  const current = selected[0]
    ? items.find((c) => c.name === selected[0]!.name && c.region === selected[0]!.region)
    : undefined;

  const setActive = useMutation({
    mutationFn: (c: ClusterSummary) => setActiveCluster(c.name, c.region),
    onSuccess: (result) => {
      qc.setQueryData(clusterKeys.active, result);
      void qc.invalidateQueries({ queryKey: keys.clusters });
      notify({ type: 'success', header: `${result.name} is now the active cluster` });
    },
    onError: (err) => notifyError('Could not set the active cluster', err),
  });

  const onDeleted = (accepted: Accepted) => {
    setDeleting(null);
    notify({
      type: 'success',
      header: accepted.existing ? `Deletion of ${accepted.operation.target} is already running` : 'Deletion started',
      content: (
        <Link href={operationPath(accepted.operation.id)} onFollow={follow}>
          Follow operation {accepted.operation.id}
        </Link>
      ),
    });
  };

  const columns: TableProps.ColumnDefinition<ClusterSummary>[] = [
    {
      id: 'name',
      header: 'Name',
      isRowHeader: true,
      cell: (c) => (
        <Link href={clusterPath(c.name, c.region)} onFollow={follow} data-testid={`cluster-link-${c.name}`}>
          {c.name}
        </Link>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (c) => (
        <span data-testid={`cluster-status-${c.name}`}>
          {c.failureMessage ? (
            <Popover header="Failure" content={c.failureMessage} dismissButton={false}>
              <ClusterStatus status={c.status} />
            </Popover>
          ) : (
            <ClusterStatus status={c.status} />
          )}
        </span>
      ),
    },
    {
      id: 'health',
      header: 'Health',
      cell: (c) => <ClusterHealthBadge health={c.health} testId={`cluster-health-${c.name}`} />,
    },
    { id: 'region', header: 'Region', cell: (c) => c.region },
    { id: 'eks', header: 'EKS cluster', cell: (c) => c.eksClusterName ?? '—' },
    { id: 'created', header: cloudLabel('Created'), cell: (c) => <CloudTime iso={c.createdAt} /> },
    {
      id: 'active',
      header: 'Active',
      cell: (c) =>
        isActive(c) ? (
          <Badge color="blue" data-testid={`cluster-active-${c.name}`}>
            Active
          </Badge>
        ) : c.managedByInstantStart ? (
          ''
        ) : (
          <Box color="text-status-inactive">not ours</Box>
        ),
    },
    {
      id: 'operation',
      header: 'Current operation',
      cell: (c) =>
        c.activeOperation ? <OperationLink op={c.activeOperation} testId={`cluster-operation-${c.name}`} /> : '—',
    },
  ];

  return (
    <>
      <Table
        data-testid="clusters-table"
        variant="full-page"
        items={items}
        columnDefinitions={columns}
        trackBy={(c) => `${c.region}/${c.name}`}
        loading={clusters.isLoading}
        loadingText="Loading clusters"
        selectionType="single"
        selectedItems={current ? [current] : []}
        onSelectionChange={(e) => setSelected(e.detail.selectedItems)}
        ariaLabels={{ itemSelectionLabel: (_s, c) => `Select ${c.name}`, selectionGroupLabel: 'Cluster selection' }}
        filter={
          <TextFilter
            filteringText={filter}
            onChange={(e) => setFilter(e.detail.filteringText)}
            filteringPlaceholder="Find clusters by name"
            countText={`${items.length} matches`}
          />
        }
        header={
          <Header
            variant="awsui-h1-sticky"
            counter={clusters.data ? `(${clusters.data.length})` : undefined}
            description="SageMaker HyperPod clusters orchestrated by Amazon EKS, and the ones an operation is creating."
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button
                  iconName="refresh"
                  ariaLabel="Refresh"
                  loading={clusters.isFetching && !clusters.isLoading}
                  onClick={() => void clusters.refetch()}
                />
                <Button
                  disabled={!current || isActive(current)}
                  loading={setActive.isPending}
                  onClick={() => current && setActive.mutate(current)}
                  data-testid="set-active"
                >
                  Set active
                </Button>
                <Button
                  disabled={!current || current.status === 'Deleting'}
                  onClick={() => current && setDeleting(current)}
                  data-testid="delete-cluster"
                >
                  Delete
                </Button>
                <Button variant="primary" onClick={() => navigate('/create-cluster')} data-testid="create-cluster">
                  Create cluster
                </Button>
              </SpaceBetween>
            }
          >
            Clusters
          </Header>
        }
        empty={
          clusters.error ? (
            <Box textAlign="center" color="text-status-error" data-testid="clusters-error">
              <ProblemText error={clusters.error} />
            </Box>
          ) : (
            <Box textAlign="center" color="inherit" padding="l">
              <SpaceBetween size="s">
                <b>No clusters</b>
                <Box color="inherit">
                  Create a HyperPod cluster: network, EKS, dependencies, HyperPod and storage in one operation.
                </Box>
                <Button onClick={() => navigate('/create-cluster')}>Create cluster</Button>
              </SpaceBetween>
            </Box>
          )
        }
      />
      <DeleteClusterModal cluster={deleting} onDismiss={() => setDeleting(null)} onDeleted={onDeleted} />
    </>
  );
}
