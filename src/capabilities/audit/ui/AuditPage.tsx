import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import { operationKindLabel } from '@domain/naming.js';
import type { AuditEvent } from '@domain/schemas/audit.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { formatTime, operationPath } from '@kit/lib/format.js';
import { useMemo, useState } from 'react';
import { type AuditFilters, downloadAuditExport, useAuditEvents } from './api.js';

const FACES = [
  { value: '', label: 'Any face' },
  { value: 'ui', label: 'UI' },
  { value: 'rest', label: 'REST' },
  { value: 'mcp', label: 'MCP' },
];
const OUTCOMES = [
  { value: '', label: 'Any outcome' },
  { value: 'accepted', label: 'Accepted' },
  { value: 'refused', label: 'Refused' },
  { value: 'failed', label: 'Failed' },
];

/** The audit timeline (docs/AUDIT.md): every mutating request through any face, newest first. */
export function AuditPage() {
  const follow = useFollow();
  const [face, setFace] = useState('');
  const [outcome, setOutcome] = useState('');
  const [kind, setKind] = useState('');
  const [target, setTarget] = useState('');
  const filters = useMemo<AuditFilters>(
    () => ({
      ...(face ? { face: face as AuditFilters['face'] } : {}),
      ...(outcome ? { outcome: outcome as AuditFilters['outcome'] } : {}),
      ...(kind.trim() ? { kind: kind.trim() } : {}),
      ...(target.trim() ? { target: target.trim() } : {}),
    }),
    [face, outcome, kind, target],
  );
  const events = useAuditEvents(filters);
  const items = events.data?.pages.flatMap((p) => p.events) ?? [];
  return (
    <Table
      data-testid="audit-table"
      variant="full-page"
      items={items}
      trackBy="id"
      loading={events.isLoading}
      loadingText="Loading the audit timeline"
      filter={
        <SpaceBetween direction="horizontal" size="xs">
          <Select
            data-testid="audit-face"
            selectedOption={FACES.find((f) => f.value === face)!}
            onChange={(e) => setFace(e.detail.selectedOption.value ?? '')}
            options={FACES}
          />
          <Select
            data-testid="audit-outcome"
            selectedOption={OUTCOMES.find((o) => o.value === outcome)!}
            onChange={(e) => setOutcome(e.detail.selectedOption.value ?? '')}
            options={OUTCOMES}
          />
          <Input
            data-testid="audit-kind"
            value={kind}
            onChange={(e) => setKind(e.detail.value)}
            placeholder="Action or kind (rebootNodes, create-cluster)"
            type="search"
          />
          <Input
            data-testid="audit-target"
            value={target}
            onChange={(e) => setTarget(e.detail.value)}
            placeholder="Target contains"
            type="search"
          />
        </SpaceBetween>
      }
      header={
        <Header
          variant="awsui-h1-sticky"
          counter={events.data ? `(${items.length}${events.hasNextPage ? '+' : ''})` : undefined}
          description="Every change made through the UI, the REST API or MCP: who (the token's id, never the token), through which face and client, what, the AWS request ids and Kubernetes objects of the calls it made, and how it ended."
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              <Button iconName="download" onClick={() => void downloadAuditExport(filters)}>
                Export JSON lines
              </Button>
              <Button
                iconName="refresh"
                ariaLabel="Refresh"
                onClick={() => void events.refetch()}
                loading={events.isFetching && !events.isLoading && !events.isFetchingNextPage}
              />
            </SpaceBetween>
          }
        >
          Audit
        </Header>
      }
      columnDefinitions={[
        { id: 'at', header: 'When', cell: (e) => formatTime(e.at), isRowHeader: true },
        {
          id: 'face',
          header: 'Face',
          cell: (e) => (
            <span data-testid={`audit-face-${e.id}`} title={e.client}>
              {e.face.toUpperCase()}
              {e.client ? ` · ${clientName(e.client)}` : ''}
            </span>
          ),
          maxWidth: 220,
        },
        { id: 'who', header: 'Who', cell: (e) => who(e) },
        { id: 'action', header: 'Action', cell: (e) => actionWords(e.action) },
        { id: 'target', header: 'Target', cell: (e) => e.target, maxWidth: 260 },
        { id: 'outcome', header: 'Outcome', cell: (e) => <Outcome event={e} /> },
        {
          id: 'operation',
          header: 'Operation',
          cell: (e) =>
            e.operationId ? (
              <Link href={operationPath(e.operationId)} onFollow={follow}>
                {e.operationKind ? operationKindLabel(e.operationKind) : e.operationId} · {e.operationStatus ?? '—'}
              </Link>
            ) : (
              '—'
            ),
        },
        {
          id: 'aws',
          header: 'AWS request ids',
          cell: (e) =>
            e.awsCalls.length ? (
              <ExpandableSection
                headerText={`${e.awsCalls.length} call${e.awsCalls.length === 1 ? '' : 's'}: ${callSummary(e.awsCalls)}`}
                data-testid={`audit-aws-${e.id}`}
              >
                <Box fontSize="body-s">
                  {e.awsCalls.map((c, i) => (
                    <div key={`${c.requestId ?? ''}-${i}`}>
                      {c.operation}: {c.requestId ?? 'no answer'}
                    </div>
                  ))}
                </Box>
              </ExpandableSection>
            ) : (
              '—'
            ),
          minWidth: 220,
          maxWidth: 420,
        },
        {
          id: 'kube',
          header: 'Kubernetes objects',
          cell: (e) =>
            e.kubeRefs.length ? (
              <ExpandableSection
                headerText={`${e.kubeRefs.length} object${e.kubeRefs.length === 1 ? '' : 's'}`}
                data-testid={`audit-kube-${e.id}`}
              >
                <Box fontSize="body-s">
                  {e.kubeRefs.map((r, i) => (
                    <div key={`${r.kind}-${r.name}-${i}`}>
                      {`${r.verb} ${r.kind}/${r.namespace ? `${r.namespace}/` : ''}${r.name}`}
                    </div>
                  ))}
                </Box>
              </ExpandableSection>
            ) : (
              '—'
            ),
          maxWidth: 320,
        },
      ]}
      wrapLines
      footer={
        events.hasNextPage ? (
          <Box textAlign="center">
            <Button onClick={() => void events.fetchNextPage()} loading={events.isFetchingNextPage}>
              Load older
            </Button>
          </Box>
        ) : undefined
      }
      empty={
        events.error ? (
          <Box color="text-status-error">
            <ProblemText error={events.error} />
          </Box>
        ) : (
          <Box textAlign="center">No changes recorded{Object.keys(filters).length ? ' that match' : ' yet'}</Box>
        )
      }
    />
  );
}

function who(e: AuditEvent): string {
  if (e.actor.kind === 'token') return `token ${e.actor.tokenId} (${e.actor.scope})`;
  return e.actor.kind === 'local' ? 'local' : 'no valid token';
}

function Outcome({ event: e }: { event: AuditEvent }) {
  const text = `${e.status}${e.replay ? ' · replay' : ''}${e.error ? ` · ${e.error}` : ''}`;
  const type = e.outcome === 'accepted' ? 'success' : e.outcome === 'refused' ? 'warning' : 'error';
  return <StatusIndicator type={type}>{text}</StatusIndicator>;
}

/** A route's action as words: `createCluster` → "Create cluster" (the filter and the export keep the id). */
function actionWords(action: string): string {
  const words = action.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

/**
 * The client as a person names it: an MCP client's own name as it is, a browser's User-Agent as the browser
 * ("Chrome 156"); the whole header is the cell's title.
 */
function clientName(client: string): string {
  const browser = /(Edg|Firefox|Chrome|Safari)\/(\d+)/.exec(client);
  if (client.startsWith('Mozilla/') && browser) return `${browser[1] === 'Edg' ? 'Edge' : browser[1]} ${browser[2]}`;
  return client.length > 40 ? `${client.slice(0, 39)}…` : client;
}

/** The first calls of an event by operation name, e.g. "BatchRebootClusterNodes" or "CreateRole, CreateVpc, …". */
function callSummary(calls: readonly { operation: string }[]): string {
  const names = [...new Set(calls.map((c) => c.operation))];
  return names.length <= 2 ? names.join(', ') : `${names.slice(0, 2).join(', ')}, …`;
}
