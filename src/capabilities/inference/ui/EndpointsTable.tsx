import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import type { EndpointView } from '@domain/schemas/inference.js';
import type { ClusterPanelProps } from '@kit/capability.js';
import { CloudAge } from '@kit/components/CloudTime.js';
import { useCloudClockNote } from '@kit/hooks/cloud-clock.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useEndpoints } from './api.js';
import { DeployContainerModal } from './DeployContainerModal.js';
import { DeployManagedModal } from './DeployManagedModal.js';
import { endpointPath, engineAndModel, KIND_LABEL, primaryUrl, StateIndicator } from './endpoint-status.js';

const wrap = { whiteSpace: 'normal', overflowWrap: 'anywhere' } as const;

/** What the filter box matches: the columns a person reads. */
const haystack = (e: EndpointView) =>
  [e.name, e.namespace, KIND_LABEL[e.kind], e.engine ?? '', e.model, e.state, e.reason ?? '', primaryUrl(e) ?? '']
    .join(' ')
    .toLowerCase();

/**
 * The cluster's inference endpoints, both kinds, as Kubernetes reports them, polled (faster while one changes).
 * "Deploy container" and "Deploy managed" open the two forms; a row opens the endpoint's detail.
 */
export function EndpointsTable({ cluster, region }: Pick<ClusterPanelProps, 'cluster' | 'region'>) {
  const endpoints = useEndpoints(cluster, region);
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<'container' | 'managed' | undefined>();
  const follow = useFollow();
  const navigate = useNavigate();
  const clockNote = useCloudClockNote();
  const urlRegion = useSearchParams()[0].get('region') ?? undefined;
  const all = endpoints.data?.endpoints ?? [];
  const needle = filter.trim().toLowerCase();
  const items = needle ? all.filter((e) => haystack(e).includes(needle)) : all;
  const deployed = (ref: { namespace: string; name: string }) => {
    setOpen(undefined);
    navigate(endpointPath(cluster, urlRegion, ref));
  };
  const deployButtons = (
    <SpaceBetween direction="horizontal" size="xs">
      <Button onClick={() => setOpen('managed')} data-testid="inference-deploy-managed-open">
        Deploy managed
      </Button>
      <Button variant="primary" onClick={() => setOpen('container')} data-testid="inference-deploy-container-open">
        Deploy container
      </Button>
    </SpaceBetween>
  );
  return (
    <SpaceBetween size="l">
      <Table
        data-testid="inference-endpoints"
        loading={endpoints.isLoading}
        loadingText="Loading endpoints"
        items={items}
        trackBy={(e) => `${e.namespace}/${e.name}`}
        wrapLines
        header={
          <Header
            variant="h2"
            counter={endpoints.data ? `(${all.length})` : undefined}
            description={`Model endpoints as Kubernetes reports them now; refreshed every few seconds while one changes.${clockNote ? ` ${clockNote}` : ''}`}
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button
                  iconName="refresh"
                  ariaLabel="Refresh"
                  loading={endpoints.isFetching && !endpoints.isLoading}
                  onClick={() => void endpoints.refetch()}
                />
                {deployButtons}
              </SpaceBetween>
            }
          >
            Inference endpoints
          </Header>
        }
        filter={
          <TextFilter
            filteringText={filter}
            onChange={({ detail }) => setFilter(detail.filteringText)}
            filteringPlaceholder="Find endpoints by name, model or state"
            countText={needle ? `${items.length} matches` : undefined}
          />
        }
        empty={
          needle ? (
            <Box textAlign="center" color="inherit">
              No endpoint matches.
            </Box>
          ) : (
            <Box textAlign="center" color="inherit" data-testid="inference-empty">
              <SpaceBetween size="s">
                <b>No endpoints yet</b>
                <Box variant="p" color="inherit">
                  Serve a model with your own container (vLLM, SGLang or a custom image) behind a load balancer, a
                  cluster-internal service or a model pool, or deploy it through the HyperPod inference operator.
                </Box>
                {deployButtons}
              </SpaceBetween>
            </Box>
          )
        }
        columnDefinitions={[
          {
            id: 'name',
            header: 'Name',
            minWidth: 160,
            cell: (e) => (
              <span style={wrap}>
                <Link
                  href={endpointPath(cluster, urlRegion, e)}
                  onFollow={follow}
                  data-testid="inference-endpoint-link"
                >
                  {e.name}
                </Link>
                {e.namespace !== 'default' && (
                  <Box variant="small" display="block">
                    {e.namespace}
                  </Box>
                )}
              </span>
            ),
          },
          { id: 'kind', header: 'Kind', cell: (e) => KIND_LABEL[e.kind] },
          {
            id: 'model',
            header: 'Engine · model',
            minWidth: 180,
            cell: (e) => <span style={wrap}>{engineAndModel(e)}</span>,
          },
          { id: 'state', header: 'State', minWidth: 180, cell: (e) => <StateIndicator endpoint={e} /> },
          {
            id: 'replicas',
            header: 'Replicas',
            cell: (e) => (
              <span data-testid="inference-endpoint-replicas">{`${e.replicas.ready}/${e.replicas.desired}`}</span>
            ),
          },
          {
            id: 'url',
            header: 'URL',
            minWidth: 200,
            cell: (e) => {
              const url = primaryUrl(e);
              return url ? (
                <Box variant="code" fontSize="body-s">
                  <span style={wrap}>{url}</span>
                </Box>
              ) : (
                '—'
              );
            },
          },
          {
            id: 'created',
            header: 'Age',
            cell: (e) => <CloudAge iso={e.createdAt} testId={`endpoint-age-${e.name}`} />,
          },
        ]}
      />
      {endpoints.error && (
        <Alert type="error" header="The endpoints could not be read" data-testid="inference-endpoints-error">
          <ProblemText error={endpoints.error} />
        </Alert>
      )}
      {open === 'container' && (
        <DeployContainerModal
          cluster={cluster}
          region={region}
          onDismiss={() => setOpen(undefined)}
          onDeployed={deployed}
        />
      )}
      {open === 'managed' && (
        <DeployManagedModal
          cluster={cluster}
          region={region}
          operatorOn={endpoints.data?.inferenceOperator}
          onDismiss={() => setOpen(undefined)}
          onDeployed={deployed}
        />
      )}
    </SpaceBetween>
  );
}
