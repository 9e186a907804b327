import Alert from '@cloudscape-design/components/alert';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { ProblemError } from '../../../../web/src/api/client.js';
import { setActiveCluster } from '../../../../web/src/api/endpoints.js';
import { keys, useCluster } from '../../../../web/src/api/queries.js';
import type { ClusterDetail } from '../../../../web/src/api/types.js';
import { CLUSTER_PANELS } from '../../../../web/src/capabilities.js';
import { DeleteClusterModal } from './DeleteClusterModal.js';
import { OperationLink } from '../../../../web/src/components/OperationLink.js';
import { ClusterHealthBadge, ClusterHealthDetails } from '../../../../web/src/components/ClusterHealth.js';
import { ClusterStatus } from '../../../../web/src/components/status.js';
import { useLiveNodes } from '../../../../web/src/hooks/use-live-nodes.js';
import { ProblemText, useNotifications } from '../../../../web/src/hooks/notifications.js';
import { formatTime, operationPath } from '../../../../web/src/lib/format.js';

const code = (v: string | undefined) => (v ? <Box variant="code">{v}</Box> : '—');

function Overview({ c }: { c: ClusterDetail }) {
  return (
    <Container header={<Header variant="h2">Overview</Header>} data-testid="cluster-overview">
      <KeyValuePairs
        columns={3}
        items={[
          { label: 'Status', value: <span data-testid="cluster-detail-status"><ClusterStatus status={c.status} /></span> },
          { label: 'Health', value: c.health ? <span data-testid="cluster-overview-health" data-state={c.health.state}><ClusterHealthDetails health={c.health} /></span> : '—' },
          { label: 'Region', value: c.region },
          { label: 'Created', value: formatTime(c.createdAt) },
          { label: 'HyperPod cluster ARN', value: code(c.clusterArn) },
          { label: 'Node recovery', value: c.nodeRecovery ?? '—' },
          { label: 'Node provisioning mode', value: c.nodeProvisioningMode ?? '—' },
          { label: 'EKS cluster', value: c.eks ? `${c.eks.name} (${c.eks.status})` : c.eksClusterName ?? '—' },
          { label: 'Kubernetes version', value: c.eks?.version ?? '—' },
          { label: 'EKS endpoint', value: code(c.eks?.endpoint) },
          { label: 'VPC', value: code(c.eks?.vpcId) },
          { label: 'Subnets', value: c.eks?.subnetIds.length ? c.eks.subnetIds.join(', ') : '—' },
          { label: 'Managed by InstantStart', value: c.managedByInstantStart ? 'Yes' : 'No (created elsewhere)' },
          ...(c.failureMessage ? [{ label: 'Failure', value: <Box color="text-status-error">{c.failureMessage}</Box> }] : []),
        ]}
      />
    </Container>
  );
}

function Storage({ c }: { c: ClusterDetail }) {
  return (
    <Container header={<Header variant="h2">Storage</Header>} data-testid="cluster-storage">
      <KeyValuePairs
        columns={3}
        items={[
          { label: 'S3 bucket (Mountpoint CSI)', value: code(c.storage?.s3Bucket) },
          { label: 'PersistentVolumeClaim', value: code(c.storage?.persistentVolumeClaim) },
          { label: 'FSx for Lustre file system', value: code(c.storage?.fsxFileSystemId) },
        ]}
      />
    </Container>
  );
}

export function ClusterDetailPage() {
  const { name = '' } = useParams();
  const [search] = useSearchParams();
  const region = search.get('region') ?? undefined;
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { notify, notifyError } = useNotifications();
  const cluster = useCluster(name, region);
  const [deleting, setDeleting] = useState(false);
  useLiveNodes(name, region ?? cluster.data?.region);
  const setActive = useMutation({
    mutationFn: () => setActiveCluster(name, region ?? cluster.data?.region),
    onSuccess: (result) => {
      qc.setQueryData(keys.activeCluster, result);
      void qc.invalidateQueries({ queryKey: keys.clusters });
      notify({ type: 'success', header: `${name} is now the active cluster` });
    },
    onError: (err) => notifyError('Could not set the active cluster', err),
  });

  if (cluster.isLoading) return <Spinner size="large" />;
  if (!cluster.data) {
    const gone = cluster.error instanceof ProblemError && cluster.error.status === 404;
    return (
      <Alert type={gone ? 'info' : 'error'} header={gone ? `Cluster ${name} does not exist (any more)` : `Cluster ${name}`} data-testid="cluster-error">
        <ProblemText error={cluster.error} />
      </Alert>
    );
  }
  const c = cluster.data;
  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description={c.eksClusterName ? `HyperPod cluster orchestrated by EKS cluster ${c.eksClusterName}` : 'HyperPod cluster'}
          info={
            <SpaceBetween direction="horizontal" size="xs" alignItems="center">
              {c.isActive && <Badge color="blue">Active</Badge>}
              <ClusterHealthBadge health={c.health} testId="cluster-header-health" />
            </SpaceBetween>
          }
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              <Button disabled={c.isActive} loading={setActive.isPending} onClick={() => setActive.mutate()} data-testid="detail-set-active">
                Set active
              </Button>
              <Button disabled={c.status === 'Deleting'} onClick={() => setDeleting(true)} data-testid="detail-delete">
                Delete
              </Button>
            </SpaceBetween>
          }
        >
          <span data-testid="cluster-detail-name">{c.name}</span>
        </Header>
      }
    >
      <SpaceBetween size="l">
        {c.activeOperation && (
          <Alert type="info" header="An operation is working on this cluster" data-testid="cluster-active-operation">
            <StatusIndicator type="in-progress">
              <OperationLink op={c.activeOperation} />
            </StatusIndicator>
          </Alert>
        )}
        <Overview c={c} />
        {CLUSTER_PANELS.map(({ id, Panel }) => (
          <Panel key={id} cluster={c.name} region={c.region} />
        ))}
        <Storage c={c} />
      </SpaceBetween>
      <DeleteClusterModal
        cluster={deleting ? { name: c.name, region: c.region } : null}
        onDismiss={() => setDeleting(false)}
        onDeleted={(accepted) => {
          setDeleting(false);
          navigate(operationPath(accepted.operation.id));
        }}
      />
    </ContentLayout>
  );
}
