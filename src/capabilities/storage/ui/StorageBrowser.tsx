import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import BreadcrumbGroup from '@cloudscape-design/components/breadcrumb-group';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Pagination from '@cloudscape-design/components/pagination';
import Table from '@cloudscape-design/components/table';
import { CloudTime } from '@kit/components/CloudTime.js';
import { useCloudTimeLabel } from '@kit/hooks/cloud-clock.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useState } from 'react';
import { useStoragePage } from './api.js';

const PAGE_SIZE = 50;

/** 1.5 KiB, 20.0 MiB: sizes as people read them. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

type Entry =
  | { kind: 'folder'; name: string; path: string }
  | { kind: 'object'; name: string; key: string; size: number; lastModified?: string };

/**
 * One storage's contents, a folder at a time: its sub-folders (S3 common prefixes) and objects with
 * sizes and dates, a page of 50 at a time (S3's continuation tokens, kept so Previous goes back).
 * FSx for Lustre cannot be listed through AWS APIs: the server says so and the browser shows it.
 */
export function StorageBrowser({
  cluster,
  region,
  storage,
  onClose,
}: {
  cluster: string;
  region: string;
  storage: { name: string; namespace: string };
  onClose(): void;
}) {
  const cloudLabel = useCloudTimeLabel();
  const [path, setPath] = useState('');
  // tokens[i] is the token of page i (undefined for the first).
  const [tokens, setTokens] = useState<Array<string | undefined>>([undefined]);
  const [page, setPage] = useState(0);
  const answer = useStoragePage(cluster, region, storage, path, tokens[page], PAGE_SIZE);
  const open = (next: string) => {
    setPath(next);
    setTokens([undefined]);
    setPage(0);
  };
  const goTo = (index: number) => {
    if (index === tokens.length && answer.data?.nextToken) setTokens([...tokens, answer.data.nextToken]);
    setPage(index);
  };
  const data = answer.data;
  const entries: Entry[] = data
    ? [
        ...data.folders.map((f) => ({ kind: 'folder' as const, ...f })),
        ...data.objects.map((o) => ({ kind: 'object' as const, ...o })),
      ]
    : [];
  const crumbs = [
    { text: storage.name, href: '' },
    ...path
      .split('/')
      .filter(Boolean)
      .map((part, i, all) => ({ text: part, href: `${all.slice(0, i + 1).join('/')}/` })),
  ];
  return (
    <div data-testid="storage-browser" data-path={path}>
      <Table
        data-testid="storage-objects"
        loading={answer.isLoading}
        items={entries}
        trackBy={(e) => (e.kind === 'folder' ? `d:${e.path}` : `o:${e.key}`)}
        wrapLines
        header={
          <Header
            variant="h2"
            description={
              data?.bucket ? <Box variant="code">{`s3://${data.bucket}/${data.prefix ?? ''}`}</Box> : undefined
            }
            actions={
              <Button onClick={onClose} data-testid="storage-browser-close">
                Close
              </Button>
            }
          >
            {`Contents of ${storage.namespace === 'default' ? storage.name : `${storage.namespace}/${storage.name}`}`}
          </Header>
        }
        filter={
          <BreadcrumbGroup
            items={crumbs}
            ariaLabel="Folder"
            onFollow={(e) => {
              e.preventDefault();
              open(e.detail.href);
            }}
          />
        }
        pagination={
          data?.browsable !== false && (
            <Pagination
              data-testid="storage-pages"
              currentPageIndex={page + 1}
              pagesCount={tokens.length}
              openEnd={!!data?.nextToken}
              onChange={({ detail }) => goTo(detail.currentPageIndex - 1)}
              onNextPageClick={({ detail }) => goTo(detail.requestedPageIndex - 1)}
              ariaLabels={{
                nextPageLabel: 'Next page',
                previousPageLabel: 'Previous page',
                pageLabel: (n) => `Page ${n}`,
              }}
            />
          )
        }
        columnDefinitions={[
          {
            id: 'name',
            header: 'Name',
            isRowHeader: true,
            cell: (e) =>
              e.kind === 'folder' ? (
                <Button
                  variant="inline-link"
                  iconName="folder"
                  onClick={() => open(e.path)}
                  data-testid={`storage-folder-${e.name}`}
                >
                  {e.name}
                </Button>
              ) : (
                <span data-testid="storage-object">{e.name}</span>
              ),
          },
          {
            id: 'size',
            header: 'Size',
            cell: (e) =>
              e.kind === 'object' ? <span data-testid="storage-object-size">{formatBytes(e.size)}</span> : '—',
          },
          {
            id: 'modified',
            header: cloudLabel('Last modified'),
            cell: (e) => (e.kind === 'object' && e.lastModified ? <CloudTime iso={e.lastModified} /> : '—'),
          },
        ]}
        empty={
          data?.browsable === false ? (
            <Alert type="info" header="Not browsable" data-testid="storage-not-browsable">
              {data.message}
            </Alert>
          ) : answer.error ? (
            <Alert type="error" header="The contents could not be read">
              <ProblemText error={answer.error} />
            </Alert>
          ) : (
            <Box textAlign="center">Empty folder</Box>
          )
        }
      />
    </div>
  );
}
