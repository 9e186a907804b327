import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useLiveStatus } from '../hooks/live-context.js';
import * as endpoints from './endpoints.js';
import type { Accepted, NodeListParams, OperationView } from './types.js';

/** Query keys in one place, so the live-update code and the pages agree. */
export const keys = {
  config: ['config'] as const,
  regions: ['regions'] as const,
  zones: (region?: string) => ['availability-zones', region ?? ''] as const,
  instanceTypes: (region?: string, zone?: string) => ['instance-types', region ?? '', zone ?? ''] as const,
  trainingPlans: (region?: string) => ['training-plans', region ?? ''] as const,
  kubernetesVersions: (region?: string) => ['kubernetes-versions', region ?? ''] as const,
  clusters: ['clusters'] as const,
  clusterList: (region?: string) => ['clusters', 'list', region ?? ''] as const,
  cluster: (name: string, region?: string) => ['clusters', 'detail', name, region ?? ''] as const,
  activeCluster: ['clusters', 'active'] as const,
  // Under 'clusters' so that every operation change refreshes them too.
  instanceGroups: (cluster: string, region?: string) => ['clusters', 'instance-groups', cluster, region ?? ''] as const,
  autoscaling: (cluster: string, region?: string) => ['clusters', 'autoscaling', cluster, region ?? ''] as const,
  // Nodes are not under 'clusters': a 5,000-node page read should follow its own 10 s rhythm, not every operation note.
  nodes: (cluster: string, region?: string) => ['nodes', cluster, region ?? ''] as const,
  nodePage: (cluster: string, region: string | undefined, params: NodeListParams) =>
    ['nodes', cluster, region ?? '', 'page', params] as const,
  node: (cluster: string, region: string | undefined, instanceId: string) =>
    ['nodes', cluster, region ?? '', 'detail', instanceId] as const,
  clusterEvents: (cluster: string, region: string | undefined, group?: string) =>
    ['nodes', cluster, region ?? '', 'events', group ?? ''] as const,
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

export function useConfig() {
  return useQuery({ queryKey: keys.config, queryFn: endpoints.getConfig, staleTime: Infinity });
}
export function useRegions() {
  return useQuery({ queryKey: keys.regions, queryFn: endpoints.listRegions, staleTime: 10 * 60_000 });
}
export function useAvailabilityZones(region: string | undefined) {
  return useQuery({
    queryKey: keys.zones(region),
    queryFn: () => endpoints.listAvailabilityZones(region),
    enabled: !!region,
    staleTime: 5 * 60_000,
  });
}
export function useInstanceTypes(region: string | undefined, zone: string | undefined) {
  return useQuery({
    queryKey: keys.instanceTypes(region, zone),
    queryFn: () => endpoints.listInstanceTypes(region, zone),
    enabled: !!region && !!zone,
    staleTime: 5 * 60_000,
  });
}
export function useKubernetesVersions(region: string | undefined) {
  return useQuery({
    queryKey: keys.kubernetesVersions(region),
    queryFn: () => endpoints.listKubernetesVersions(region),
    enabled: !!region,
    staleTime: 5 * 60_000,
  });
}
export function useTrainingPlans(region: string | undefined) {
  return useQuery({
    queryKey: keys.trainingPlans(region),
    queryFn: () => endpoints.listTrainingPlans(region),
    enabled: !!region,
    staleTime: 60_000,
  });
}

export function useClusters(region?: string) {
  const poll = usePollInterval();
  // Cluster status also moves without our operations (HyperPod's own updates): a slow refresh always.
  return useQuery({
    queryKey: keys.clusterList(region),
    queryFn: () => endpoints.listClusters(region),
    refetchInterval: poll || 30_000,
  });
}
/** One cluster; `enabled: false` stops every refetch (a page whose cluster is gone asks no more). */
export function useCluster(name: string, region?: string, options: { enabled?: boolean } = {}) {
  const poll = usePollInterval();
  return useQuery({
    queryKey: keys.cluster(name, region),
    queryFn: () => endpoints.getCluster(name, region),
    refetchInterval: poll || 30_000,
    enabled: options.enabled ?? true,
  });
}
export function useInstanceGroups(cluster: string, region?: string) {
  const poll = usePollInterval();
  return useQuery({
    queryKey: keys.instanceGroups(cluster, region),
    queryFn: () => endpoints.listInstanceGroups(cluster, region),
    refetchInterval: poll || 30_000,
  });
}

/** How often the node views refresh themselves: one page, one node or one event list at a time. */
export const NODES_REFRESH_MS = 10_000;

/**
 * One page of a cluster's nodes. Only this page is fetched and kept; it refreshes every 10 s and
 * keeps showing the previous answer while the next one (another page, other filters) loads.
 */
export function useNodePage(cluster: string, region: string | undefined, params: NodeListParams) {
  return useQuery({
    queryKey: keys.nodePage(cluster, region, params),
    queryFn: () => endpoints.listNodes(cluster, params, region),
    refetchInterval: NODES_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}
export function useNode(cluster: string, region: string | undefined, instanceId: string | undefined) {
  return useQuery({
    queryKey: keys.node(cluster, region, instanceId ?? ''),
    queryFn: () => endpoints.getNode(cluster, instanceId!, region),
    enabled: !!instanceId,
    refetchInterval: NODES_REFRESH_MS,
  });
}
export function useClusterEvents(cluster: string, region: string | undefined, group: string | undefined, limit = 100) {
  return useQuery({
    queryKey: [...keys.clusterEvents(cluster, region, group), limit],
    queryFn: () => endpoints.listClusterEvents(cluster, { group, limit }, region),
    refetchInterval: NODES_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}
export function useAutoscaling(cluster: string, region?: string) {
  const poll = usePollInterval();
  return useQuery({
    queryKey: keys.autoscaling(cluster, region),
    queryFn: () => endpoints.getAutoscaling(cluster, region),
    refetchInterval: poll || 30_000,
  });
}

export function useActiveCluster() {
  return useQuery({ queryKey: keys.activeCluster, queryFn: endpoints.getActiveCluster });
}

export function useOperations() {
  const poll = usePollInterval();
  return useQuery({
    queryKey: keys.operationList,
    queryFn: () => endpoints.listOperations({ limit: 100 }),
    refetchInterval: poll,
  });
}
export function useOperation(id: string) {
  const poll = usePollInterval();
  return useQuery({
    queryKey: keys.operation(id),
    queryFn: () => endpoints.getOperation(id),
    refetchInterval: (q) => (q.state.data && isTerminal(q.state.data) ? false : poll),
  });
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
