import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { T, type Any } from './util.js';

export type MountTarget = { kind: 's3'; bucket: string; keyPrefix: string } | { kind: 'read-only' } | { kind: 'local' };

/**
 * Where a path a container writes lands: on a volume mounted from a claim bound to a Mountpoint
 * for Amazon S3 volume (`s3.csi.aws.com`), the PV's bucket (`volumeAttributes.bucketName`) under its
 * `prefix` mount option, then the path below the mount point; read-only when the mount, the claim's
 * volume source or the PV's `read-only` mount option says so; anywhere else (no volume, other
 * drivers, the container's own disk) `local`, which the sandbox keeps nowhere.
 */
export function s3TargetOf(cluster: KubeCluster, pod: KubeObject, container: Any, path: string): MountTarget {
  const mounts = ((container.volumeMounts ?? []) as Any[]).filter(
    (m) => typeof m.mountPath === 'string' && under(path, m.mountPath),
  );
  const mount = mounts.sort((a, b) => b.mountPath.length - a.mountPath.length)[0];
  if (!mount) return { kind: 'local' };
  const volume = (((pod.spec as Any)?.volumes ?? []) as Any[]).find((v) => v.name === mount.name);
  const claimName = volume?.persistentVolumeClaim?.claimName;
  if (!claimName) return { kind: 'local' };
  const pvc = cluster.objects.get(T.persistentvolumeclaims, pod.metadata.namespace ?? 'default', claimName);
  const pvName = (pvc?.spec as Any | undefined)?.volumeName;
  const pv = pvName ? cluster.objects.get(T.persistentvolumes, undefined, pvName) : undefined;
  const csi = (pv?.spec as Any | undefined)?.csi;
  if (!pv || csi?.driver !== 's3.csi.aws.com' || !csi.volumeAttributes?.bucketName) return { kind: 'local' };
  const options = (((pv.spec as Any).mountOptions ?? []) as unknown[]).map(String);
  if (mount.readOnly || volume.persistentVolumeClaim.readOnly || options.some((o) => /^(--)?read-only$/.test(o.trim())))
    return { kind: 'read-only' };
  const prefixOption = options.map((o) => /^(?:--)?prefix[ =](.+)$/.exec(o.trim())?.[1]).find(Boolean) ?? '';
  const prefix = prefixOption && !prefixOption.endsWith('/') ? `${prefixOption}/` : prefixOption;
  const below = path.slice(mount.mountPath.replace(/\/+$/, '').length).replace(/^\/+/, '');
  const sub = mount.subPath ? `${String(mount.subPath).replace(/^\/+|\/+$/g, '')}/` : '';
  return {
    kind: 's3',
    bucket: csi.volumeAttributes.bucketName,
    keyPrefix: `${prefix}${sub}${below ? `${below}/` : ''}`,
  };
}

const under = (path: string, mountPath: string) => {
  const m = mountPath.replace(/\/+$/, '');
  return path === m || path.startsWith(`${m}/`) || m === '';
};
