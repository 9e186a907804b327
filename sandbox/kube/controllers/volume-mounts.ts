import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { T, type Any } from './util.js';

/**
 * What the kubelet checks before a pod's containers start, for the volumes InstantStart makes:
 * each claim the pod mounts exists and is bound, its volume's CSI driver is registered in the
 * cluster (its add-on installed the CSIDriver), and for Mountpoint for S3 the mount options are ones
 * `mount-s3` accepts and the bucket exists. A volume that cannot be mounted keeps the pod in
 * ContainerCreating with a FailedMount event in the kubelet's words, until it can.
 *
 * Differences from EKS: the S3 bucket is looked up in the sandbox's S3, not reached with the
 * driver's credentials (IAM is not evaluated); FSx volumes are checked for their attributes only.
 */

/** What the kubelet's view of the cloud answers: the Region of a bucket, undefined when there is no such bucket. */
export interface VolumeWorld {
  bucketRegion(bucket: string): string | undefined;
}

/** mount-s3's options (Mountpoint for Amazon S3 `--help`), with whether each takes a value. */
const MOUNTPOINT_OPTIONS: ReadonlyMap<string, boolean> = new Map([
  ['read-only', false],
  ['allow-delete', false],
  ['allow-overwrite', false],
  ['auto-unmount', false],
  ['allow-root', false],
  ['allow-other', false],
  ['uid', true],
  ['gid', true],
  ['dir-mode', true],
  ['file-mode', true],
  ['prefix', true],
  ['region', true],
  ['endpoint-url', true],
  ['force-path-style', false],
  ['transfer-acceleration', false],
  ['dual-stack', false],
  ['requester-pays', false],
  ['expected-bucket-owner', true],
  ['storage-class', true],
  ['sse', true],
  ['sse-kms-key-id', true],
  ['upload-checksums', true],
  ['cache', true],
  ['cache-xz', true],
  ['metadata-ttl', true],
  ['negative-metadata-ttl', true],
  ['max-cache-size', true],
  ['max-threads', true],
  ['part-size', true],
  ['read-part-size', true],
  ['write-part-size', true],
  ['maximum-throughput-gbps', true],
  ['incremental-upload', false],
  ['debug', false],
  ['debug-crt', false],
  ['log-directory', true],
  ['log-metrics', false],
  ['no-log', false],
  ['user-agent-prefix', true],
]);

export interface MountpointVolume {
  bucket: string;
  /** Key prefix the mount shows ('' = the whole bucket), ending in '/'. */
  prefix: string;
  region?: string;
  readOnly: boolean;
  options: Map<string, string>;
}

/**
 * Reads a Mountpoint PersistentVolume's options as the S3 CSI driver passes them to mount-s3: each
 * entry `name`, `name value` or `name=value`, with or without `--`. Answers mount-s3's own error for
 * an option it does not know, a value missing or not wanted, a prefix not ending in `/`, and
 * read-only together with a write option.
 */
export function parseMountpointVolume(pv: KubeObject): MountpointVolume | { error: string } {
  const spec = (pv.spec ?? {}) as Any;
  const options = new Map<string, string>();
  for (const raw of (spec.mountOptions ?? []) as unknown[]) {
    if (typeof raw !== 'string') continue;
    const entry = raw.trim().replace(/^--/, '');
    const at = entry.search(/[ =]/);
    const name = at < 0 ? entry : entry.slice(0, at);
    const value = at < 0 ? undefined : entry.slice(at + 1).trim();
    const takesValue = MOUNTPOINT_OPTIONS.get(name);
    if (takesValue === undefined) return { error: `error: unexpected argument '--${name}' found` };
    if (takesValue && !value)
      return { error: `error: a value is required for '--${name} <${name.toUpperCase()}>' but none was supplied` };
    if (!takesValue && value)
      return { error: `error: unexpected value '${value}' for '--${name}' found; no more were expected` };
    options.set(name, value ?? '');
  }
  const prefix = options.get('prefix') ?? '';
  if (prefix && !prefix.endsWith('/'))
    return { error: `error: invalid value '${prefix}' for '--prefix <PREFIX>': prefix must end in '/'` };
  for (const write of ['allow-delete', 'allow-overwrite', 'incremental-upload']) {
    if (options.has('read-only') && options.has(write))
      return { error: `error: the argument '--read-only' cannot be used with '--${write}'` };
  }
  const bucket = String(spec.csi?.volumeAttributes?.bucketName ?? '');
  return {
    bucket,
    prefix,
    ...(options.get('region') ? { region: options.get('region') } : {}),
    readOnly: options.has('read-only'),
    options,
  };
}

/** The claim a pod volume names, read by the kubelet in the pod's namespace. */
const claimOf = (v: Any): string | undefined =>
  typeof v?.persistentVolumeClaim?.claimName === 'string' ? v.persistentVolumeClaim.claimName : undefined;

/**
 * kube-scheduler's VolumeBinding pre-filter for the statically provisioned claims the sandbox has:
 * a pod whose claim is missing, being deleted or not bound yet fits no node (the reason it reports);
 * undefined when every claim the pod mounts is bound.
 */
export function unschedulableForClaims(cluster: KubeCluster, pod: KubeObject): string | undefined {
  const namespace = pod.metadata.namespace ?? 'default';
  for (const v of ((pod.spec as Any)?.volumes ?? []) as Any[]) {
    const claimName = claimOf(v);
    if (!claimName) continue;
    const claim = cluster.objects.get(T.persistentvolumeclaims, namespace, claimName);
    if (!claim) return `persistentvolumeclaim "${claimName}" not found`;
    if (claim.metadata.deletionTimestamp) return `persistentvolumeclaim "${claimName}" is being deleted`;
    if ((claim.status as Any)?.phase !== 'Bound') return 'pod has unbound immediate PersistentVolumeClaims';
  }
  return undefined;
}

/** Why the kubelet cannot mount the pod's volumes now (the FailedMount message); undefined when every volume mounts. */
export function mountProblem(cluster: KubeCluster, pod: KubeObject, world?: VolumeWorld): string | undefined {
  const namespace = pod.metadata.namespace ?? 'default';
  for (const v of ((pod.spec as Any)?.volumes ?? []) as Any[]) {
    const claimName = claimOf(v);
    if (!claimName) continue;
    const claim = cluster.objects.get(T.persistentvolumeclaims, namespace, claimName);
    if (!claim)
      return `Unable to attach or mount volumes: unmounted volumes=[${v.name}]: error processing PVC ${namespace}/${claimName}: PVC ${namespace}/${claimName} was not found`;
    const volumeName = (claim.spec as Any)?.volumeName as string | undefined;
    if ((claim.status as Any)?.phase !== 'Bound' || !volumeName)
      return `Unable to attach or mount volumes: unmounted volumes=[${v.name}]: error processing PVC ${namespace}/${claimName}: PVC is not bound`;
    const pv = cluster.objects.get(T.persistentvolumes, undefined, volumeName);
    if (!pv)
      return `Unable to attach or mount volumes: unmounted volumes=[${v.name}]: error processing PVC ${namespace}/${claimName}: PersistentVolume "${volumeName}" not found`;
    const csi = (pv.spec as Any)?.csi as Any | undefined;
    if (!csi) continue;
    const driver = String(csi.driver ?? '');
    if (!cluster.objects.get(T.csidrivers, undefined, driver)) {
      return `MountVolume.MountDevice failed for volume "${volumeName}" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name ${driver} not found in the list of registered CSI drivers`;
    }
    const failed = (why: string) =>
      `MountVolume.SetUp failed for volume "${volumeName}" : rpc error: code = Internal desc = Could not mount "${csi.volumeAttributes?.bucketName ?? csi.volumeHandle}" at "/var/lib/kubelet/pods/${pod.metadata.uid}/volumes/kubernetes.io~csi/${volumeName}/mount": ${why}`;
    if (driver === 's3.csi.aws.com') {
      const m = parseMountpointVolume(pv);
      if ('error' in m) return failed(`Mountpoint failed to start: ${m.error}`);
      if (!m.bucket) return failed('Mountpoint failed to start: volumeAttributes.bucketName is required');
      const region = world?.bucketRegion(m.bucket);
      if (world && region === undefined)
        return failed(`Mountpoint failed to start: Failed to create S3 client: bucket ${m.bucket} does not exist`);
      if (world && m.region && region !== m.region)
        return failed(
          `Mountpoint failed to start: bucket ${m.bucket} is in region ${region}, not ${m.region} (PermanentRedirect)`,
        );
    }
    if (driver === 'fsx.csi.aws.com' && (!csi.volumeAttributes?.dnsname || !csi.volumeAttributes?.mountname)) {
      return `MountVolume.SetUp failed for volume "${volumeName}" : rpc error: code = InvalidArgument desc = dnsname and mountname are required in volumeAttributes`;
    }
  }
  return undefined;
}

/**
 * Where a pod's claim puts its files in sandbox S3 (for simulated workloads that write into a
 * Mountpoint volume, such as a download Job): bucket and key prefix, and whether writes are allowed.
 */
export function s3MountOfClaim(
  cluster: KubeCluster,
  namespace: string,
  claimName: string,
): MountpointVolume | undefined {
  const claim = cluster.objects.get(T.persistentvolumeclaims, namespace, claimName);
  const volumeName = (claim?.spec as Any | undefined)?.volumeName as string | undefined;
  const pv = volumeName ? cluster.objects.get(T.persistentvolumes, undefined, volumeName) : undefined;
  if (!pv || (pv.spec as Any)?.csi?.driver !== 's3.csi.aws.com') return undefined;
  const m = parseMountpointVolume(pv);
  return 'error' in m ? undefined : m;
}
