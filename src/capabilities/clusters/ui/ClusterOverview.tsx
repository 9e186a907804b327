import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { ClusterDetail } from '@kit/api/types.js';
import { CloudTime } from '@kit/components/CloudTime.js';
import { ClusterHealthDetails } from '@kit/components/ClusterHealth.js';
import { ClusterStatus } from '@kit/components/status.js';
import { useCloudTimeLabel } from '@kit/hooks/cloud-clock.js';
import type { ReactNode } from 'react';
import { DiagnoseCreationButton } from '../../diagnostics/ui/index.js';

const code = (v: string | undefined) => (v ? <Box variant="code">{v}</Box> : '—');

function Facts({ c }: { c: ClusterDetail }) {
  const cloudLabel = useCloudTimeLabel();
  const failedCreate = c.failedOperation?.kind === 'create-cluster' ? c.failedOperation : undefined;
  return (
    <Container header={<Header variant="h2">Overview</Header>} data-testid="cluster-overview">
      <KeyValuePairs
        columns={3}
        items={[
          {
            label: 'Status',
            value: (
              <span data-testid="cluster-detail-status">
                <ClusterStatus status={c.status} />
              </span>
            ),
          },
          {
            label: 'Health',
            value: c.health ? (
              <span data-testid="cluster-overview-health" data-state={c.health.state}>
                <ClusterHealthDetails health={c.health} />
              </span>
            ) : (
              '—'
            ),
          },
          { label: 'Region', value: c.region },
          { label: cloudLabel('Created'), value: <CloudTime iso={c.createdAt} /> },
          { label: 'HyperPod cluster ARN', value: code(c.clusterArn) },
          { label: 'Node recovery', value: c.nodeRecovery ?? '—' },
          { label: 'Node provisioning mode', value: c.nodeProvisioningMode ?? '—' },
          { label: 'EKS cluster', value: c.eks ? `${c.eks.name} (${c.eks.status})` : (c.eksClusterName ?? '—') },
          { label: 'Kubernetes version', value: c.eks?.version ?? '—' },
          { label: 'EKS endpoint', value: code(c.eks?.endpoint) },
          { label: 'VPC', value: code(c.eks?.vpcId) },
          { label: 'Subnets', value: c.eks?.subnetIds.length ? c.eks.subnetIds.join(', ') : '—' },
          { label: 'Managed by InstantStart', value: c.managedByInstantStart ? 'Yes' : 'No (created elsewhere)' },
          ...(c.failureMessage
            ? [
                {
                  label: 'Failure',
                  value: (
                    <SpaceBetween size="xs">
                      <Box color="text-status-error">{c.failureMessage}</Box>
                      {c.status === 'Failed' && !failedCreate && (
                        <DiagnoseCreationButton cluster={c.name} region={c.region} />
                      )}
                    </SpaceBetween>
                  ),
                },
              ]
            : []),
          ...(failedCreate
            ? [
                {
                  label: 'Create failed',
                  value: (
                    <SpaceBetween size="xs">
                      <Box color="text-status-error">
                        {`${failedCreate.phase ? `Phase ${failedCreate.phase}: ` : ''}${failedCreate.code ?? ''} ${failedCreate.message ?? ''}`}
                      </Box>
                      <DiagnoseCreationButton cluster={c.name} region={c.region} operationId={failedCreate.id} />
                    </SpaceBetween>
                  ),
                },
              ]
            : []),
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

/**
 * The Overview tab: the cluster's facts, then whatever capabilities put on this tab (`panels`, e.g. a
 * health summary), then its storage (until a storage capability gives storage a tab of its own).
 */
export function ClusterOverview({ c, panels }: { c: ClusterDetail; panels: ReactNode }) {
  return (
    <SpaceBetween size="l">
      <Facts c={c} />
      {panels}
      <Storage c={c} />
    </SpaceBetween>
  );
}
