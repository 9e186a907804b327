import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Header from '@cloudscape-design/components/header';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import type { ModelPoolView } from '@domain/schemas/inference.js';
import type { ClusterPanelProps } from '@kit/capability.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useAssignPoolWorker, usePools } from './api.js';
import { option } from '@kit/lib/form-kit.js';

const wrap = { whiteSpace: 'normal', overflowWrap: 'anywhere' } as const;

interface Row {
  pool: ModelPoolView;
  worker: ModelPoolView['workers'][number];
}

/**
 * The model pools' assignment: every warm worker with the endpoint it serves; choosing another endpoint of its pool
 * moves that one worker (one label change), and the traffic follows. Shown only when the cluster has a pool.
 */
export function PoolsTable({ cluster, region }: Pick<ClusterPanelProps, 'cluster' | 'region'>) {
  const pools = usePools(cluster, region);
  const assign = useAssignPoolWorker(cluster, region);
  const list = pools.data ?? [];
  if (list.length === 0 && !pools.error) return null;
  const rows: Row[] = list.flatMap((pool) => pool.workers.map((worker) => ({ pool, worker })));
  const moving = assign.isPending ? assign.variables?.pod : undefined;
  return (
    <SpaceBetween size="s">
      <Table
        data-testid="inference-pool-workers"
        items={rows}
        trackBy={(r) => `${r.pool.namespace}/${r.pool.name}/${r.worker.pod}`}
        wrapLines
        header={
          <Header
            variant="h2"
            counter={`(${rows.length})`}
            description="Warm workers of the model pools and the endpoint each serves. Choose another endpoint to move a worker: its requests go there from the next one."
          >
            Model pool workers
          </Header>
        }
        empty={
          <Box textAlign="center" color="inherit">
            The pools have no workers.
          </Box>
        }
        columnDefinitions={[
          {
            id: 'pool',
            header: 'Pool',
            cell: (r) => `${r.pool.name}${r.pool.namespace !== 'default' ? ` (${r.pool.namespace})` : ''}`,
          },
          { id: 'worker', header: 'Worker', cell: (r) => <span style={wrap}>{r.worker.pod}</span> },
          { id: 'node', header: 'Node', cell: (r) => <span style={wrap}>{r.worker.node ?? 'not scheduled'}</span> },
          {
            id: 'ready',
            header: 'Ready',
            cell: (r) => (
              <StatusIndicator type={r.worker.ready ? 'success' : 'pending'}>
                {r.worker.ready ? 'Ready' : 'Starting'}
              </StatusIndicator>
            ),
          },
          {
            id: 'endpoint',
            header: 'Serves endpoint',
            minWidth: 220,
            cell: (r) => {
              const options = [
                ...(r.worker.endpoint ? [] : [option('', 'None')]),
                ...r.pool.endpoints.map((e) => option(e)),
              ];
              return (
                <div data-testid={`inference-pool-assign-${r.worker.pod}`}>
                  <Select
                    selectedOption={options.find((o) => o.value === (r.worker.endpoint ?? '')) ?? null}
                    options={options}
                    disabled={moving !== undefined}
                    statusType={moving === r.worker.pod ? 'loading' : 'finished'}
                    placeholder="No endpoint"
                    ariaLabel={`Endpoint served by ${r.worker.pod}`}
                    expandToViewport
                    onChange={({ detail }) => {
                      const endpoint = detail.selectedOption.value;
                      if (endpoint && endpoint !== r.worker.endpoint)
                        assign.mutate({
                          pool: { namespace: r.pool.namespace, name: r.pool.name },
                          pod: r.worker.pod,
                          endpoint,
                        });
                    }}
                  />
                </div>
              );
            },
          },
        ]}
      />
      {(assign.error || pools.error) && (
        <Alert type="error" header={assign.error ? 'The worker was not moved' : 'The model pools could not be read'}>
          <ProblemText error={assign.error ?? pools.error} />
        </Alert>
      )}
    </SpaceBetween>
  );
}
