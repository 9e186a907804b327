import type { CloudPort, FsxFileSystem, Log } from '../cloud/ports.js';
import { CloudError } from '../domain/errors.js';
import type { KubeObject } from '../domain/kube-object.js';
import { fsxVolumeManifests } from '../domain/storage-manifests.js';

/**
 * An FSx for Lustre file system made for a cluster and the volume that mounts it, in the three
 * steps a phase takes (act, await, then the volume once AVAILABLE). create-cluster's storage phase
 * (the cluster's shared file system) and add-storage (a file system added later) both use them.
 */

export interface LustreRequest {
  region: string;
  cluster: string;
  /** The `instantstart.io/part` tag that tells this file system from the cluster's others. */
  part: string;
  subnetId: string;
  securityGroupId: string;
  storageCapacityGiB: number;
  tags: Record<string, string>;
  /** Makes a repeated CreateFileSystem return the first (default: the cluster's shared file system's). */
  clientToken?: string;
}

/** The file system tagged as `part` of the cluster, asked for when there is none (or the last one FAILED). */
export async function requestLustreFileSystem(cloud: CloudPort, r: LustreRequest, log: Log): Promise<FsxFileSystem> {
  const found = await cloud.storage.findFileSystem(r.region, r.cluster, r.part);
  if (found && found.Lifecycle !== 'FAILED') return found;
  const fs = await cloud.storage.createFileSystem(r.region, r.cluster, {
    subnetId: r.subnetId,
    securityGroupId: r.securityGroupId,
    storageCapacityGiB: r.storageCapacityGiB,
    tags: r.tags,
    ...(r.clientToken ? { clientToken: r.clientToken } : {}),
  });
  log(`Requested FSx for Lustre ${fs.FileSystemId} (${r.storageCapacityGiB} GiB) in subnet ${r.subnetId}`);
  return fs;
}

/**
 * Where a requested file system stands: AVAILABLE, or still being made (with FSx's lifecycle as
 * progress). A file system that FAILED or disappeared is a CloudError naming it.
 */
export async function lustreAvailability(
  cloud: CloudPort,
  region: string,
  fileSystemId: string,
): Promise<{ available: FsxFileSystem } | { progress: string }> {
  const fs = await cloud.storage.describeFileSystem(region, fileSystemId);
  if (!fs)
    throw new CloudError({
      service: 'fsx',
      operation: 'DescribeFileSystems',
      code: 'FileSystemNotFound',
      message: `FSx file system ${fileSystemId} disappeared.`,
    });
  if (fs.Lifecycle === 'FAILED')
    throw new CloudError({
      service: 'fsx',
      operation: 'CreateFileSystem',
      code: 'FileSystemFailed',
      message: `FSx file system ${fs.FileSystemId} failed: ${fs.FailureDetails?.Message ?? 'no reason given'}`,
    });
  return fs.Lifecycle === 'AVAILABLE' ? { available: fs } : { progress: `FSx ${fs.Lifecycle}` };
}

/** The volume and claim of an AVAILABLE Lustre file system (its DNS name and mount name are known only then). */
export function lustreVolumeManifests(
  fs: FsxFileSystem,
  p: {
    volumeName: string;
    claimName: string;
    namespace?: string;
    labels?: Record<string, string>;
    fallbackCapacityGiB: number;
  },
): KubeObject[] {
  return fsxVolumeManifests({
    volumeName: p.volumeName,
    claimName: p.claimName,
    ...(p.namespace ? { namespace: p.namespace } : {}),
    ...(p.labels ? { labels: p.labels } : {}),
    fileSystemId: fs.FileSystemId!,
    dnsName: fs.DNSName!,
    mountName: fs.LustreConfiguration?.MountName ?? 'fsx',
    capacityGiB: fs.StorageCapacity ?? p.fallbackCapacityGiB,
  });
}
