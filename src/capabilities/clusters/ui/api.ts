import type { DeletePlan } from '@domain/schemas/clusters.js';
import type { ClusterCost, ClusterPlan } from '@domain/schemas/plans.js';
import { keys, usePollInterval } from '@kit/api/queries.js';
import { rest } from '@kit/api/rest.js';
import type { Accepted, ActiveCluster, ClusterDetail, ClusterSummary, CreateClusterInput } from '@kit/api/types.js';
import { useQuery } from '@tanstack/react-query';
import { CLUSTER_PATHS } from '../paths.js';

/** The clusters capability's REST calls and queries (its paths are the capability's paths.ts). */

// Under 'clusters' (keys.clusters): every operation change refreshes them.
export const clusterKeys = {
  list: (region?: string) => [...keys.clusters, 'list', region ?? ''] as const,
  one: (name: string, region?: string) => [...keys.clusters, 'detail', name, region ?? ''] as const,
  active: [...keys.clusters, 'active'] as const,
};

type DeleteOptions = { region?: string; keepStorage?: boolean };

export const listClusters = (region?: string) =>
  rest(CLUSTER_PATHS.list)
    .get<{ clusters: ClusterSummary[] }>({ region })
    .then((r) => r.clusters);
export const getCluster = (name: string, region?: string) =>
  rest(CLUSTER_PATHS.one, { name }).get<ClusterDetail>({ region });
export const createCluster = (body: CreateClusterInput, idempotencyKey: string) =>
  rest(CLUSTER_PATHS.list).post<Accepted>({ body, idempotencyKey });
/** What a create would make and cost per hour (changes nothing). */
export const planCluster = (body: CreateClusterInput) => rest(CLUSTER_PATHS.plan).post<ClusterPlan>({ body });
export const getClusterCost = (name: string, region?: string) =>
  rest(CLUSTER_PATHS.cost, { name }).get<ClusterCost>({ region });
export const deleteCluster = (name: string, options: DeleteOptions = {}) =>
  rest(CLUSTER_PATHS.one, { name }).delete<Accepted>({
    query: { confirm: 'true', region: options.region, keepStorage: options.keepStorage ? 'true' : undefined },
  });
export const getDeletePlan = (name: string, options: DeleteOptions = {}) =>
  rest(CLUSTER_PATHS.deletePlan, { name }).get<DeletePlan>({
    region: options.region,
    keepStorage: options.keepStorage ? 'true' : undefined,
  });
export const getActiveCluster = () => rest(CLUSTER_PATHS.active).get<ActiveCluster>();
export const setActiveCluster = (name: string, region?: string) =>
  rest(CLUSTER_PATHS.active).put<ActiveCluster>({ body: { name, region } });

export function useClusters(region?: string) {
  const poll = usePollInterval();
  // Cluster status also moves without our operations (HyperPod's own updates): a slow refresh always.
  return useQuery({
    queryKey: clusterKeys.list(region),
    queryFn: () => listClusters(region),
    refetchInterval: poll || 30_000,
  });
}
/** One cluster; `enabled: false` stops every refetch (a page whose cluster is gone asks no more). */
export function useCluster(name: string, region?: string, options: { enabled?: boolean } = {}) {
  const poll = usePollInterval();
  return useQuery({
    queryKey: clusterKeys.one(name, region),
    queryFn: () => getCluster(name, region),
    refetchInterval: poll || 30_000,
    enabled: options.enabled ?? true,
  });
}
export function useActiveCluster() {
  return useQuery({ queryKey: clusterKeys.active, queryFn: getActiveCluster });
}
