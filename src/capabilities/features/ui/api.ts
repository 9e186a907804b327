import type { FeatureChanges, FeaturePlanAnswer, FeaturesAnswer, FeaturesUnchanged } from '@domain/schemas/features.js';
import { usePollInterval } from '@kit/api/queries.js';
import { rest } from '@kit/api/rest.js';
import type { Accepted } from '@kit/api/types.js';
import { useQuery } from '@tanstack/react-query';
import { FEATURES_PATHS } from '../paths.js';

/** The features API as the panel uses it: read the actual state, plan a change, apply it. */

export const featureKeys = {
  all: (cluster: string, region?: string) => ['clusters', 'features', cluster, region ?? ''] as const,
};

export const getFeatures = (cluster: string, region?: string) =>
  rest(FEATURES_PATHS.list, { name: cluster }).get<FeaturesAnswer>({ region });

export const planFeatureChanges = (cluster: string, changes: FeatureChanges, region?: string) =>
  rest(FEATURES_PATHS.plan, { name: cluster }).post<FeaturePlanAnswer>({ query: { region }, body: changes });

/** 202 with the set-features operation, or 200 `{noOp: true}` when every key sent already matched (nothing started). */
export const applyFeatureChanges = (cluster: string, changes: FeatureChanges, region?: string) =>
  rest(FEATURES_PATHS.list, { name: cluster }).patch<Accepted | FeaturesUnchanged>({
    query: { region },
    body: changes,
  });

export const isAccepted = (answer: Accepted | FeaturesUnchanged): answer is Accepted => 'operation' in answer;

/** The cluster's features; polled faster while a change runs so each feature's state moves on screen. */
export function useFeatures(cluster: string, region?: string) {
  const poll = usePollInterval();
  return useQuery({
    queryKey: featureKeys.all(cluster, region),
    queryFn: () => getFeatures(cluster, region),
    refetchInterval: (q) =>
      q.state.data?.runningOperationId ||
      q.state.data?.features.some((f) => f.state === 'installing' || f.state === 'removing')
        ? Math.min(poll || 3000, 3000)
        : poll || 30_000,
  });
}
