import type { KubePort } from '../../cloud/ports.js';
import { PreconditionError } from '../../domain/errors.js';
import { rec, str, list } from '../../domain/kube/kind.js';
import { PERSISTENT_VOLUME, type KubePersistentVolume } from '../../domain/kube/persistent-volume.js';
import { PERSISTENT_VOLUME_CLAIM } from '../../domain/kube/persistent-volume-claim.js';

/**
 * TO BE FOLDED INTO THE STORAGE CAPABILITY'S RESOLVER AT MERGE (src/capabilities/storage, built in
 * parallel): a storage of a cluster is named by its PersistentVolumeClaim in the namespace
 * `default`, and for a Mountpoint for Amazon S3 volume it is a bucket and a key prefix. This reads
 * that from the cluster (claim → its volume → CSI driver, `bucketName`, the `prefix`, `region` and
 * `read-only` mount options), so a download knows where its files land in S3.
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

const S3_DRIVER = 's3.csi.aws.com';

/** A mount option's value: `prefix models/` (Mountpoint's form), `--prefix models/` or `prefix=models/`. */
const option = (options: readonly string[], name: string): string | undefined =>
  options.map((o) => new RegExp(`^(?:--)?${name}[ =](.+)$`).exec(o.trim())?.[1]?.trim()).find((v) => v !== undefined && v !== '');

const mountOptions = (pv: KubePersistentVolume) => list(pv.spec.mountOptions).filter((o): o is string => typeof o === 'string');

/**
 * The S3 storage `name` of the cluster, ready to write into; a 422 naming `storage` when there is no
 * such storage, it is not S3, not Bound yet, or mounted read-only — listing the S3 storages there are.
 */
export async function resolveDownloadStorage(kube: KubePort, name: string): Promise<DownloadStorage> {
  const refuse = async (why: string) => {
    const names = await s3StorageNames(kube);
    const known = names.length ? `The cluster's S3 storages: ${names.join(', ')}.` : 'The cluster has no S3 storage yet: add one first.';
    return new PreconditionError(`storage: ${why} ${known}`, [{ path: 'storage', message: `${why} ${known}` }]);
  };
  const claim = await kube.find(PERSISTENT_VOLUME_CLAIM, name, STORAGE_NAMESPACE);
  if (!claim) throw await refuse(`the cluster has no storage '${name}' (no PersistentVolumeClaim ${STORAGE_NAMESPACE}/${name}).`);
  if (claim.status.phase !== 'Bound' || !claim.spec.volumeName) throw await refuse(`storage '${name}' is ${claim.status.phase}, not Bound: nothing can be written into it yet.`);
  const pv = await kube.find(PERSISTENT_VOLUME, claim.spec.volumeName);
  const bucket = pv && str(rec(rec(pv.spec.csi).volumeAttributes).bucketName);
  if (!pv || pv.spec.csiDriver !== S3_DRIVER || !bucket) {
    throw await refuse(`storage '${name}' is not an S3 storage (${pv?.spec.csiDriver ?? 'no volume'}); model downloads go to S3 storages, whose files can be listed and checked.`);
  }
  const options = mountOptions(pv);
  if (options.some((o) => /^(--)?read-only$/.test(o.trim()))) throw await refuse(`storage '${name}' is mounted read-only.`);
  const prefix = option(options, 'prefix') ?? '';
  const bucketRegion = option(options, 'region');
  return { name, namespace: STORAGE_NAMESPACE, claimName: name, bucket, prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix, ...(bucketRegion ? { bucketRegion } : {}) };
}

/** The claims in `default` bound to Mountpoint S3 volumes: what a download may write into. */
export async function s3StorageNames(kube: KubePort): Promise<string[]> {
  const [claims, volumes] = await Promise.all([kube.list(PERSISTENT_VOLUME_CLAIM, { namespace: STORAGE_NAMESPACE }), kube.list(PERSISTENT_VOLUME)]);
  const s3Volumes = new Set(volumes.filter((v) => v.spec.csiDriver === S3_DRIVER).map((v) => v.metadata.name));
  return claims.filter((c) => c.spec.volumeName && s3Volumes.has(c.spec.volumeName)).map((c) => c.metadata.name).sort();
}
