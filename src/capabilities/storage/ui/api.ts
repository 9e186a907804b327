import type {
  AddStorageRequest,
  BrowseStorageAnswer,
  ForgetKeptStorageAnswer,
  StorageList,
} from '@domain/schemas/storage.js';
import { rest } from '@kit/api/rest.js';
import type { Accepted } from '@kit/api/types.js';
import { useLiveStatus } from '@kit/hooks/live-context.js';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { STORAGE_PATHS } from '../paths.js';

/** The storage tab's REST calls and queries (its paths are the capability's paths.ts). */

// Under 'clusters': every operation change (add-storage, remove-storage) refreshes the list.
export const storageKeys = {
  list: (cluster: string, region: string) => ['clusters', 'storage', cluster, region] as const,
  page: (cluster: string, region: string, namespace: string, name: string, path: string, token?: string) =>
    ['storage-objects', cluster, region, namespace, name, path, token ?? ''] as const,
};

export const listStorage = (cluster: string, region: string) =>
  rest(STORAGE_PATHS.list, { name: cluster }).get<StorageList>({ region });

export type AddStorageBody = Partial<AddStorageRequest> & Pick<AddStorageRequest, 'kind' | 'name'>;
export const addStorage = (cluster: string, region: string, body: AddStorageBody, idempotencyKey: string) =>
  rest(STORAGE_PATHS.list, { name: cluster }).post<Accepted>({ body: { ...body, region }, idempotencyKey });

export const removeStorage = (
  cluster: string,
  region: string,
  storage: { name: string; namespace: string },
  options: { force?: boolean; deleteData?: boolean; confirm?: string },
) =>
  rest(STORAGE_PATHS.one, { name: cluster, storage: storage.name }).delete<Accepted>({
    query: {
      region,
      namespace: storage.namespace,
      force: options.force ? 'true' : undefined,
      deleteData: options.deleteData ? 'true' : undefined,
      confirm: options.deleteData ? options.confirm : undefined,
    },
  });

export const forgetKeptStorage = (cluster: string, region: string, storage: { name: string; namespace: string }) =>
  rest(STORAGE_PATHS.kept, { name: cluster, storage: storage.name }).delete<ForgetKeptStorageAnswer>({
    query: { region, namespace: storage.namespace },
  });

export const browseStorage = (
  cluster: string,
  region: string,
  storage: { name: string; namespace: string },
  path: string,
  pageToken: string | undefined,
  limit: number,
) =>
  rest(STORAGE_PATHS.objects, { name: cluster, storage: storage.name }).get<BrowseStorageAnswer>({
    region,
    namespace: storage.namespace,
    path: path || undefined,
    pageToken,
    limit,
  });

export function useStorageList(cluster: string, region: string) {
  const poll = useLiveStatus().connected ? false : 5000;
  // Claim phases and mounts move without our operations (pods come and go): a slow refresh always.
  return useQuery({
    queryKey: storageKeys.list(cluster, region),
    queryFn: () => listStorage(cluster, region),
    refetchInterval: poll || 15_000,
  });
}

export function useStoragePage(
  cluster: string,
  region: string,
  storage: { name: string; namespace: string },
  path: string,
  token: string | undefined,
  limit: number,
) {
  return useQuery({
    queryKey: [...storageKeys.page(cluster, region, storage.namespace, storage.name, path, token), limit],
    queryFn: () => browseStorage(cluster, region, storage, path, token, limit),
    placeholderData: keepPreviousData,
  });
}
