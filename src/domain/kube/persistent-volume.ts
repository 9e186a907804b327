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

/**
 * PersistentVolume: the shared storage InstantStart provisions statically (one volume per store,
 * reserved for one claim by claimRef), so jobs mount S3 or FSx for Lustre without a StorageClass.
 */

export type KubePersistentVolume = KubeResource & {
  spec: Loose & {
    capacity: Record<string, string>;
    accessModes: string[];
    claimRef?: { namespace?: string; name?: string };
    csiDriver?: string;
    /** The CSI volume's handle and attributes (bucketName, dnsname, mountname…), when it is a CSI volume. */
    csiVolume?: { volumeHandle?: string; readOnly: boolean; volumeAttributes: Record<string, string> };
    mountOptions: string[];
  };
  status: Loose & { phase: string; message?: string };
};

export function parsePersistentVolume(raw: unknown): KubePersistentVolume {
  const base = parseBase(raw, { apiVersion: 'v1', kind: 'PersistentVolume' });
  const spec = rec(base.spec);
  const status = rec(base.status);
  const claimRef = spec.claimRef === undefined ? undefined : rec(spec.claimRef);
  const csi = spec.csi === undefined ? undefined : rec(spec.csi);
  return {
    ...base,
    spec: {
      ...spec,
      capacity: strings(spec.capacity),
      accessModes: list(spec.accessModes).filter((m): m is string => typeof m === 'string'),
      ...(claimRef ? { claimRef: { namespace: str(claimRef.namespace), name: str(claimRef.name) } } : {}),
      csiDriver: str(rec(spec.csi).driver),
      ...(csi
        ? {
            csiVolume: {
              volumeHandle: str(csi.volumeHandle),
              readOnly: csi.readOnly === true,
              volumeAttributes: strings(csi.volumeAttributes),
            },
          }
        : {}),
      mountOptions: list(spec.mountOptions).filter((m): m is string => typeof m === 'string'),
    },
    status: { ...status, phase: str(status.phase) ?? 'Pending', message: str(status.message) },
  };
}

export const PERSISTENT_VOLUME = kubeKind<KubePersistentVolume>(
  {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    plural: 'persistentvolumes',
    namespaced: false,
    health: persistentVolumeHealth,
  },
  parsePersistentVolume,
);

export interface PersistentVolumeSpec {
  name: string;
  /** The one claim that may bind it. */
  claim: { namespace: string; name: string };
  storage: string;
  mountOptions: string[];
  csi: { driver: string; volumeHandle: string; volumeAttributes: Record<string, string> };
  /** ReadWriteMany (default) or ReadOnlyMany for a volume mounted read-only. */
  accessMode?: 'ReadWriteMany' | 'ReadOnlyMany';
  /** Extra labels (which storage it is), beside the managed-by label. */
  labels?: Record<string, string>;
}

/** A ReadWriteMany (or ReadOnlyMany) CSI volume, kept when its claim goes (Retain: the data outlives the claim), reserved for one claim. */
export function persistentVolumeManifest(p: PersistentVolumeSpec): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: p.name, labels: { ...p.labels, ...MANAGED_BY } },
    spec: {
      capacity: { storage: p.storage },
      accessModes: [p.accessMode ?? 'ReadWriteMany'],
      persistentVolumeReclaimPolicy: 'Retain',
      storageClassName: '',
      claimRef: { namespace: p.claim.namespace, name: p.claim.name },
      mountOptions: p.mountOptions,
      csi: p.csi,
    },
  };
}

/** Bound is the goal; Available means its claim has not come (yet); Released and Failed need a person. */
export function persistentVolumeHealth(pv: KubePersistentVolume): KubeHealth {
  switch (pv.status.phase) {
    case 'Bound':
      return health(
        'healthy',
        'bound',
        `Bound to claim ${pv.spec.claimRef?.namespace ?? ''}/${pv.spec.claimRef?.name ?? ''}.`,
      );
    case 'Available':
    case 'Pending':
      return health('transitional', pv.status.phase.toLowerCase(), 'The volume waits for its claim to bind it.');
    case 'Released':
      return health(
        'degraded',
        'released',
        'Its claim was deleted; the data is kept (Retain) but no new claim can bind the volume until its claimRef is cleared.',
      );
    default:
      return health('failed', 'failed', `The volume failed${pv.status.message ? `: ${pv.status.message}` : ''}.`);
  }
}
