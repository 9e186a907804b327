/**
 * Deterministic names and tags of everything a managed cluster owns. Deterministic names make
 * creates idempotent (a repeat finds the first one) and tags make every resource findable again —
 * by the delete saga and by a person with the AWS CLI:
 * `aws ec2 describe-vpcs --filters Name=tag:instantstart.io/cluster,Values=demo`.
 */

export const TAG_CLUSTER = 'instantstart.io/cluster';
export const TAG_MANAGED_BY = 'instantstart.io/managed-by';
export const TAG_PART = 'instantstart.io/part';
export const MANAGED_BY_VALUE = 'instantstart';
/**
 * On a bucket or file system InstantStart made: the storages (`namespace/name`, space-separated)
 * removed keeping it. A cluster's delete keeps what carries it, whoever runs the delete.
 */
export const TAG_KEPT_STORAGE = 'instantstart.io/kept-storage';

/** The tags every resource of `cluster` carries; `part` says which piece it is (vpc, nat, …). */
export function clusterTags(cluster: string, part?: string): Record<string, string> {
  return {
    [TAG_CLUSTER]: cluster,
    [TAG_MANAGED_BY]: MANAGED_BY_VALUE,
    ...(part ? { [TAG_PART]: part } : {}),
    Name: part ? `${cluster}-${part}` : cluster,
  };
}

/** The same tags as AWS's `[{Key, Value}]` list. */
export function tagList(tags: Record<string, string>): Array<{ Key: string; Value: string }> {
  return Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
}

/** FNV-1a, enough to derive a short stable suffix (no crypto, so domain stays dependency-free). */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36).padStart(7, '0').slice(0, 6);
}

/** IAM's limit on a role name's length. */
export const ROLE_NAME_MAX = 64;

/**
 * A role name that must start with `prefix` — a managed policy that may pass only roles so named (the
 * inference operator's `SageMakerHyperPodInference*`) — and stays unique per cluster and Region (IAM is
 * global; cluster names are unique per Region): `<prefix>-<cluster>-<hash of region/cluster>`, the
 * cluster name cut so the whole fits IAM's 64 characters (the hash keeps two cut names apart).
 *
 * @example
 * prefixedRoleName('SageMakerHyperPodInference', 'demo', 'us-west-2') // 'SageMakerHyperPodInference-demo-<6 chars>'
 */
export function prefixedRoleName(prefix: string, cluster: string, region: string): string {
  const hash = shortHash(`${region}/${cluster}`);
  const room = ROLE_NAME_MAX - prefix.length - hash.length - 2;
  if (room < 1) throw new Error(`role name prefix '${prefix}' leaves no room for the cluster name`);
  const stem = cluster.slice(0, room).replace(/[-.]+$/, '');
  return `${prefix}-${stem}-${hash}`;
}

export interface ClusterResourceNames {
  hyperpodCluster: string;
  /** The Region the cluster is in (role names that must be unique per Region carry a hash of it). */
  region: string;
  eksCluster: string;
  eksClusterRole: string;
  executionRole: string;
  trainingOperatorRole: string;
  s3CsiRole: string;
  /** The ClusterRole HyperPod assumes to add and remove nodes for managed autoscaling. */
  autoscalingRole: string;
  /** Starts with `sagemaker-` because the HyperPod instance managed policy grants S3 access to such buckets. */
  bucket: string;
  persistentVolume: string;
  persistentVolumeClaim: string;
  fsxPersistentVolume: string;
  fsxPersistentVolumeClaim: string;
  /** First instance group. */
  initialGroup: string;
}

/** The EKS cluster that orchestrates the managed HyperPod cluster `cluster`. */
export const eksClusterNameFor = (cluster: string): string => `${cluster}-eks`;

/**
 * @example
 * resourceNames('demo', '000000000000', 'us-west-2').eksCluster // 'demo-eks'
 */
export function resourceNames(cluster: string, accountId: string, region: string): ClusterResourceNames {
  return {
    hyperpodCluster: cluster,
    region,
    eksCluster: eksClusterNameFor(cluster),
    eksClusterRole: `instantstart-${cluster}-eks-cluster`,
    executionRole: `instantstart-${cluster}-hyperpod-exec`,
    trainingOperatorRole: `instantstart-${cluster}-training-op`,
    s3CsiRole: `instantstart-${cluster}-s3-csi`,
    autoscalingRole: `instantstart-${cluster}-autoscaling`,
    bucket: `sagemaker-${cluster}-${shortHash(`${accountId}/${region}/${cluster}`)}`,
    persistentVolume: `${cluster}-s3-pv`,
    persistentVolumeClaim: 'shared-s3',
    fsxPersistentVolume: `${cluster}-fsx-pv`,
    fsxPersistentVolumeClaim: 'shared-fsx',
    initialGroup: 'workers',
  };
}

/**
 * The bucket a storage added with createBucket gets when the caller names none: `sagemaker-` (the
 * HyperPod instance role's managed policy reaches such buckets), the cluster and storage names, and
 * a hash that keeps it unique across accounts and Regions; at most 63 characters.
 *
 * @example
 * storageBucketName('demo', 'default', 'models', '000000000000', 'us-west-2') // 'sagemaker-demo-models-<6 chars>'
 */
export function storageBucketName(
  cluster: string,
  namespace: string,
  storage: string,
  accountId: string,
  region: string,
): string {
  const hash = shortHash(`${accountId}/${region}/${cluster}/${namespace}/${storage}`);
  const stem = `sagemaker-${cluster}-${storage}`.slice(0, 63 - hash.length - 1).replace(/[-.]+$/, '');
  return `${stem}-${hash}`;
}

/** What an operation on a cluster works on (its target), and the lock on the cluster itself. */
export const clusterTarget = (region: string, cluster: string): string => `cluster/${region}/${cluster}`;
/** What an operation on one instance group works on. */
export const instanceGroupTarget = (region: string, cluster: string, group: string): string =>
  `${clusterTarget(region, cluster)}/instance-group/${group}`;

/** What a node-action operation works on: the cluster's nodes. */
export const clusterNodesTarget = (region: string, cluster: string): string =>
  `${clusterTarget(region, cluster)}/nodes`;
/** The lock on one node: one node action at a time per node (a reboot and a replace of one node would fight). */
export const nodeLock = (region: string, cluster: string, nodeId: string): string =>
  `${clusterTarget(region, cluster)}/node/${nodeId}`;

/**
 * The cluster an operation's target names (`cluster/<region>/<name>`, alone or followed by what in
 * it: an instance group, autoscaling); undefined for a target that names no cluster.
 */
export function clusterOfTarget(target: string): { region: string; name: string } | undefined {
  const m = /^cluster\/([^/]+)\/([^/]+)(?:\/|$)/.exec(target);
  return m ? { region: m[1]!, name: m[2]! } : undefined;
}

/**
 * What an operation acts on inside its cluster, as a person reads it, from its target — the thing by its own name:
 * a storage by its name (its namespace only when not `default`), a model download by where it lands. Undefined for
 * the cluster itself or a target naming no cluster. Every face shows operations with it (the UI's lists and pages).
 *
 * @example
 * targetLabel('cluster/us-west-2/demo/storage/default/models') // "Storage models"
 * targetLabel('cluster/us-west-2/demo/instance-group/workers') // "Instance group workers"
 */
export function targetLabel(target: string): string | undefined {
  const rest = /^cluster\/[^/]+\/[^/]+\/(.+)$/.exec(target)?.[1];
  if (!rest) return undefined;
  const [kind = '', ...parts] = rest.split('/');
  if (kind === 'storage' && parts.length === 2)
    return `Storage ${parts[1]}${parts[0] === 'default' ? '' : ` (namespace ${parts[0]})`}`;
  if (kind === 'model-download' && parts.length >= 2)
    return `Model download to ${parts.slice(1).join('/')} (storage ${parts[0]})`;
  const label = kind.replace(/-/g, ' ');
  return `${label.charAt(0).toUpperCase()}${label.slice(1)}${parts.length ? ` ${parts.join('/')}` : ''}`;
}

/** An operation kind as words: `add-storage` → "Add storage". */
export function operationKindLabel(kind: string): string {
  const words = kind.replace(/-/g, ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

/**
 * The lock on a cluster's UpdateCluster channel. The operations that change a cluster's groups or
 * settings call UpdateCluster (or BatchAddClusterNodes) with groups restated from what they last
 * described, and HyperPod works through one update at a time: two at once could undo each other's
 * change or be refused mid-way. So they hold this lock exclusively, one after the other.
 */
export const clusterUpdateChannel = (region: string, cluster: string): string =>
  `${clusterTarget(region, cluster)}/update-cluster`;
