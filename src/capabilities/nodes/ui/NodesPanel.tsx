import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Pagination from '@cloudscape-design/components/pagination';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import type { NodeActionKind, NodeHealthState, NodeView } from '@kit/api/types.js';
import { CloudClockAt, CloudTime } from '@kit/components/CloudTime.js';
import { ShortfallAlert } from '@kit/components/ClusterHealth.js';
import { useCloudTimeLabel } from '@kit/hooks/cloud-clock.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useLiveNodes } from '@kit/hooks/use-live-nodes.js';
import { clusterPath, nodePath } from '@kit/lib/format.js';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useAvailabilityZones } from '../../catalog/ui/index.js';
import { useInstanceGroups } from '../../instance-groups/ui/index.js';
import { useNodePage } from './api.js';
import { HEALTH_LABEL, HEALTH_STATES, NodeHealthIndicator, suggestedActionLabel } from './health.js';
import { NodeActionModal, type NodeActionTarget } from './NodeActionModal.js';
import { NodeDetailModal } from './NodeDetailModal.js';

/** Rows per page: the server's default page, small enough for any browser whatever the cluster size. */
export const NODES_PAGE_SIZE = 50;

interface Filters {
  group: string;
  health: '' | NodeHealthState;
  zone: string;
}
const NO_FILTERS: Filters = { group: '', health: '', zone: '' };

/** A zone reads as one word: the table wraps long cells, never this one. */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

const accelerators = (n: NodeView) =>
  [
    n.allocatable.gpus ? String(n.allocatable.gpus) : '',
    n.allocatable.neuronDevices ? `${n.allocatable.neuronDevices} Neuron` : '',
  ]
    .filter(Boolean)
    .join(' + ') || '0';

/**
 * Cloudscape's Pagination takes no test ids for its arrows; give them stable ones
 * (`nodes-next-page`, `nodes-previous-page`) after each render.
 */
function usePaginationTestIds(ref: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const buttons = root.querySelectorAll('button');
    buttons[0]?.setAttribute('data-testid', 'nodes-previous-page');
    buttons[buttons.length - 1]?.setAttribute('data-testid', 'nodes-next-page');
  });
}

/**
 * The cluster's nodes, one server page at a time: filters (group, health, zone) and pages are the
 * server's, so a 5,000-node cluster costs the browser 50 rows. The page refreshes every 10 s and
 * keeps showing while the next answer loads. Actions follow the escalation investigate → reboot → replace.
 * A node's detail has its own URL (/clusters/:name/nodes/<instance id>, the tab's `item`).
 */
export function NodesPanel({ cluster, region, item }: { cluster: string; region: string; item?: string }) {
  const cloudLabel = useCloudTimeLabel();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  // tokens[i] is the nextToken that opens page i + 1 (undefined for the first page): the way back.
  const [tokens, setTokens] = useState<Array<string | undefined>>([undefined]);
  const [selected, setSelected] = useState<NodeView[]>([]);
  const [acting, setActing] = useState<NodeActionTarget | null>(null);
  const navigate = useNavigate();
  // The region stays in the URL only when the page was opened with one.
  const urlRegion = useSearchParams()[0].get('region') ?? undefined;
  const detail = item ?? null;
  const setDetail = (instanceId: string | null) =>
    navigate(instanceId ? nodePath(cluster, urlRegion, instanceId) : clusterPath(cluster, urlRegion, 'nodes'));
  const paginationRef = useRef<HTMLDivElement>(null);
  usePaginationTestIds(paginationRef);

  useLiveNodes(cluster, region);
  const groups = useInstanceGroups(cluster, region);
  const zones = useAvailabilityZones(region);
  const page = useNodePage(cluster, region, {
    group: filters.group || undefined,
    health: filters.health || undefined,
    availabilityZone: filters.zone || undefined,
    limit: NODES_PAGE_SIZE,
    nextToken: tokens[tokens.length - 1],
  });
  const data = page.data;
  const nodes = data?.nodes ?? [];
  const changing = page.isPlaceholderData;
  const pageNumber = tokens.length;
  const pages = data ? Math.max(1, Math.ceil(data.total / NODES_PAGE_SIZE)) : 1;

  const setFilter = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setTokens([undefined]);
    setSelected([]);
  };
  const goTo = (index: number) => {
    // Only pages already visited (their tokens are on the stack) or the next one can be opened.
    if (index <= tokens.length) setTokens((t) => t.slice(0, index));
    else if (index === tokens.length + 1 && data?.nextToken) setTokens((t) => [...t, data.nextToken]);
    setSelected([]);
  };

  const groupOptions: SelectProps.Option[] = [
    { value: '', label: 'All instance groups' },
    ...(groups.data ?? []).map((g) => ({
      value: g.name,
      label: g.name,
      description: `${g.instanceType} · ${g.currentCount} / ${g.targetCount}`,
    })),
  ];
  const healthOptions: SelectProps.Option[] = [
    {
      value: '',
      label: 'Any health',
      labelTag: data ? String(HEALTH_STATES.reduce((s, h) => s + data.counts[h], 0)) : undefined,
    },
    ...HEALTH_STATES.map((h) => ({
      value: h,
      label: HEALTH_LABEL[h],
      labelTag: data ? String(data.counts[h]) : undefined,
    })),
  ];
  const zoneOptions: SelectProps.Option[] = [
    { value: '', label: 'All Availability Zones' },
    ...(zones.data ?? []).map((z) => ({ value: z.name, label: z.name, description: z.zoneId })),
  ];
  const pick = (options: SelectProps.Option[], value: string) => options.find((o) => o.value === value) ?? options[0]!;

  const act = (action: NodeActionKind) =>
    setActing({
      action,
      nodes: selected,
      ...(action === 'deep-health-check' && selected.length === 0 ? { group: filters.group } : {}),
    });
  const none = selected.length === 0;
  const counts = data?.counts;
  const summary = counts
    ? HEALTH_STATES.filter((h) => counts[h] > 0)
        .map((h) => `${counts[h]} ${h}`)
        .join(', ')
    : '';

  return (
    <>
      <ShortfallAlert shortfalls={data?.shortfalls} />
      <Table
        data-testid="nodes-table"
        items={nodes}
        trackBy="instanceId"
        selectionType="multi"
        // The instance (the way to a node's detail) stays in view when a narrow screen scrolls the table sideways.
        stickyColumns={{ first: 1 }}
        selectedItems={selected}
        onSelectionChange={({ detail }) => setSelected(detail.selectedItems)}
        ariaLabels={{
          selectionGroupLabel: 'Node selection',
          allItemsSelectionLabel: () => 'Select every node on this page',
          itemSelectionLabel: (_, n) => `Select ${n.instanceId}`,
        }}
        loading={page.isLoading}
        loadingText="Loading nodes"
        wrapLines
        header={
          <Header
            variant="h2"
            counter={data ? `(${data.total})` : undefined}
            description={
              <>
                <span data-testid="nodes-total" data-total={data?.total}>
                  {data ? `${data.total} node${data.total === 1 ? '' : 's'}` : 'Counting nodes…'}
                </span>
                {summary && ` (${summary})`}
                {data && `, page ${pageNumber} of ${pages}.`}
                {page.dataUpdatedAt > 0 && (
                  <CloudClockAt
                    localMs={page.dataUpdatedAt}
                    lead=" Updated "
                    tail=", every 10 s."
                    testId="nodes-updated"
                  />
                )}
                {page.error && data && (
                  <Box color="text-status-warning" display="inline" data-testid="nodes-refresh-error">
                    {' '}
                    The last refresh failed: <ProblemText error={page.error} />
                  </Box>
                )}
              </>
            }
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button disabled={none} onClick={() => act('reboot')} data-testid="node-action-reboot">
                  Reboot
                </Button>
                <Button disabled={none} onClick={() => act('replace')} data-testid="node-action-replace">
                  Replace
                </Button>
                <Button disabled={none} onClick={() => act('delete')} data-testid="node-action-delete">
                  Delete
                </Button>
                <Button
                  disabled={none && !filters.group}
                  onClick={() => act('deep-health-check')}
                  data-testid="node-action-dhc"
                  ariaLabel={none && filters.group ? `Deep health check of every node of ${filters.group}` : undefined}
                >
                  Deep health check
                </Button>
              </SpaceBetween>
            }
          >
            Nodes
          </Header>
        }
        filter={
          <SpaceBetween direction="horizontal" size="xs">
            <div data-testid="nodes-filter-group" style={{ minWidth: 220 }}>
              <Select
                selectedOption={pick(groupOptions, filters.group)}
                onChange={({ detail }) => setFilter({ group: detail.selectedOption.value ?? '' })}
                options={groupOptions}
                statusType={groups.isLoading ? 'loading' : 'finished'}
                ariaLabel="Filter by instance group"
              />
            </div>
            <div data-testid="nodes-filter-health" style={{ minWidth: 200 }}>
              <Select
                selectedOption={pick(healthOptions, filters.health)}
                onChange={({ detail }) =>
                  setFilter({ health: (detail.selectedOption.value ?? '') as Filters['health'] })
                }
                options={healthOptions}
                ariaLabel="Filter by health"
              />
            </div>
            <div data-testid="nodes-filter-zone" style={{ minWidth: 200 }}>
              <Select
                selectedOption={pick(zoneOptions, filters.zone)}
                onChange={({ detail }) => setFilter({ zone: detail.selectedOption.value ?? '' })}
                options={zoneOptions}
                statusType={zones.isLoading ? 'loading' : 'finished'}
                ariaLabel="Filter by Availability Zone"
              />
            </div>
            {changing && (
              <Box color="text-status-inactive" padding={{ top: 'xs' }} data-testid="nodes-loading">
                Loading…
              </Box>
            )}
          </SpaceBetween>
        }
        pagination={
          <div ref={paginationRef} data-testid="nodes-pagination">
            <Pagination
              currentPageIndex={pageNumber}
              pagesCount={pageNumber + (data?.nextToken ? 1 : 0)}
              openEnd={!!data?.nextToken}
              disabled={changing || !data}
              onChange={({ detail }) => goTo(detail.currentPageIndex)}
              ariaLabels={{
                nextPageLabel: 'Next page',
                previousPageLabel: 'Previous page',
                pageLabel: (n) => `Page ${n} of the nodes`,
              }}
            />
          </div>
        }
        columnDefinitions={[
          {
            id: 'instance',
            header: 'Instance',
            isRowHeader: true,
            // An instance id (i- and 17 hex digits) on one line.
            minWidth: 190,
            cell: (n) => (
              <span data-testid={`node-row-${n.instanceId}`}>
                <Button
                  variant="inline-link"
                  onClick={() => setDetail(n.instanceId)}
                  ariaLabel={`Details of ${n.instanceId}`}
                >
                  {n.instanceId}
                </Button>
              </span>
            ),
          },
          {
            // A group's nodes share one type and zone: one column for the three fits a 1280 px laptop screen.
            id: 'group',
            header: 'Group, type and zone',
            cell: (n) => (
              <>
                {n.instanceGroupName}
                <Box variant="small" display="block">
                  {n.instanceType}
                </Box>
                <Box variant="small" display="block">
                  <span style={NO_WRAP}>{n.availabilityZone ?? '—'}</span>
                </Box>
              </>
            ),
          },
          {
            id: 'health',
            header: 'Health',
            // Wide enough for a reason to read in two or three lines, narrow enough for a 1280 px laptop screen.
            minWidth: 180,
            cell: (n) => (
              <span data-testid={`node-health-${n.instanceId}`} data-state={n.health.state} data-code={n.health.code}>
                <NodeHealthIndicator state={n.health.state} />
                <Box variant="small" display="block">
                  {n.health.reason}
                </Box>
              </span>
            ),
          },
          {
            id: 'next',
            header: 'Suggested action',
            cell: (n) => (
              <span data-testid={`node-next-${n.instanceId}`}>{suggestedActionLabel(n.health.suggestedAction)}</span>
            ),
          },
          { id: 'gpus', header: 'GPUs', cell: accelerators },
          { id: 'pods', header: 'Pods', cell: (n) => n.podCount },
          // Date over time: one column less wide on a laptop screen.
          {
            id: 'launched',
            header: cloudLabel('Launched'),
            cell: (n) => (
              <span style={{ display: 'inline-block', maxWidth: 90 }}>
                <CloudTime iso={n.launchTime} />
              </span>
            ),
          },
        ]}
        empty={
          page.error && !data ? (
            <Box textAlign="center" color="text-status-error" data-testid="nodes-error">
              <ProblemText error={page.error} />
            </Box>
          ) : (
            <Box textAlign="center" data-testid="nodes-empty">
              {filters.group || filters.health || filters.zone
                ? 'No nodes match these filters'
                : 'This cluster has no nodes yet'}
            </Box>
          )
        }
      />
      {detail && (
        <NodeDetailModal
          cluster={cluster}
          region={region}
          instanceId={detail}
          onDismiss={() => setDetail(null)}
          onAction={(action, node) => {
            setDetail(null);
            setActing({ action, nodes: [node] });
          }}
        />
      )}
      {acting && (
        <NodeActionModal
          cluster={cluster}
          region={region}
          target={acting}
          onDismiss={() => {
            setActing(null);
            setSelected([]);
          }}
        />
      )}
    </>
  );
}
