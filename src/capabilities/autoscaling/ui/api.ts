import { keys, usePollInterval } from '@kit/api/queries.js';
import { rest } from '@kit/api/rest.js';
import type { Accepted, AutoscalingView, SetAutoscalingInput } from '@kit/api/types.js';
import { useQuery } from '@tanstack/react-query';
import { AUTOSCALING_PATHS } from '../paths.js';

/** The autoscaling capability's REST calls and query (its path is the capability's paths.ts). */

// Under 'clusters' (keys.clusters): every operation change refreshes it.
export const autoscalingKeys = {
  one: (cluster: string, region?: string) => [...keys.clusters, 'autoscaling', cluster, region ?? ''] as const,
};

export const getAutoscaling = (cluster: string, region?: string) =>
  rest(AUTOSCALING_PATHS.one, { name: cluster }).get<AutoscalingView>({ region });
export const setAutoscaling = (cluster: string, body: SetAutoscalingInput) =>
  rest(AUTOSCALING_PATHS.one, { name: cluster }).put<Accepted>({ body });

export function useAutoscaling(cluster: string, region?: string) {
  const poll = usePollInterval();
  return useQuery({
    queryKey: autoscalingKeys.one(cluster, region),
    queryFn: () => getAutoscaling(cluster, region),
    refetchInterval: poll || 30_000,
  });
}
