import {
  health,
  kubeKind,
  list,
  parseBase,
  rec,
  str,
  strings,
  MANAGED_BY,
  type KubeHealth,
  type KubeResource,
  type Loose,
} from './kind.js';
import type { KubeObject } from '../kube-object.js';

/** PersistentVolumeClaim: what a job mounts; InstantStart makes one per shared store, bound by name to its volume. */

export type KubePersistentVolumeClaim = KubeResource & {
  spec: Loose & { volumeName?: string; accessModes: string[]; requests: Record<string, string> };
  status: Loose & { phase: string; capacity: Record<string, string> };
};

export function parsePersistentVolumeClaim(raw: unknown): KubePersistentVolumeClaim {
  const base = parseBase(raw, { apiVersion: 'v1', kind: 'PersistentVolumeClaim' });
  const spec = rec(base.spec);
  const status = rec(base.status);
  return {
    ...base,
    spec: {
      ...spec,
      volumeName: str(spec.volumeName),
      accessModes: list(spec.accessModes).filter((m): m is string => typeof m === 'string'),
      requests: strings(rec(spec.resources).requests),
    },
    status: { ...status, phase: str(status.phase) ?? 'Pending', capacity: strings(status.capacity) },
  };
}

export const PERSISTENT_VOLUME_CLAIM = kubeKind<KubePersistentVolumeClaim>(
  {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    namespaced: true,
    health: persistentVolumeClaimHealth,
  },
  parsePersistentVolumeClaim,
);

/** A ReadWriteMany (or ReadOnlyMany) claim bound to one named volume (static provisioning: no StorageClass). */
export function persistentVolumeClaimManifest(p: {
  name: string;
  namespace: string;
  volumeName: string;
  storage: string;
  accessMode?: 'ReadWriteMany' | 'ReadOnlyMany';
  labels?: Record<string, string>;
}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: p.name, namespace: p.namespace, labels: { ...p.labels, ...MANAGED_BY } },
    spec: {
      accessModes: [p.accessMode ?? 'ReadWriteMany'],
      storageClassName: '',
      volumeName: p.volumeName,
      resources: { requests: { storage: p.storage } },
    },
  };
}

export function persistentVolumeClaimHealth(pvc: KubePersistentVolumeClaim): KubeHealth {
  if (pvc.status.phase === 'Bound')
    return health('healthy', 'bound', `Bound to volume ${pvc.spec.volumeName ?? '(unknown)'}; pods can mount it.`);
  if (pvc.status.phase === 'Lost')
    return health(
      'failed',
      'lost',
      `Its volume ${pvc.spec.volumeName ?? ''} is gone; the claim cannot be used.`.replace('  ', ' '),
    );
  return health(
    'transitional',
    'pending',
    pvc.spec.volumeName ? `Waiting to bind volume ${pvc.spec.volumeName}.` : 'Waiting for a volume.',
  );
}
