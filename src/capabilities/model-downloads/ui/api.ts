import type { ModelDownloadList, StartModelDownloadRequestSchema } from '@domain/schemas/model-downloads.js';
import { useStartOperation } from '@kit/api/queries.js';
import { rest } from '@kit/api/rest.js';
import type { Accepted } from '@kit/api/types.js';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { MODEL_DOWNLOAD_PATHS } from '../paths.js';

/** The model-downloads REST calls the UI makes, and their queries (kept with the capability). */

export type StartModelDownloadInput = z.input<typeof StartModelDownloadRequestSchema>;

export const modelDownloadKeys = {
  list: (cluster: string, region?: string) => ['model-downloads', cluster, region ?? ''] as const,
};

export const listModelDownloads = (cluster: string, region?: string) =>
  rest(MODEL_DOWNLOAD_PATHS.list, { name: cluster }).get<ModelDownloadList>({ region });

export const startModelDownload = (cluster: string, body: StartModelDownloadInput, idempotencyKey: string) =>
  rest(MODEL_DOWNLOAD_PATHS.list, { name: cluster }).post<Accepted>({ body, idempotencyKey });

/** The cluster's downloads: every 2 s while one is unfinished (its progress moves in S3, not in our events), else every 30 s. */
export function useModelDownloads(cluster: string, region?: string) {
  return useQuery({
    queryKey: modelDownloadKeys.list(cluster, region),
    queryFn: () => listModelDownloads(cluster, region),
    refetchInterval: (q) =>
      q.state.data?.downloads.some((d) => !['succeeded', 'failed', 'cancelled'].includes(d.status)) ? 2000 : 30_000,
  });
}

export function useStartModelDownload(cluster: string, region: string, onStarted: (a: Accepted) => void) {
  return useStartOperation(
    ({ body, key }: { body: StartModelDownloadInput; key: string }) =>
      startModelDownload(cluster, { ...body, region }, key),
    onStarted,
    [modelDownloadKeys.list(cluster, region)],
  );
}
