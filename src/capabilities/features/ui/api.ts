import { useQuery } from '@tanstack/react-query';
import { api, qs } from '../../../../web/src/api/client.js';
import type { Accepted } from '../../../../web/src/api/types.js';
import { usePollInterval } from '../../../../web/src/api/queries.js';
import { apiPath } from '../../../domain/api-path.js';
import type {
  FeatureChanges,
  FeaturePlanAnswer,
  FeaturesAnswer,
  FeaturesUnchanged,
} from '../../../domain/schemas/features.js';
import { FEATURES_PATHS } from '../paths.js';

/** The features API as the panel uses it: read the actual state, plan a change, apply it. */

export const featureKeys = {
  all: (cluster: string, region?: string) => ['clusters', 'features', cluster, region ?? ''] as const,
};

export const getFeatures = (cluster: string, region?: string) =>
  api<FeaturesAnswer>(`${apiPath(FEATURES_PATHS.list, { name: cluster })}${qs({ region })}`);

export const planFeatureChanges = (cluster: string, changes: FeatureChanges, region?: string) =>
  api<FeaturePlanAnswer>(`${apiPath(FEATURES_PATHS.plan, { name: cluster })}${qs({ region })}`, {
    method: 'POST',
    body: changes,
  });

/** 202 with the set-features operation, or 200 `{noOp: true}` when every key sent already matched (nothing started). */
export const applyFeatureChanges = (cluster: string, changes: FeatureChanges, region?: string) =>
  api<Accepted | FeaturesUnchanged>(`${apiPath(FEATURES_PATHS.list, { name: cluster })}${qs({ region })}`, {
    method: 'PATCH',
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
