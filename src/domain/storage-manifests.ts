import { persistentVolumeManifest } from './kube/persistent-volume.js';
import { persistentVolumeClaimManifest } from './kube/persistent-volume-claim.js';
import type { KubeObject } from './kube-object.js';
import { mountpointOptions } from './storage.js';

/**
 * Static provisioning of storage: one PersistentVolume per store and a claim bound to it by name,
 * in the `default` namespace where jobs run unless told otherwise. Mountpoint for S3 volumes have a
 * nominal capacity (S3 has none; Kubernetes requires one); a read-only one is ReadOnlyMany and
 * mounted with Mountpoint's `read-only`, a read-write one allows deletes. The volume handle must be
 * unique per volume (the driver keys its mounts by it): the shared bucket's is `s3-csi-<bucket>`,
 * storages added later pass their own so that two storages of one bucket can coexist.
 */
export function s3VolumeManifests(p: {
  volumeName: string;
  claimName: string;
  bucket: string;
  region: string;
  namespace?: string;
  prefix?: string;
  readOnly?: boolean;
  volumeHandle?: string;
  labels?: Record<string, string>;
}): KubeObject[] {
  return boundVolume({
    ...p,
    storage: '1200Gi',
    accessMode: p.readOnly ? 'ReadOnlyMany' : 'ReadWriteMany',
    mountOptions: mountpointOptions({ region: p.region, prefix: p.prefix, readOnly: p.readOnly }),
    csi: {
      driver: 's3.csi.aws.com',
      volumeHandle: p.volumeHandle ?? `s3-csi-${p.bucket}`,
      volumeAttributes: { bucketName: p.bucket },
    },
  });
}

export function fsxVolumeManifests(p: {
  volumeName: string;
  claimName: string;
  fileSystemId: string;
  dnsName: string;
  mountName: string;
  capacityGiB: number;
  namespace?: string;
  labels?: Record<string, string>;
}): KubeObject[] {
  return boundVolume({
    ...p,
    storage: `${p.capacityGiB}Gi`,
    mountOptions: ['flock'],
    csi: {
      driver: 'fsx.csi.aws.com',
      volumeHandle: p.fileSystemId,
      volumeAttributes: { dnsname: p.dnsName, mountname: p.mountName },
    },
  });
}

/** A PV reserved (claimRef) for one claim, and that claim bound to it by name. */
function boundVolume(p: {
  volumeName: string;
  claimName: string;
  namespace?: string;
  storage: string;
  accessMode?: 'ReadWriteMany' | 'ReadOnlyMany';
  labels?: Record<string, string>;
  mountOptions: string[];
  csi: { driver: string; volumeHandle: string; volumeAttributes: Record<string, string> };
}): KubeObject[] {
  const namespace = p.namespace ?? 'default';
  const { accessMode, labels } = p;
  return [
    persistentVolumeManifest({
      name: p.volumeName,
      claim: { namespace, name: p.claimName },
      storage: p.storage,
      mountOptions: p.mountOptions,
      csi: p.csi,
      accessMode,
      labels,
    }),
    persistentVolumeClaimManifest({
      name: p.claimName,
      namespace,
      volumeName: p.volumeName,
      storage: p.storage,
      accessMode,
      labels,
    }),
  ];
}
