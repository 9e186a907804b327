import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useLiveStatus } from '../hooks/live-context.js';
import type { Accepted, OperationView } from './types.js';

/**
 * The query keys the live channel (web/src/hooks/LiveUpdatesProvider.tsx) and the pages share. A capability keys its
 * own queries in its `ui/api.ts`, under one of these prefixes: under `keys.clusters` what every operation change
 * refreshes, under `keys.nodes(cluster)` what the live "nodes changed" refreshes.
 */
export const keys = {
  config: ['config'] as const,
  clusters: ['clusters'] as const,
  nodes: (cluster: string, region?: string) => ['nodes', cluster, region ?? ''] as const,
  operations: ['operations'] as const,
  operationList: ['operations', 'list'] as const,
  operation: (id: string) => ['operations', 'detail', id] as const,
};

export const isTerminal = (op: Pick<OperationView, 'status'>) =>
  op.status === 'succeeded' || op.status === 'failed' || op.status === 'cancelled';

/** While the WebSocket is down, anything that changes on its own is polled every 5 s. */
export function usePollInterval(): number | false {
  return useLiveStatus().connected ? false : 5000;
}

/**
 * A mutation that starts an operation: its answer seeds the operation's page, and what the operation
 * changes (every cluster view by default, or `refresh`) is read again, then `onStarted` (usually: go to
 * the operation). Every "start" button of the UI is one of these.
 */
export function useStartOperation<Args = void>(
  start: (args: Args) => Promise<Accepted>,
  onStarted: (accepted: Accepted) => void,
  refresh: readonly QueryKey[] = [keys.clusters],
) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: start,
    onSuccess: (accepted) => {
      qc.setQueryData(keys.operation(accepted.operation.id), accepted.operation);
      for (const queryKey of refresh) void qc.invalidateQueries({ queryKey });
      onStarted(accepted);
    },
  });
}
