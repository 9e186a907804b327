import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import { formatBytes } from '@domain/model-downloads.js';
import type { ModelDownloadView } from '@domain/schemas/model-downloads.js';
import type { ClusterPanelProps } from '@kit/capability.js';
import { Breakable } from '@kit/components/Breakable.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { formatTime, inFormWords, operationPath } from '@kit/lib/format.js';
import { useState } from 'react';
import { useStorageList } from '../../storage/ui/index.js';
import { useModelDownloads } from './api.js';
import { downloadStatus } from './download-status.js';
import { StartDownloadModal } from './StartDownloadModal.js';

function Progress({ d }: { d: ModelDownloadView }) {
  const p = d.progress;
  if (!p) return <span data-testid="model-download-progress">—</span>;
  const percent =
    p.totalBytes > 0
      ? Math.min(100, Math.round((p.bytes / p.totalBytes) * 100))
      : p.totalFiles > 0
        ? Math.round((p.files / p.totalFiles) * 100)
        : 0;
  return (
    <span data-testid="model-download-progress" data-files={p.files} data-total-files={p.totalFiles}>
      <ProgressBar
        value={percent}
        additionalInfo={`${p.files} / ${p.totalFiles} files · ${formatBytes(p.bytes)} of ${formatBytes(p.totalBytes)}`}
      />
    </span>
  );
}

/** The files that landed (a succeeded download), or why it failed. */
function DownloadDetail({ d }: { d: ModelDownloadView }) {
  if (d.error) {
    return (
      <Alert type="error" header={`${d.modelId} was not downloaded`} data-testid="model-download-failure">
        <Box variant="code">
          <span style={{ whiteSpace: 'pre-wrap' }}>{inFormWords(d.error.message, undefined)}</span>
        </Box>
      </Alert>
    );
  }
  if (!d.files) return <Box color="text-status-inactive">Files are listed once the download has finished.</Box>;
  return (
    <Table
      data-testid="model-download-files"
      variant="embedded"
      header={
        <Header variant="h3" counter={`(${d.files.length})`} description={d.destination}>
          Files landed
        </Header>
      }
      items={d.files}
      columnDefinitions={[
        { id: 'path', header: 'File', cell: (f) => <Breakable text={f.path} /> },
        { id: 'size', header: 'Size', cell: (f) => formatBytes(f.size) },
      ]}
    />
  );
}

/**
 * Model downloads of the cluster: start one (Hugging Face Hub → one of the cluster's S3 storages),
 * follow each one's progress (files and bytes landed in S3) and its Job as Kubernetes reports it,
 * and see the files that landed.
 */
export function ModelDownloadsPanel({ cluster, region }: ClusterPanelProps) {
  const list = useModelDownloads(cluster, region);
  const storageList = useStorageList(cluster, region);
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<string | undefined>();
  // What a download may write into (the server checks the same): S3 storages of the namespace `default`, read-write.
  const storages = (storageList.data?.storages ?? [])
    .filter((s) => s.kind === 's3' && s.access === 'read-write' && s.namespace === 'default')
    .map((s) => s.name);
  const downloads = list.data?.downloads ?? [];
  const chosen = downloads.find((d) => d.operationId === selected) ?? downloads[0];
  return (
    <SpaceBetween size="l">
      <Table
        data-testid="model-downloads-panel"
        loading={list.isLoading}
        loadingText="Loading model downloads"
        items={downloads}
        trackBy="operationId"
        selectionType="single"
        selectedItems={chosen ? [chosen] : []}
        onSelectionChange={({ detail: d }) => setSelected(d.selectedItems[0]?.operationId)}
        header={
          <Header
            variant="h2"
            counter={list.data ? `(${downloads.length})` : undefined}
            description="Hugging Face Hub models copied into the cluster's S3 storage by a Kubernetes Job running hf download."
            actions={
              <Button variant="primary" onClick={() => setOpen(true)} data-testid="model-download-start">
                Download a model
              </Button>
            }
          >
            Model downloads
          </Header>
        }
        empty={
          <Box textAlign="center" color="inherit">
            No model downloads yet.
          </Box>
        }
        wrapLines
        columnDefinitions={[
          {
            id: 'model',
            header: 'Model',
            minWidth: 170,
            cell: (d) => (
              <span data-testid="model-download-model-cell">
                <Breakable text={d.modelId} />
                <Box variant="small" display="block">
                  {d.revision}
                </Box>
              </span>
            ),
          },
          { id: 'destination', header: 'Destination', minWidth: 190, cell: (d) => <Breakable text={d.destination} /> },
          {
            // The Job under the status: one column less, so a long model id keeps its width on a laptop screen.
            id: 'status',
            header: 'Status and Job',
            minWidth: 150,
            cell: (d) => (
              <>
                <span data-testid="model-download-status" data-status={d.status}>
                  <StatusIndicator type={downloadStatus(d).type}>{downloadStatus(d).text}</StatusIndicator>
                </span>
                {d.job && (
                  <Box variant="small" display="block" data-testid="model-download-job">
                    <span title={d.job.message}>
                      <Breakable text={`Job ${d.job.name}: ${d.job.state}`} />
                    </span>
                  </Box>
                )}
              </>
            ),
          },
          { id: 'progress', header: 'Progress', cell: (d) => <Progress d={d} />, minWidth: 180 },
          { id: 'started', header: 'Started', cell: (d) => formatTime(d.createdAt) },
          {
            id: 'operation',
            header: 'Operation',
            cell: (d) => <Link href={operationPath(d.operationId)}>Details</Link>,
          },
        ]}
      />
      {list.error && (
        <Alert type="error" header="The model downloads could not be read">
          <ProblemText error={list.error} />
        </Alert>
      )}
      {chosen && (
        <Container
          header={<Header variant="h2">{`${chosen.modelId} @ ${chosen.revision}`}</Header>}
          data-testid="model-download-detail"
        >
          <DownloadDetail d={chosen} />
        </Container>
      )}
      {open && (
        <StartDownloadModal
          cluster={cluster}
          region={region}
          storages={storages}
          onDismiss={() => setOpen(false)}
          onStarted={(accepted) => {
            setOpen(false);
            setSelected(accepted.operation.id);
          }}
        />
      )}
    </SpaceBetween>
  );
}
