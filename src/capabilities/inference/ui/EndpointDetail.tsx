import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import type { EndpointDetail as EndpointDetailView } from '@domain/schemas/inference.js';
import { ProblemError } from '@kit/api/client.js';
import { CloudTime } from '@kit/components/CloudTime.js';
import { useCloudTimeLabel } from '@kit/hooks/cloud-clock.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { clusterPath, nodePath } from '@kit/lib/format.js';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { type EndpointRef, useEndpoint } from './api.js';
import { ChatBox } from './ChatBox.js';
import { DeleteEndpointModal } from './DeleteEndpointModal.js';
import { EndpointLogs } from './EndpointLogs.js';
import { engineAndModel, KIND_LABEL, ROUTING_LABEL, StateIndicator, VARIANT_LABEL } from './endpoint-status.js';
import { ROUTER_POLICIES, RouterPanel } from './RouterPanel.js';
import { ScalingPanel } from './ScalingPanel.js';

const wrap = { whiteSpace: 'normal', overflowWrap: 'anywhere' } as const;
/** Kubernetes node names of HyperPod nodes carry the instance id: hyperpod-i-<id>. */
const instanceOf = (node: string) => /(i-[0-9a-f]+)$/.exec(node)?.[1];

const code = (text: string | undefined) =>
  text ? (
    <Box variant="code" fontSize="body-s">
      <span style={wrap}>{text}</span>
    </Box>
  ) : (
    '—'
  );

function Pods({ cluster, region, e }: { cluster: string; region: string | undefined; e: EndpointDetailView }) {
  const follow = useFollow();
  return (
    <Table
      data-testid="inference-pods"
      variant="container"
      header={
        <Header variant="h2" counter={`(${e.pods.length})`}>
          Pods
        </Header>
      }
      items={e.pods}
      trackBy="name"
      wrapLines
      empty={
        <Box textAlign="center" color="inherit">
          No pods yet.
        </Box>
      }
      columnDefinitions={[
        { id: 'pod', header: 'Pod', cell: (p) => <span style={wrap}>{p.name}</span> },
        {
          id: 'node',
          header: 'Node',
          cell: (p) => {
            const id = p.node ? instanceOf(p.node) : undefined;
            return id ? (
              <Link href={nodePath(cluster, region, id)} onFollow={follow}>
                {p.node}
              </Link>
            ) : (
              (p.node ?? 'not scheduled')
            );
          },
        },
        { id: 'phase', header: 'Phase', cell: (p) => p.phase },
        { id: 'ready', header: 'Ready', cell: (p) => (p.ready ? 'Yes' : 'No') },
        { id: 'restarts', header: 'Restarts', cell: (p) => p.restarts },
        { id: 'reason', header: 'Reason', cell: (p) => <span style={wrap}>{p.reason ?? '—'}</span> },
      ]}
    />
  );
}

function Events({ e }: { e: EndpointDetailView }) {
  const cloudLabel = useCloudTimeLabel();
  return (
    <Table
      data-testid="inference-events"
      variant="container"
      header={
        <Header variant="h2" description="Newest first.">
          Events
        </Header>
      }
      items={e.events}
      wrapLines
      empty={
        <Box textAlign="center" color="inherit">
          No recent events.
        </Box>
      }
      columnDefinitions={[
        { id: 'time', header: cloudLabel('Last seen'), cell: (v) => <CloudTime iso={v.lastSeen} /> },
        { id: 'type', header: 'Type', cell: (v) => v.type },
        { id: 'reason', header: 'Reason', cell: (v) => v.reason },
        { id: 'object', header: 'Object', cell: (v) => <span style={wrap}>{v.object}</span> },
        {
          id: 'message',
          header: 'Message',
          cell: (v) => <span style={wrap}>{`${v.message}${v.count && v.count > 1 ? ` (×${v.count})` : ''}`}</span>,
        },
      ]}
    />
  );
}

/**
 * One endpoint: its state and why, replicas, addresses, the objects it is made of, scaling, a chat to try it, its
 * pods, events and the tail of its logs. Delete asks first, naming what goes.
 */
export function EndpointDetail({
  cluster,
  region,
  endpoint: ref,
}: {
  cluster: string;
  region: string;
  endpoint: EndpointRef;
}) {
  const cloudLabel = useCloudTimeLabel();
  const endpoint = useEndpoint(cluster, region, ref);
  const navigate = useNavigate();
  const follow = useFollow();
  const urlRegion = useSearchParams()[0].get('region') ?? undefined;
  const [deleting, setDeleting] = useState(false);
  const back = clusterPath(cluster, urlRegion, 'endpoints');
  const e = endpoint.data;
  if (endpoint.error) {
    const gone = endpoint.error instanceof ProblemError && endpoint.error.status === 404;
    return (
      <Alert
        type={gone ? 'info' : 'error'}
        header={
          gone ? `Endpoint ${ref.endpoint} is not there (any more)` : `Endpoint ${ref.endpoint} could not be read`
        }
        data-testid="inference-endpoint-error"
        action={
          <Button href={back} onFollow={follow}>
            All endpoints
          </Button>
        }
      >
        <ProblemText error={endpoint.error} />
      </Alert>
    );
  }
  if (!e) return <Box color="text-status-inactive">Loading endpoint…</Box>;
  return (
    <SpaceBetween size="l">
      {e.state === 'Failed' && e.reason && (
        <Alert type="error" header="The endpoint failed" data-testid="inference-endpoint-failed">
          {e.reason}
        </Alert>
      )}
      <Container
        data-testid="inference-endpoint-detail"
        header={
          <Header
            variant="h2"
            description={`${KIND_LABEL[e.kind]} endpoint in namespace ${e.namespace}.`}
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button href={back} onFollow={follow}>
                  All endpoints
                </Button>
                <Button
                  onClick={() => setDeleting(true)}
                  disabled={e.state === 'Deleting'}
                  data-testid="inference-delete"
                >
                  Delete
                </Button>
              </SpaceBetween>
            }
          >
            {e.name}
          </Header>
        }
      >
        <KeyValuePairs
          columns={4}
          items={[
            { label: 'State', value: <StateIndicator endpoint={e} /> },
            ...(e.operatorState ? [{ label: 'Operator state', value: e.operatorState }] : []),
            { label: 'Engine · model', value: <span style={wrap}>{engineAndModel(e)}</span> },
            {
              label: 'Replicas ready',
              value: <span data-testid="inference-detail-replicas">{`${e.replicas.ready}/${e.replicas.desired}`}</span>,
            },
            { label: 'Instance types', value: e.instanceTypes.join(', ') || '—' },
            ...(e.variant ? [{ label: 'Reached through', value: VARIANT_LABEL[e.variant] }] : []),
            ...(e.pool ? [{ label: 'Model pool', value: e.pool }] : []),
            ...(e.routing ? [{ label: 'Intelligent routing', value: `${ROUTING_LABEL[e.routing]} (fixed)` }] : []),
            ...(e.router
              ? [
                  {
                    label: 'SGLang router',
                    value: `${ROUTER_POLICIES.find((p) => p.value === e.router?.policy)?.label ?? e.router.policy} · ${e.router.ready ? 'ready' : 'not ready'} · Service ${e.router.service}`,
                  },
                ]
              : []),
            {
              label: 'Autoscaling',
              value: e.autoscaling
                ? `${e.autoscaling.min}–${e.autoscaling.max} replicas${e.autoscaling.active === undefined ? '' : e.autoscaling.active ? ' · active' : ' · idle'}`
                : 'Off',
            },
            { label: 'In-cluster URL', value: code(e.urls.inCluster) },
            { label: 'Load balancer', value: code(e.urls.loadBalancer) },
            { label: 'Invocation path', value: code(`/${e.invocationPath.replace(/^\//, '')}`) },
            { label: cloudLabel('Created'), value: <CloudTime iso={e.createdAt} /> },
            {
              label: 'Made of',
              value: (
                <span style={wrap} data-testid="inference-detail-objects">
                  {e.objects.map((o) => `${o.kind} ${o.name}`).join(', ') || '—'}
                </span>
              ),
            },
          ]}
        />
      </Container>
      <ChatBox cluster={cluster} region={region} endpoint={ref} ready={e.replicas.ready > 0} />
      <ScalingPanel cluster={cluster} region={region} endpoint={e} />
      {e.engine === 'sglang' && e.kind === 'container' && e.variant !== 'pool' && !e.router && (
        <RouterPanel cluster={cluster} region={region} endpoint={e} />
      )}
      <Pods cluster={cluster} region={urlRegion} e={e} />
      <EndpointLogs cluster={cluster} region={region} endpoint={ref} />
      <Events e={e} />
      {deleting && (
        <DeleteEndpointModal
          cluster={cluster}
          region={region}
          endpoint={e}
          onDismiss={() => setDeleting(false)}
          onDeleted={() => navigate(back)}
        />
      )}
    </SpaceBetween>
  );
}
