import { persistentVolumeManifest } from './kube/persistent-volume.js';
import { persistentVolumeClaimManifest } from './kube/persistent-volume-claim.js';
import type { KubeObject } from './kube-object.js';

/**
 * Static provisioning of the shared storage: one PersistentVolume per store and a claim bound to
 * it by name, in the `default` namespace where jobs run unless told otherwise. Mountpoint for S3
 * volumes are ReadWriteMany with a nominal capacity (S3 has none; Kubernetes requires one).
 */
export function s3VolumeManifests(p: { volumeName: string; claimName: string; bucket: string; region: string; namespace?: string }): KubeObject[] {
  return boundVolume({
    ...p,
    storage: '1200Gi',
    mountOptions: ['allow-delete', 'allow-other', `region ${p.region}`],
    csi: { driver: 's3.csi.aws.com', volumeHandle: `s3-csi-${p.bucket}`, volumeAttributes: { bucketName: p.bucket } },
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
}): KubeObject[] {
  return boundVolume({
    ...p,
    storage: `${p.capacityGiB}Gi`,
    mountOptions: ['flock'],
    csi: { driver: 'fsx.csi.aws.com', volumeHandle: p.fileSystemId, volumeAttributes: { dnsname: p.dnsName, mountname: p.mountName } },
  });
}

/** A ReadWriteMany PV reserved (claimRef) for one claim, and that claim bound to it by name. */
function boundVolume(p: {
  volumeName: string;
  claimName: string;
  namespace?: string;
  storage: string;
  mountOptions: string[];
  csi: { driver: string; volumeHandle: string; volumeAttributes: Record<string, string> };
}): KubeObject[] {
  const namespace = p.namespace ?? 'default';
  return [
    persistentVolumeManifest({ name: p.volumeName, claim: { namespace, name: p.claimName }, storage: p.storage, mountOptions: p.mountOptions, csi: p.csi }),
    persistentVolumeClaimManifest({ name: p.claimName, namespace, volumeName: p.volumeName, storage: p.storage }),
  ];
}
