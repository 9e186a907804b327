import type { KubePort } from '../../cloud/ports.js';
import { PreconditionError } from '../../domain/errors.js';
import { readStorages } from '../../workflows/storage-volumes.js';

/**
 * Where a download may write: an S3 storage of the cluster (the storage capability's list, read
 * live from Kubernetes), named as that list names it — its claim, in the namespace `default` where
 * the download Job runs — Bound, and mounted read-write.
 */

export const STORAGE_NAMESPACE = 'default';

export interface DownloadStorage {
  name: string;
  namespace: string;
  claimName: string;
  bucket: string;
  /** The bucket's Region when the volume names one (Mountpoint's `region` option). */
  bucketRegion?: string;
  /** Key prefix the volume shows (`prefix` option), '' or ending in '/'. */
  prefix: string;
}

/**
 * The S3 storage `name` of the cluster, ready to write into; a 422 naming `storage` when there is no
 * such storage, it is not S3, not Bound yet, or mounted read-only — listing the S3 storages there are.
 */
export async function resolveDownloadStorage(kube: KubePort, name: string): Promise<DownloadStorage> {
  const storages = (await readStorages(kube, { mounts: false })).filter((s) => s.namespace === STORAGE_NAMESPACE);
  const writable = storages.filter((s) => s.kind === 's3' && s.access === 'read-write').map((s) => s.name);
  const known = writable.length
    ? `The cluster's writable S3 storages: ${writable.join(', ')}.`
    : 'The cluster has no writable S3 storage yet: add one first.';
  const refuse = (why: string) =>
    new PreconditionError({
      message: `storage: ${why} ${known}`,
      problems: [{ path: 'storage', message: `${why} ${known}` }],
    });
  const s = storages.find((v) => v.name === name);
  if (!s) throw refuse(`the cluster has no storage '${name}' (no PersistentVolumeClaim ${STORAGE_NAMESPACE}/${name}).`);
  if (s.kind !== 's3' || !s.bucket)
    throw refuse(
      `storage '${name}' is not an S3 storage (${s.kind}); model downloads go to S3 storages, whose files can be listed and checked.`,
    );
  if (s.claimPhase !== 'Bound')
    throw refuse(`storage '${name}' is ${s.claimPhase}, not Bound: nothing can be written into it yet.`);
  if (s.access === 'read-only') throw refuse(`storage '${name}' is mounted read-only.`);
  const prefix = s.prefix ?? '';
  return {
    name,
    namespace: STORAGE_NAMESPACE,
    claimName: s.name,
    bucket: s.bucket,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
    ...(s.bucketRegion ? { bucketRegion: s.bucketRegion } : {}),
  };
}
