import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import type { StorageView } from '@domain/schemas/storage.js';
import type { Accepted } from '@kit/api/types.js';
import type { ClusterPanelProps } from '@kit/capability.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { clusterPath, operationPath } from '@kit/lib/format.js';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AddStorageModal } from './AddStorageModal.js';
import { useStorageList } from './api.js';
import { KeptStorageTable } from './KeptStorageTable.js';
import { RemoveStorageModal } from './RemoveStorageModal.js';
import { StorageBrowser } from './StorageBrowser.js';

/** A storage in the tab's URL: `<name>` in the default namespace, `<namespace>.<name>` elsewhere (names have no dots). */
export const storageItem = (s: { name: string; namespace: string }) =>
  s.namespace === 'default' ? s.name : `${s.namespace}.${s.name}`;
const fromItem = (item: string) =>
  item.includes('.')
    ? { namespace: item.split('.')[0]!, name: item.split('.')[1]! }
    : { namespace: 'default', name: item };

const PHASE = new Map<string, StatusIndicatorProps.Type>([
  ['Bound', 'success'],
  ['Pending', 'pending'],
  ['Lost', 'error'],
  ['Missing', 'warning'],
]);

const where = (s: StorageView) =>
  s.kind === 's3' ? (
    <Box variant="code">{`s3://${s.bucket}/${s.prefix ?? ''}`}</Box>
  ) : (
    <Box variant="code">{`${s.fileSystemId}${s.mountName ? ` (${s.dnsName}@${s.mountName})` : ''}`}</Box>
  );

/**
 * The cluster's Storage tab: every S3 (Mountpoint) and FSx for Lustre volume with its claim's phase and
 * the pods that mount it, read live from Kubernetes; add and remove (each an operation), and the
 * contents of one storage below the table when the URL names it.
 */
export function StoragePanel({ cluster, region, item }: ClusterPanelProps) {
  const list = useStorageList(cluster, region);
  const navigate = useNavigate();
  const follow = useFollow();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<StorageView | null>(null);
  const started = (accepted: Accepted) => navigate(operationPath(accepted.operation.id));
  const items = list.data?.storages ?? [];
  const browsing = item ? fromItem(decodeURIComponent(item)) : undefined;
  return (
    <SpaceBetween size="l">
      {list.error && !list.data && (
        <Alert type="error" header="Storage could not be read" data-testid="storage-error">
          <ProblemText error={list.error} />
        </Alert>
      )}
      <Table
        data-testid="storage-table"
        loading={list.isLoading}
        items={items}
        trackBy={(s) => `${s.namespace}/${s.name}`}
        wrapLines
        stickyColumns={{ first: 0, last: 1 }}
        header={
          <Header
            variant="h2"
            counter={`(${items.length})`}
            description="S3 buckets (Mountpoint for Amazon S3 CSI driver) and FSx for Lustre file systems that pods mount by their claim's name. Removing one keeps its data unless you ask."
            actions={
              <Button onClick={() => setAdding(true)} disabled={!list.data} data-testid="storage-add">
                Add storage
              </Button>
            }
          >
            Storage
          </Header>
        }
        columnDefinitions={[
          {
            id: 'name',
            header: 'Name (claim)',
            isRowHeader: true,
            cell: (s) => (
              <span data-testid={`storage-row-${s.namespace}-${s.name}`}>
                {s.namespace === 'default' ? s.name : `${s.namespace}/${s.name}`}
              </span>
            ),
          },
          { id: 'kind', header: 'Kind', cell: (s) => (s.kind === 's3' ? 'S3' : 'FSx for Lustre') },
          { id: 'where', header: 'Data', cell: where, minWidth: 220 },
          { id: 'access', header: 'Access', cell: (s) => s.access },
          {
            id: 'phase',
            header: 'Claim phase',
            cell: (s) => (
              <span data-testid={`storage-phase-${s.namespace}-${s.name}`} data-phase={s.claimPhase}>
                <StatusIndicator type={PHASE.get(s.claimPhase) ?? 'info'}>{s.claimPhase}</StatusIndicator>
              </span>
            ),
          },
          {
            id: 'mounts',
            header: 'Mounted by',
            cell: (s) =>
              s.mounts.length
                ? s.mounts.map((m) => `${m.namespace}/${m.pod}${m.node ? ` on ${m.node}` : ''}`).join(', ')
                : '—',
          },
          {
            id: 'actions',
            header: 'Actions',
            cell: (s) => (
              <SpaceBetween direction="horizontal" size="xxs">
                <Link
                  href={clusterPath(cluster, region, `storage/${encodeURIComponent(storageItem(s))}`)}
                  onFollow={follow}
                  data-testid={`storage-browse-${s.namespace}-${s.name}`}
                >
                  Browse
                </Link>
                <Button
                  variant="inline-link"
                  onClick={() => setRemoving(s)}
                  data-testid={`storage-remove-${s.namespace}-${s.name}`}
                >
                  Remove
                </Button>
              </SpaceBetween>
            ),
          },
        ]}
        empty={<Box textAlign="center">No storage yet</Box>}
      />
      {list.data && <KeptStorageTable cluster={cluster} region={region} kept={list.data.kept} />}
      {list.data && (!list.data.drivers['s3-csi-driver'] || !list.data.drivers['fsx-csi-driver']) && (
        <Box variant="small" color="text-status-inactive" data-testid="storage-drivers">
          {[
            !list.data.drivers['s3-csi-driver'] && 'S3 storage needs the Mountpoint for S3 CSI driver feature',
            !list.data.drivers['fsx-csi-driver'] && 'FSx storage needs the FSx for Lustre CSI driver feature',
          ]
            .filter(Boolean)
            .join('; ')}
          {' — turn it on under Features.'}
        </Box>
      )}
      {browsing && (
        <StorageBrowser
          key={`${browsing.namespace}/${browsing.name}`}
          cluster={cluster}
          region={region}
          storage={browsing}
          onClose={() => navigate(clusterPath(cluster, region, 'storage'))}
        />
      )}
      {adding && list.data && (
        <AddStorageModal
          cluster={cluster}
          region={region}
          drivers={list.data.drivers}
          onDismiss={() => setAdding(false)}
          onStarted={started}
        />
      )}
      {removing && (
        <RemoveStorageModal
          cluster={cluster}
          region={region}
          storage={removing}
          onDismiss={() => setRemoving(null)}
          onStarted={started}
        />
      )}
    </SpaceBetween>
  );
}
