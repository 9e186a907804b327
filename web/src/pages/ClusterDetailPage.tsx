import Alert from '@cloudscape-design/components/alert';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Tabs from '@cloudscape-design/components/tabs';
import { ProblemError } from '@kit/api/client.js';
import { keys } from '@kit/api/queries.js';
import type { ClusterDetail } from '@kit/api/types.js';
import type { ClusterTabId } from '@kit/capability.js';
import { ClusterHealthBadge } from '@kit/components/ClusterHealth.js';
import { OperationLink } from '@kit/components/OperationLink.js';
import { ProblemText, useNotifications } from '@kit/hooks/notifications.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { useLiveNodes } from '@kit/hooks/use-live-nodes.js';
import { clusterPath, operationPath } from '@kit/lib/format.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import {
  type ClusterDeletion,
  ClusterOverview,
  clusterKeys,
  DeleteClusterModal,
  setActiveCluster,
  useCluster,
  useClusterDeletion,
} from '../../../src/capabilities/clusters/ui/index.js';
import { CLUSTER_PAGE_TABS, CLUSTER_PANELS } from '../capabilities.js';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

/** The panels capabilities put on one tab; `item` is the rest of the URL (e.g. a node's id on the Nodes tab). */
function TabPanels({ tab, c, item }: { tab: ClusterTabId; c: ClusterDetail; item?: string }) {
  return (
    <SpaceBetween size="l">
      {CLUSTER_PANELS.filter((p) => p.tab === tab).map(({ id, Panel }) => (
        <div key={id} data-testid={`cluster-panel-${id}`}>
          <Panel cluster={c.name} region={c.region} item={item} />
        </div>
      ))}
    </SpaceBetween>
  );
}

/** What is left of a page whose cluster is gone: no stale status, no actions, nothing refetched. */
function ClusterGone({ name, deletion, error }: { name: string; deletion?: ClusterDeletion; error: unknown }) {
  const follow = useFollow();
  return (
    <Alert
      type="info"
      header={`Cluster ${name} no longer exists`}
      data-testid="cluster-gone"
      action={
        <Button href="/clusters" onFollow={follow}>
          All clusters
        </Button>
      }
    >
      {deletion?.status === 'succeeded' ? (
        <>
          It was deleted by operation{' '}
          <Link href={operationPath(deletion.id)} onFollow={follow}>
            {deletion.id}
          </Link>
          .
        </>
      ) : (
        <ProblemText error={error} />
      )}
    </Alert>
  );
}

/**
 * A cluster: its header (name, status badge, actions) above one tab per part of it, each at its own
 * URL (/clusters/:name/<tab>, an item of a tab at /clusters/:name/<tab>/<item>). The tabs and what
 * they hold come from the capabilities' `clusterPanels`. The page follows its cluster's delete as the
 * live channel reports it: while it runs, every action is off; once it succeeded (or the cluster
 * answers 404), the page says so and stops asking for the cluster.
 */
export function ClusterDetailPage() {
  const { name = '', tab = 'overview', item: first, part } = useParams();
  // A tab's item is the rest of the URL: one part (a node) or two (a training job's namespace and name).
  const item =
    first !== undefined && part !== undefined ? `${encodeURIComponent(first)}/${encodeURIComponent(part)}` : first;
  const [search] = useSearchParams();
  const region = search.get('region') ?? undefined;
  const navigate = useNavigate();
  const follow = useFollow();
  const qc = useQueryClient();
  const { notify, notifyError } = useNotifications();
  // Which cluster (name and Region) this page saw gone: that one is not asked for again.
  const pageKey = `${name}\n${region ?? ''}`;
  const [goneKey, setGoneKey] = useState<string>();
  const cluster = useCluster(name, region, { enabled: goneKey !== pageKey });
  const deletion = useClusterDeletion(name, region ?? cluster.data?.region, cluster.data?.activeOperation);
  const notFound = cluster.error instanceof ProblemError && cluster.error.status === 404;
  const gone = notFound || deletion?.status === 'succeeded';
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  useLiveNodes(name, region ?? cluster.data?.region);
  const setActive = useMutation({
    mutationFn: () => setActiveCluster(name, region ?? cluster.data?.region),
    onSuccess: (result) => {
      qc.setQueryData(clusterKeys.active, result);
      void qc.invalidateQueries({ queryKey: keys.clusters });
      notify({ type: 'success', header: `${name} is now the active cluster` });
    },
    onError: (err) => notifyError('Could not set the active cluster', err),
  });

  // Gone stops the refetches; the cached answer is dropped on leaving, so a cluster made again under
  // this name is read afresh next time.
  useEffect(() => {
    if (gone) setGoneKey(pageKey);
  }, [gone, pageKey]);
  const goneRef = useRef(gone);
  goneRef.current = gone;
  useEffect(
    () => () => void (goneRef.current && qc.removeQueries({ queryKey: clusterKeys.one(name, region), exact: true })),
    [qc, name, region],
  );

  if (gone) return <ClusterGone name={name} deletion={deletion} error={cluster.error} />;
  if (cluster.isLoading) return <Spinner size="large" />;
  if (!cluster.data) {
    return (
      <Alert type="error" header={`Cluster ${name}`} data-testid="cluster-error">
        <ProblemText error={cluster.error} />
      </Alert>
    );
  }
  const c = cluster.data;
  const beingDeleted = (!!deletion && !TERMINAL.has(deletion.status)) || c.status === 'Deleting';
  const activeTab = CLUSTER_PAGE_TABS.find((t) => t.id === tab);
  const content = (id: ClusterTabId) =>
    id === 'overview' ? (
      <ClusterOverview c={c} panels={<TabPanels tab={id} c={c} />} />
    ) : (
      <TabPanels tab={id} c={c} item={item} />
    );
  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description={
            c.eksClusterName ? `HyperPod cluster orchestrated by EKS cluster ${c.eksClusterName}` : 'HyperPod cluster'
          }
          info={
            <SpaceBetween direction="horizontal" size="xs" alignItems="center">
              {c.isActive && <Badge color="blue">Active</Badge>}
              <ClusterHealthBadge health={c.health} testId="cluster-header-health" />
            </SpaceBetween>
          }
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              <Button
                disabled={c.isActive || beingDeleted}
                loading={setActive.isPending}
                onClick={() => setActive.mutate()}
                data-testid="detail-set-active"
              >
                Set active
              </Button>
              <Button disabled={beingDeleted} onClick={() => setConfirmingDelete(true)} data-testid="detail-delete">
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
        {beingDeleted ? (
          <Alert type="warning" header={`Cluster ${c.name} is being deleted`} data-testid="cluster-deleting">
            Its actions are off until the delete ends.{' '}
            {deletion ? (
              <OperationLink
                op={c.activeOperation?.id === deletion.id ? c.activeOperation : { ...deletion, kind: 'delete-cluster' }}
              />
            ) : null}
          </Alert>
        ) : (
          c.activeOperation && (
            <Alert type="info" header="An operation is working on this cluster" data-testid="cluster-active-operation">
              <OperationLink op={c.activeOperation} />
            </Alert>
          )
        )}
        {activeTab ? (
          // A disabled fieldset turns off every button of every panel at once, those of capabilities to come included.
          <fieldset
            disabled={beingDeleted}
            aria-disabled={beingDeleted}
            style={{ border: 0, margin: 0, padding: 0, minWidth: 0, opacity: beingDeleted ? 0.6 : 1 }}
          >
            <Tabs
              data-testid="cluster-tabs"
              activeTabId={activeTab.id}
              onChange={({ detail }) => detail.activeTabHref && navigate(detail.activeTabHref)}
              tabs={CLUSTER_PAGE_TABS.map((t) => ({
                id: t.id,
                label: t.label,
                href: clusterPath(c.name, region, t.id),
                content: t.id === activeTab.id ? content(t.id) : null,
              }))}
            />
          </fieldset>
        ) : (
          <Alert type="error" header={`This cluster page has no tab "${tab}"`} data-testid="cluster-tab-unknown">
            <Box>
              Its tabs: {CLUSTER_PAGE_TABS.map((t) => t.label).join(', ')}.{' '}
              <Link href={clusterPath(c.name, region)} onFollow={follow}>
                Open the overview
              </Link>
            </Box>
          </Alert>
        )}
      </SpaceBetween>
      <DeleteClusterModal
        cluster={confirmingDelete ? { name: c.name, region: c.region } : null}
        onDismiss={() => setConfirmingDelete(false)}
        onDeleted={(accepted) => {
          setConfirmingDelete(false);
          navigate(operationPath(accepted.operation.id));
        }}
      />
    </ContentLayout>
  );
}
