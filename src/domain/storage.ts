import type { KubePersistentVolumeClaim } from './kube/persistent-volume-claim.js';
import type { KubePersistentVolume } from './kube/persistent-volume.js';
import type { KubePod } from './kube/pod.js';
import { list, rec, str } from './kube/kind.js';
import { clusterTarget } from './naming.js';
import type { StorageData, StorageKind, StorageView } from './schemas/storage.js';

/**
 * The rules of a cluster's storages, pure: which CSI drivers make a storage, Mountpoint's mount
 * options (built and read back), the view of one volume and its claim, the names InstantStart gives
 * what it makes, and the S3 CSI driver's per-storage policy.
 */

export const S3_CSI_DRIVER = 's3.csi.aws.com';
export const FSX_CSI_DRIVER = 'fsx.csi.aws.com';

/** The bucket or file system that holds a storage's data. */
export const dataResource = (d: StorageData): { service: 's3' | 'fsx'; id: string } =>
  d.kind === 's3' ? { service: 's3', id: d.bucket } : { service: 'fsx', id: d.fileSystemId };

/** The CSI driver of each storage kind, and the managed feature that installs it (src/domain/features/registry.ts). */
export const STORAGE_DRIVERS = {
  s3: { csiDriver: S3_CSI_DRIVER, feature: 's3-csi-driver' },
  fsx: { csiDriver: FSX_CSI_DRIVER, feature: 'fsx-csi-driver' },
} as const satisfies Record<StorageKind, { csiDriver: string; feature: string }>;

/** The label on the volume and claim of a storage InstantStart added: `<namespace>.<name>` of the claim. */
export const STORAGE_LABEL = 'instantstart.io/storage';

export const kindOfDriver = (driver: string | undefined): StorageKind | undefined =>
  driver === S3_CSI_DRIVER ? 's3' : driver === FSX_CSI_DRIVER ? 'fsx' : undefined;

/**
 * Mountpoint for S3's options for a volume: the bucket's Region, one prefix of it (Mountpoint wants
 * it ending in `/`), and read-only or read-write with deletes allowed (Mountpoint refuses deletes
 * unless told). `allow-other` lets containers running as any user read the mount.
 *
 * @example
 * mountpointOptions({ region: 'us-west-2', prefix: 'models/', readOnly: true })
 * // ['read-only', 'allow-other', 'region us-west-2', 'prefix models/']
 */
export function mountpointOptions(p: { region: string; prefix?: string; readOnly?: boolean }): string[] {
  return [
    p.readOnly ? 'read-only' : 'allow-delete',
    'allow-other',
    `region ${p.region}`,
    ...(p.prefix ? [`prefix ${p.prefix}`] : []),
  ];
}

export interface MountpointSettings {
  prefix: string;
  readOnly: boolean;
  region?: string;
  /** Options as given, by name (flags map to ''), for what this module does not interpret. */
  options: Map<string, string>;
}

/**
 * Reads Mountpoint options back the way the S3 CSI driver takes them: each entry is `name`,
 * `name value` or `name=value`, with or without leading `--`.
 *
 * @example
 * parseMountpointOptions(['--read-only', 'prefix=models/']).prefix // 'models/'
 */
export function parseMountpointOptions(entries: readonly string[]): MountpointSettings {
  const options = new Map<string, string>();
  for (const raw of entries) {
    const entry = raw.trim().replace(/^--/, '');
    const at = entry.search(/[ =]/);
    const name = at < 0 ? entry : entry.slice(0, at);
    if (name) options.set(name, at < 0 ? '' : entry.slice(at + 1).trim());
  }
  return {
    prefix: options.get('prefix') ?? '',
    readOnly: options.has('read-only'),
    ...(options.get('region') ? { region: options.get('region') } : {}),
    options,
  };
}

/** The name of the PersistentVolume of a storage InstantStart adds (volumes are cluster-wide, claims per namespace). */
export const storageVolumeName = (namespace: string, name: string): string => `instantstart-${namespace}-${name}`;

/** What a storage operation works on; also its exclusive lock (one change of one storage at a time). */
export const storageTarget = (region: string, cluster: string, namespace: string, name: string): string =>
  `${clusterTarget(region, cluster)}/storage/${namespace}/${name}`;

/** The claims a pod mounts, by name (claims are in the pod's namespace). */
export function claimsOfPod(pod: KubePod): string[] {
  return list(rec(pod.spec).volumes)
    .map((v) => str(rec(rec(v).persistentVolumeClaim).claimName))
    .filter((c): c is string => c !== undefined);
}

/** How to name a storage's data when asking to delete it: the bucket, `bucket/prefix/`, or the file system id. */
export function storageDataName(data: StorageData): string {
  return data.kind === 'fsx' ? data.fileSystemId : data.prefix ? `${data.bucket}/${data.prefix}` : data.bucket;
}

/**
 * One storage as the list shows it: a CSI volume of the S3 or FSx driver, the claim it is reserved
 * for (or bound to), and the pods that mount that claim. Undefined for a volume of another driver.
 */
export function storageOfVolume(
  pv: KubePersistentVolume,
  claim: KubePersistentVolumeClaim | undefined,
  pods: readonly KubePod[],
): StorageView | undefined {
  const kind = kindOfDriver(pv.spec.csiDriver);
  if (!kind) return undefined;
  const attributes = pv.spec.csiVolume?.volumeAttributes ?? {};
  const namespace = pv.spec.claimRef?.namespace ?? claim?.metadata.namespace ?? 'default';
  const name = pv.spec.claimRef?.name ?? pv.metadata.name;
  const mountpoint = parseMountpointOptions(pv.spec.mountOptions);
  const readOnly =
    (kind === 's3' && mountpoint.readOnly) ||
    pv.spec.csiVolume?.readOnly === true ||
    (pv.spec.accessModes.length > 0 && pv.spec.accessModes.every((m) => m === 'ReadOnlyMany'));
  const data: StorageData =
    kind === 's3'
      ? { kind, bucket: attributes.bucketName ?? '', prefix: mountpoint.prefix }
      : { kind, fileSystemId: pv.spec.csiVolume?.volumeHandle ?? '' };
  const mounts = pods
    .filter((p) => p.metadata.namespace === namespace && claimsOfPod(p).includes(name))
    .map((p) => ({
      namespace,
      pod: p.metadata.name,
      ...(p.spec.nodeName ? { node: p.spec.nodeName } : {}),
      phase: p.status.phase,
    }));
  return {
    name,
    namespace,
    kind,
    ...(data.kind === 's3'
      ? { bucket: data.bucket, prefix: data.prefix, ...(mountpoint.region ? { bucketRegion: mountpoint.region } : {}) }
      : { fileSystemId: data.fileSystemId, dnsName: attributes.dnsname, mountName: attributes.mountname }),
    access: readOnly ? 'read-only' : 'read-write',
    claimPhase: claim ? claim.status.phase : 'Missing',
    volumeName: pv.metadata.name,
    volumePhase: pv.status.phase,
    ...(pv.spec.capacity.storage ? { capacity: pv.spec.capacity.storage } : {}),
    mounts,
    managed: pv.metadata.labels['app.kubernetes.io/managed-by'] === 'instantstart',
    dataName: storageDataName(data),
  };
}

/** The data a listed storage holds (what deleteData would delete). */
export function dataOfStorage(s: StorageView): StorageData {
  return s.kind === 's3'
    ? {
        kind: 's3',
        bucket: s.bucket ?? '',
        prefix: s.prefix ?? '',
        ...(s.bucketRegion ? { region: s.bucketRegion } : {}),
      }
    : { kind: 'fsx', fileSystemId: s.fileSystemId ?? '' };
}

/**
 * The inline policy InstantStart adds to the S3 CSI driver's role for one storage, so that the
 * driver (which mounts with its own identity) reaches that bucket: listing the bucket (Mountpoint
 * lists to read directories), and reading — or, read-write, writing and deleting — the objects
 * under the storage's prefix. One policy per storage: removing the storage removes exactly it.
 */
export const csiStoragePolicyName = (namespace: string, name: string): string =>
  `instantstart-storage-${namespace}-${name}`;

export function csiStoragePolicy(p: { bucket: string; prefix: string; readOnly: boolean }): Record<string, unknown> {
  const objects = `arn:aws:s3:::${p.bucket}/${p.prefix}*`;
  return {
    Version: '2012-10-17',
    Statement: [
      { Sid: 'MountpointListBucket', Effect: 'Allow', Action: ['s3:ListBucket'], Resource: `arn:aws:s3:::${p.bucket}` },
      {
        Sid: p.readOnly ? 'MountpointReadObjects' : 'MountpointReadWriteObjects',
        Effect: 'Allow',
        Action: p.readOnly
          ? ['s3:GetObject']
          : ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload', 's3:DeleteObject'],
        Resource: objects,
      },
    ],
  };
}
