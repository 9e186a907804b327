import { keys } from '@kit/api/queries.js';
import { rest } from '@kit/api/rest.js';
import type {
  Accepted,
  ClusterEvents,
  NodeDetail,
  NodeList,
  NodeListParams,
  StartDeepHealthCheckInput,
} from '@kit/api/types.js';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { NODE_PATHS } from '../paths.js';

/** The nodes capability's REST calls and queries (its paths are the capability's paths.ts). */

// Under 'nodes' (keys.nodes), not 'clusters': a 5,000-node page read follows its own 10 s rhythm, not every operation
// note; the live channel's "nodes changed" refreshes them all.
export const nodeKeys = {
  page: (cluster: string, region: string | undefined, params: NodeListParams) =>
    [...keys.nodes(cluster, region), 'page', params] as const,
  one: (cluster: string, region: string | undefined, instanceId: string) =>
    [...keys.nodes(cluster, region), 'detail', instanceId] as const,
  events: (cluster: string, region: string | undefined, group?: string) =>
    [...keys.nodes(cluster, region), 'events', group ?? ''] as const,
};

/** One page of nodes, filtered on the server; `nextToken` comes from the previous page. */
export const listNodes = (cluster: string, params: NodeListParams, region?: string) =>
  rest(NODE_PATHS.list, { name: cluster }).get<NodeList>({ region, ...params });
export const getNode = (cluster: string, instanceId: string, region?: string) =>
  rest(NODE_PATHS.one, { name: cluster, nodeId: instanceId }).get<NodeDetail>({ region });
/** Reboot needs no confirmation; replace and delete send `confirm: true` (the user typed the word). Answers the operation. */
export const actOnNodes = (
  cluster: string,
  action: 'reboot' | 'replace' | 'delete',
  nodeIds: string[],
  region?: string,
) =>
  rest(NODE_PATHS[action], { name: cluster }).post<Accepted>({
    body: { nodeIds, ...(action === 'reboot' ? {} : { confirm: true }), ...(region ? { region } : {}) },
  });
export const startDeepHealthCheck = (cluster: string, body: StartDeepHealthCheckInput) =>
  rest(NODE_PATHS.deepHealthCheck, { name: cluster }).post<Accepted>({ body });
export const listClusterEvents = (
  cluster: string,
  params: { group?: string; nodeId?: string; limit?: number },
  region?: string,
) => rest(NODE_PATHS.events, { name: cluster }).get<ClusterEvents>({ region, ...params });

/** How often the node views refresh themselves: one page, one node or one event list at a time. */
export const NODES_REFRESH_MS = 10_000;

/**
 * One page of a cluster's nodes. Only this page is fetched and kept; it refreshes every 10 s and
 * keeps showing the previous answer while the next one (another page, other filters) loads.
 */
export function useNodePage(cluster: string, region: string | undefined, params: NodeListParams) {
  return useQuery({
    queryKey: nodeKeys.page(cluster, region, params),
    queryFn: () => listNodes(cluster, params, region),
    refetchInterval: NODES_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}
export function useNode(cluster: string, region: string | undefined, instanceId: string | undefined) {
  return useQuery({
    queryKey: nodeKeys.one(cluster, region, instanceId ?? ''),
    queryFn: () => getNode(cluster, instanceId!, region),
    enabled: !!instanceId,
    refetchInterval: NODES_REFRESH_MS,
  });
}
export function useClusterEvents(cluster: string, region: string | undefined, group: string | undefined, limit = 100) {
  return useQuery({
    queryKey: [...nodeKeys.events(cluster, region, group), limit],
    queryFn: () => listClusterEvents(cluster, { group, limit }, region),
    refetchInterval: NODES_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}
