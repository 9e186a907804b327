import type { KubeObject } from './kube-object.js';

/**
 * Static provisioning of the shared storage: one PersistentVolume per store and a claim bound to
 * it by name, in the `default` namespace where jobs run unless told otherwise. Mountpoint for S3
 * volumes are ReadWriteMany with a nominal capacity (S3 has none; Kubernetes requires one).
 */
export function s3VolumeManifests(p: { volumeName: string; claimName: string; bucket: string; region: string; namespace?: string }): KubeObject[] {
  const namespace = p.namespace ?? 'default';
  return [
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: p.volumeName, labels: { 'app.kubernetes.io/managed-by': 'instantstart' } },
      spec: {
        capacity: { storage: '1200Gi' },
        accessModes: ['ReadWriteMany'],
        persistentVolumeReclaimPolicy: 'Retain',
        storageClassName: '',
        claimRef: { namespace, name: p.claimName },
        mountOptions: ['allow-delete', 'allow-other', `region ${p.region}`],
        csi: { driver: 's3.csi.aws.com', volumeHandle: `s3-csi-${p.bucket}`, volumeAttributes: { bucketName: p.bucket } },
      },
    },
    claim(p.claimName, namespace, p.volumeName, '1200Gi'),
  ];
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
  const namespace = p.namespace ?? 'default';
  return [
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: p.volumeName, labels: { 'app.kubernetes.io/managed-by': 'instantstart' } },
      spec: {
        capacity: { storage: `${p.capacityGiB}Gi` },
        accessModes: ['ReadWriteMany'],
        persistentVolumeReclaimPolicy: 'Retain',
        storageClassName: '',
        claimRef: { namespace, name: p.claimName },
        mountOptions: ['flock'],
        csi: { driver: 'fsx.csi.aws.com', volumeHandle: p.fileSystemId, volumeAttributes: { dnsname: p.dnsName, mountname: p.mountName } },
      },
    },
    claim(p.claimName, namespace, p.volumeName, `${p.capacityGiB}Gi`),
  ];
}

function claim(name: string, namespace: string, volumeName: string, storage: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace, labels: { 'app.kubernetes.io/managed-by': 'instantstart' } },
    spec: { accessModes: ['ReadWriteMany'], storageClassName: '', volumeName, resources: { requests: { storage } } },
  };
}
