import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import type { ForgetKeptStorageAnswer, KeptStorageView } from '@domain/schemas/storage.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { formatTime } from '@kit/lib/format.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { forgetKeptStorage, storageKeys } from './api.js';

const wrap = { whiteSpace: 'normal', overflowWrap: 'anywhere' } as const;
const label = (k: KeptStorageView) => (k.namespace === 'default' ? k.name : `${k.namespace}/${k.name}`);

/** Forgetting does not delete the data: the dialog says what becomes of it, before and after. */
function ForgetModal({
  cluster,
  region,
  kept,
  onDismiss,
  onForgotten,
}: {
  cluster: string;
  region: string;
  kept: KeptStorageView;
  onDismiss(): void;
  onForgotten(a: ForgetKeptStorageAnswer): void;
}) {
  const qc = useQueryClient();
  const forget = useMutation({
    mutationFn: () => forgetKeptStorage(cluster, region, kept),
    onSuccess: (a) => {
      void qc.invalidateQueries({ queryKey: storageKeys.list(cluster, region) });
      onForgotten(a);
    },
  });
  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={`Forget kept storage ${label(kept)}?`}
      data-testid="kept-forget-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              loading={forget.isPending}
              onClick={() => forget.mutate()}
              data-testid="kept-forget-confirm"
            >
              Forget
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="s">
        <Box variant="p">
          <span style={wrap}>{kept.dataName}</span> is not deleted now. It stops being listed here, and deleting cluster{' '}
          {cluster} no longer keeps it on this storage's account:{' '}
          {kept.madeByInstantStart
            ? "if InstantStart made it for this storage, it is released (its InstantStart tags removed) and stays in your account as your own; if it is the cluster's own bucket, the cluster's delete deletes it unless it keeps storage."
            : 'InstantStart did not make it, so nothing of it changes.'}
        </Box>
        {forget.error && (
          <Alert type="error" header="The storage was not forgotten">
            <ProblemText error={forget.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}

/** Storages removed keeping their data: kept, not mounted — also by the cluster's delete — until forgotten. */
export function KeptStorageTable({
  cluster,
  region,
  kept,
}: {
  cluster: string;
  region: string;
  kept: readonly KeptStorageView[];
}) {
  const [forgetting, setForgetting] = useState<KeptStorageView | null>(null);
  const [forgotten, setForgotten] = useState<ForgetKeptStorageAnswer | null>(null);
  if (kept.length === 0 && !forgotten) return null;
  return (
    <>
      <Table
        data-testid="kept-storage-table"
        items={[...kept]}
        trackBy={(k) => `${k.namespace}/${k.name}`}
        wrapLines
        stickyColumns={{ first: 0, last: 1 }}
        header={
          <Header
            variant="h2"
            counter={`(${kept.length})`}
            description="Removed keeping their data. Deleting the cluster keeps this data too, until you forget it here."
          >
            Kept storage
          </Header>
        }
        columnDefinitions={[
          {
            id: 'name',
            header: 'Name',
            isRowHeader: true,
            cell: (k) => <span data-testid={`kept-row-${k.namespace}-${k.name}`}>{label(k)}</span>,
          },
          { id: 'state', header: 'State', cell: (k) => <StatusIndicator type="stopped">{k.state}</StatusIndicator> },
          { id: 'kind', header: 'Kind', cell: (k) => (k.kind === 's3' ? 'S3' : 'FSx for Lustre') },
          { id: 'data', header: 'Data kept', cell: (k) => <span style={wrap}>{k.dataName}</span>, minWidth: 220 },
          {
            id: 'made',
            header: 'Made by',
            cell: (k) => (k.madeByInstantStart ? 'InstantStart' : 'you (not InstantStart)'),
          },
          { id: 'kept', header: 'Kept since', cell: (k) => formatTime(k.keptAt) },
          {
            id: 'actions',
            header: 'Actions',
            cell: (k) => (
              <Button
                variant="inline-link"
                onClick={() => setForgetting(k)}
                data-testid={`kept-forget-${k.namespace}-${k.name}`}
              >
                Forget
              </Button>
            ),
          },
        ]}
        empty={<Box textAlign="center">No kept storage</Box>}
      />
      {forgotten && (
        <Alert type="success" dismissible onDismiss={() => setForgotten(null)} data-testid="kept-forgotten">
          {forgotten.message}
        </Alert>
      )}
      {forgetting && (
        <ForgetModal
          cluster={cluster}
          region={region}
          kept={forgetting}
          onDismiss={() => setForgetting(null)}
          onForgotten={(a) => {
            setForgetting(null);
            setForgotten(a);
          }}
        />
      )}
    </>
  );
}
