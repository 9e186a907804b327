import type { KubePort } from '../cloud/ports.js';
import { PERSISTENT_VOLUME_CLAIM } from '../domain/kube/persistent-volume-claim.js';
import { PERSISTENT_VOLUME } from '../domain/kube/persistent-volume.js';
import { POD, UNFINISHED_PODS } from '../domain/kube/pod.js';
import type { StorageKind, StorageView } from '../domain/schemas/storage.js';
import { kindOfDriver, storageOfVolume } from '../domain/storage.js';

/**
 * A cluster's storages, read live from its Kubernetes API (never copied into our store): every
 * PersistentVolume of the S3 or FSx CSI driver, the claim it is reserved for, and the pods (not
 * finished) that mount that claim. The storages create-cluster made are among them.
 *
 * Used by the storage capability's list and by anything that must find a storage by name, such as
 * a model download writing into one (`resolveStorage`).
 */
export async function readStorages(kube: KubePort, options: { mounts?: boolean } = {}): Promise<StorageView[]> {
  const [volumes, claims, pods] = await Promise.all([
    kube.list(PERSISTENT_VOLUME),
    kube.list(PERSISTENT_VOLUME_CLAIM),
    options.mounts === false ? Promise.resolve([]) : kube.list(POD, { fieldSelector: UNFINISHED_PODS }),
  ]);
  const claimOf = new Map(claims.map((c) => [`${c.metadata.namespace ?? 'default'}/${c.metadata.name}`, c]));
  return volumes
    .filter((pv) => kindOfDriver(pv.spec.csiDriver) !== undefined && !pv.metadata.deletionTimestamp)
    .map((pv) => {
      const ref = pv.spec.claimRef;
      const claim = ref?.name ? claimOf.get(`${ref.namespace ?? 'default'}/${ref.name}`) : undefined;
      return storageOfVolume(pv, claim, pods)!;
    })
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
}

/** Where a storage's data is, found by the name the storage list gives it (its claim, in its namespace). */
export interface ResolvedStorage {
  kind: StorageKind;
  /** The claim pods mount: `claim` in `namespace`. */
  claim: string;
  namespace: string;
  volumeName: string;
  access: 'read-only' | 'read-write';
  /** s3: the bucket, the key prefix the storage shows ('' = the whole bucket) and the bucket's Region when the volume names it. */
  bucket?: string;
  prefix?: string;
  bucketRegion?: string;
  /** fsx: the file system. */
  fileSystemId?: string;
  claimPhase: string;
}

/**
 * A storage by name: its kind, where its data is and the claim to mount; undefined when the cluster
 * has no such storage.
 *
 * @example
 * const s = await resolveStorage(kube, 'models'); // { kind: 's3', bucket: 'my-bucket', prefix: 'models/', claim:
 * 'models', namespace: 'default', … }
 */
export async function resolveStorage(
  kube: KubePort,
  name: string,
  namespace = 'default',
): Promise<ResolvedStorage | undefined> {
  const s = (await readStorages(kube, { mounts: false })).find((v) => v.name === name && v.namespace === namespace);
  if (!s) return undefined;
  return {
    kind: s.kind,
    claim: s.name,
    namespace: s.namespace,
    volumeName: s.volumeName,
    access: s.access,
    claimPhase: s.claimPhase,
    ...(s.kind === 's3'
      ? { bucket: s.bucket, prefix: s.prefix ?? '', ...(s.bucketRegion ? { bucketRegion: s.bucketRegion } : {}) }
      : { fileSystemId: s.fileSystemId }),
  };
}
