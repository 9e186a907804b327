import type { KubePort } from '../../../cloud/ports.js';
import { clusterTags, resourceNames } from '../../../domain/naming.js';
import { carriesTags } from '../../../domain/tags.js';
import type { AddStorageInput } from '../../../domain/schemas/storage.js';
import { fsxVolumeManifests, s3VolumeManifests } from '../../../domain/storage-manifests.js';
import {
  csiStoragePolicy,
  csiStoragePolicyName,
  STORAGE_LABEL,
  storageTarget,
  storageVolumeName,
} from '../../../domain/storage.js';
import { samePolicy } from '../../../domain/features/policy-document.js';
import type { PhaseContext, PhaseDefinition } from '../../../engine/workflow.js';
import { applyAndAwait } from '../../../workflows/apply-and-await.js';
import { describeHyperPod, kubeOfHyperPod } from '../../../workflows/cluster-access.js';
import type { WorkflowDeps } from '../../../workflows/context.js';
import { defineWorkflow, type KindWorkflow } from '../../../workflows/define.js';
import { lustreAvailability, requestLustreFileSystem } from '../../../workflows/lustre-file-system.js';
import { storageLocks } from './storage-locks.js';

export interface AddStorageState {
  /** fsx: the file system mounted, with what its volume needs (known once it is AVAILABLE). */
  fileSystemId?: string;
  dnsName?: string;
  mountName?: string;
  capacityGiB?: number;
}
type Phase = PhaseDefinition<AddStorageInput, AddStorageState>;
type Ctx = PhaseContext<AddStorageInput, AddStorageState>;

/** The `instantstart.io/part` tag of a file system made for one storage (it tells it from the cluster's shared one). */
export const storageFsxPart = (namespace: string, name: string): string => `storage/${namespace}/${name}`;
/** Tags of what add-storage makes: the cluster's tags, and which storage it is for. */
const storageTags = (i: AddStorageInput) => ({
  ...clusterTags(i.cluster, i.kind === 'fsx' ? storageFsxPart(i.namespace, i.name) : 'storage'),
  [STORAGE_LABEL]: `${i.namespace}/${i.name}`,
});

/**
 * s3 with createBucket: the bucket, tagged as this cluster's. Made in two calls (CreateBucket, then
 * PutBucketTagging), so it is done only once the bucket carries its tags: a crash between the two
 * leaves an untagged bucket that this observe sends back to act (which tags it).
 */
function bucketPhase(deps: WorkflowDeps): Phase {
  return {
    name: 'bucket',
    title: 'Create the S3 bucket',
    expectedSeconds: 5,
    deadline: { actSeconds: 300, waitSeconds: 300 }, // CreateBucket and its tags
    appliesTo: (i) => i.kind === 's3' && !!i.createBucket,
    async observe(ctx) {
      if (ctx.input.kind !== 's3' || !ctx.input.createBucket) return 'done';
      const tags = await deps.cloud.storage.bucketTags(ctx.input.bucketRegion ?? ctx.input.region, ctx.input.bucket!);
      return carriesTags(tags, storageTags(ctx.input)) ? 'done' : 'needs-act';
    },
    async act(ctx) {
      const region = ctx.input.bucketRegion ?? ctx.input.region;
      await deps.cloud.storage.ensureBucket(region, ctx.input.bucket!, storageTags(ctx.input), (m) => ctx.log(m));
    },
  };
}

/**
 * fsx: the file system — an existing one is read (the service checked it is AVAILABLE in the
 * cluster's VPC); a new one is asked for in the cluster's subnet and security group and awaited
 * until AVAILABLE (about 10 minutes on AWS), through the same steps create-cluster takes.
 */
function fileSystemPhase(deps: WorkflowDeps): Phase {
  const remember = (
    ctx: Ctx,
    fs: {
      FileSystemId?: string;
      DNSName?: string;
      LustreConfiguration?: { MountName?: string };
      StorageCapacity?: number;
    },
  ) =>
    ctx.setState({
      fileSystemId: fs.FileSystemId,
      dnsName: fs.DNSName,
      mountName: fs.LustreConfiguration?.MountName ?? 'fsx',
      capacityGiB: fs.StorageCapacity ?? ctx.input.storageCapacityGiB ?? 1200,
    });
  return {
    name: 'file-system',
    title: 'FSx for Lustre file system',
    expectedSeconds: 600,
    deadline: { actSeconds: 300, waitSeconds: 3600 }, // an FSx for Lustre file system takes minutes to tens of minutes
    appliesTo: (i) => i.kind === 'fsx',
    async observe(ctx) {
      if (ctx.input.kind !== 'fsx') return 'done';
      const i = ctx.input;
      const fs = i.createFileSystem
        ? await deps.cloud.storage.findFileSystem(i.region, i.cluster, storageFsxPart(i.namespace, i.name))
        : await deps.cloud.storage.describeFileSystem(i.region, i.fileSystemId!);
      if (!fs || fs.Lifecycle === 'FAILED') return 'needs-act';
      ctx.setState({ fileSystemId: fs.FileSystemId });
      if (fs.Lifecycle !== 'AVAILABLE') return 'in-progress';
      remember(ctx, fs);
      return 'done';
    },
    async act(ctx) {
      const i = ctx.input;
      if (!i.createFileSystem) {
        // The service saw it AVAILABLE a moment ago; it is gone or FAILED now: say so, nothing to make.
        await lustreAvailability(deps.cloud, i.region, i.fileSystemId!);
        return;
      }
      const fs = await requestLustreFileSystem(
        deps.cloud,
        {
          region: i.region,
          cluster: i.cluster,
          part: storageFsxPart(i.namespace, i.name),
          subnetId: i.subnetId!,
          securityGroupId: i.securityGroupId!,
          storageCapacityGiB: i.storageCapacityGiB ?? 1200,
          tags: storageTags(i),
          // Per storage and operation: a storage removed and added again gets a new file system.
          clientToken: `instantstart-${ctx.operationId}`.slice(0, 63),
        },
        (m) => ctx.log(m),
      );
      ctx.setState({ fileSystemId: fs.FileSystemId });
    },
    pollKey: (ctx) => `fsx:${ctx.input.region}:${ctx.state.fileSystemId ?? ctx.input.name}`,
    async await(ctx) {
      const standing = await lustreAvailability(
        deps.cloud,
        ctx.input.region,
        ctx.state.fileSystemId ?? ctx.input.fileSystemId!,
      );
      if (!('available' in standing)) return { done: false, progress: standing.progress };
      remember(ctx, standing.available);
      return { done: true, progress: `FSx ${standing.available.FileSystemId} AVAILABLE` };
    },
  };
}

/**
 * s3: the S3 CSI driver mounts with its own role, which create-cluster scoped to the shared bucket.
 * One inline policy per storage lets it reach this storage's bucket (its prefix; read-only or
 * read-write); remove-storage deletes exactly that policy. A cluster whose driver has no
 * InstantStart role (not made by InstantStart) is left alone: its owner grants access.
 */
function driverAccessPhase(deps: WorkflowDeps): Phase {
  const wanted = async (i: AddStorageInput) => ({
    role: resourceNames(i.cluster, await deps.cloud.accountId(), i.region).s3CsiRole,
    policy: csiStoragePolicyName(i.namespace, i.name),
    document: csiStoragePolicy({ bucket: i.bucket!, prefix: i.prefix ?? '', readOnly: i.readOnly }),
  });
  return {
    name: 'driver-access',
    title: 'Let the S3 CSI driver reach the bucket',
    expectedSeconds: 5,
    deadline: { actSeconds: 300, waitSeconds: 600 }, // an IAM policy and the CSI driver's pods
    appliesTo: (i) => i.kind === 's3',
    async observe(ctx) {
      if (ctx.input.kind !== 's3') return 'done';
      const w = await wanted(ctx.input);
      if (!(await deps.cloud.iam.find(w.role))) {
        ctx.log(
          `The S3 CSI driver has no InstantStart role (${w.role}): grant its own role access to s3://${ctx.input.bucket}/${ctx.input.prefix ?? ''}`,
          'warn',
        );
        return 'done';
      }
      const current = await deps.cloud.iam.inlinePolicy(w.role, w.policy);
      return current !== undefined && samePolicy(current, w.document) ? 'done' : 'needs-act';
    },
    async act(ctx) {
      const w = await wanted(ctx.input);
      await deps.cloud.iam.putInlinePolicy(w.role, w.policy, w.document);
      ctx.log(
        `Role ${w.role}: inline policy ${w.policy} allows ${ctx.input.readOnly ? 'reading' : 'reading and writing'} s3://${ctx.input.bucket}/${ctx.input.prefix ?? ''}`,
      );
    },
  };
}

function manifests(ctx: Ctx) {
  const i = ctx.input;
  const names = {
    volumeName: storageVolumeName(i.namespace, i.name),
    claimName: i.name,
    namespace: i.namespace,
    labels: { [STORAGE_LABEL]: `${i.namespace}.${i.name}` },
  };
  if (i.kind === 's3') {
    return s3VolumeManifests({
      ...names,
      bucket: i.bucket!,
      region: i.bucketRegion ?? i.region,
      prefix: i.prefix,
      readOnly: i.readOnly,
      volumeHandle: `s3-csi-${names.volumeName}`,
    });
  }
  const s = ctx.state;
  return fsxVolumeManifests({
    ...names,
    fileSystemId: s.fileSystemId!,
    dnsName: s.dnsName!,
    mountName: s.mountName ?? 'fsx',
    capacityGiB: s.capacityGiB ?? 1200,
  });
}

/** The PersistentVolume and its claim, applied and awaited until the claim is Bound. */
function volumePhase(deps: WorkflowDeps): Phase {
  const kube = async (ctx: Ctx): Promise<KubePort> =>
    kubeOfHyperPod(
      deps.cloud,
      await describeHyperPod(deps.cloud, ctx.input.region, ctx.input.cluster),
      ctx.input.region,
      { required: true },
    );
  return {
    ...applyAndAwait<AddStorageInput, AddStorageState>({
      name: 'volume',
      title: 'PersistentVolume and claim',
      expectedSeconds: 10,
      deadline: { actSeconds: 300, waitSeconds: 900 }, // PersistentVolume and claim, until Bound
      kube,
      manifests,
      readyProgress: (ctx) => `Claim ${ctx.input.namespace}/${ctx.input.name} is Bound`,
      pollKey: (ctx) =>
        `kube:${ctx.input.region}:${ctx.input.cluster}:storage:${ctx.input.namespace}/${ctx.input.name}`,
    }),
    after: ['bucket', 'file-system', 'driver-access'],
  };
}

/**
 * add-storage: a bucket or file system (found, or made), the S3 CSI driver's access to it, and the
 * volume and claim pods mount. Every phase observes first, so a repeat of a storage that exists as
 * asked changes nothing.
 *
 *   bucket ──────┐
 *   file-system ─┼─ volume
 *   driver-access┘
 */
export function addStorageWorkflow(deps: WorkflowDeps): KindWorkflow<'add-storage', AddStorageState> {
  return defineWorkflow('add-storage', {
    target: (i) => storageTarget(i.region, i.cluster, i.namespace, i.name),
    locks: (i) => storageLocks(i.region, i.cluster, i.namespace, i.name),
    initialState: () => ({}),
    phases: [
      { ...bucketPhase(deps), after: [] },
      { ...fileSystemPhase(deps), after: [] },
      { ...driverAccessPhase(deps), after: [] },
      volumePhase(deps),
    ],
    result: (s, i) => ({
      cluster: i.cluster,
      storage: i.name,
      namespace: i.namespace,
      kind: i.kind,
      claim: `${i.namespace}/${i.name}`,
      volumeName: storageVolumeName(i.namespace, i.name),
      ...(i.kind === 's3'
        ? { bucket: i.bucket, prefix: i.prefix ?? '', access: i.readOnly ? 'read-only' : 'read-write' }
        : { fileSystemId: s.fileSystemId }),
    }),
  });
}
