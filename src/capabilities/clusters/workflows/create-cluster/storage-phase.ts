import { PERSISTENT_VOLUME_CLAIM } from '../../../../domain/kube/persistent-volume-claim.js';
import { clusterTags } from '../../../../domain/naming.js';
import { carriesTags } from '../../../../domain/tags.js';
import { s3VolumeManifests } from '../../../../domain/storage-manifests.js';
import type { PhaseContext, PhaseDefinition } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import {
  lustreAvailability,
  lustreVolumeManifests,
  requestLustreFileSystem,
} from '../../../../workflows/lustre-file-system.js';
import { namesFor } from './iam-eks-phases.js';
import type { CreateClusterInput, CreateClusterState } from './types.js';

type Ctx = PhaseContext<CreateClusterInput, CreateClusterState>;

/** The `instantstart.io/part` tag of the cluster's shared file system (storages added later carry another). */
const SHARED_FSX_PART = 'fsx';

async function wanted(deps: WorkflowDeps, ctx: Ctx) {
  const names = await namesFor(deps, ctx);
  const kube = await deps.cloud.kube(ctx.input.region, names.eksCluster);
  return { names, kube };
}

/** Shared S3 bucket + PV/PVC through the Mountpoint CSI driver; optionally FSx for Lustre + PV/PVC. */
export function storagePhase(deps: WorkflowDeps): PhaseDefinition<CreateClusterInput, CreateClusterState> {
  return {
    name: 'storage',
    title: 'Storage: shared S3 bucket (Mountpoint CSI) and optional FSx for Lustre',
    expectedSeconds: 60,
    deadline: { actSeconds: 600, waitSeconds: 3600 }, // an FSx for Lustre file system takes minutes to tens of minutes
    async observe(ctx) {
      const { s3, fsxLustre } = ctx.input.storage;
      if (!s3 && !fsxLustre) {
        ctx.log('No storage requested');
        return 'done';
      }
      const { names, kube } = await wanted(deps, ctx);
      if (s3) {
        // Tagged, not only there: CreateBucket and PutBucketTagging are two calls, a crash may fall between.
        if (
          !carriesTags(
            await deps.cloud.storage.bucketTags(ctx.input.region, names.bucket),
            clusterTags(ctx.input.name, 'bucket'),
          )
        )
          return 'needs-act';
        if (!(await kube.find(PERSISTENT_VOLUME_CLAIM, names.persistentVolumeClaim, 'default'))) return 'needs-act';
        ctx.setState({ bucket: names.bucket });
      }
      if (fsxLustre) {
        const fs = await deps.cloud.storage.findFileSystem(ctx.input.region, ctx.input.name, SHARED_FSX_PART);
        if (!fs) return 'needs-act';
        ctx.setState({ fileSystemId: fs.FileSystemId });
        if (fs.Lifecycle !== 'AVAILABLE') return fs.Lifecycle === 'FAILED' ? 'needs-act' : 'in-progress';
        if (!(await kube.find(PERSISTENT_VOLUME_CLAIM, names.fsxPersistentVolumeClaim, 'default'))) return 'needs-act';
      }
      return 'done';
    },
    async act(ctx) {
      const { s3, fsxLustre } = ctx.input.storage;
      const { names, kube } = await wanted(deps, ctx);
      if (s3) {
        await deps.cloud.storage.ensureBucket(
          ctx.input.region,
          names.bucket,
          clusterTags(ctx.input.name, 'bucket'),
          (m) => ctx.log(m),
        );
        await kube.applyAll(
          s3VolumeManifests({
            volumeName: names.persistentVolume,
            claimName: names.persistentVolumeClaim,
            bucket: names.bucket,
            region: ctx.input.region,
          }),
        );
        ctx.setState({ bucket: names.bucket });
        ctx.log(
          `PersistentVolume ${names.persistentVolume} and claim default/${names.persistentVolumeClaim} mount s3://${names.bucket}`,
        );
      }
      if (fsxLustre) {
        const fs = await requestLustreFileSystem(
          deps.cloud,
          {
            region: ctx.input.region,
            cluster: ctx.input.name,
            part: SHARED_FSX_PART,
            subnetId: ctx.state.subnets!.compute,
            securityGroupId: ctx.state.securityGroupId!,
            storageCapacityGiB: fsxLustre.storageCapacityGiB,
            tags: clusterTags(ctx.input.name, SHARED_FSX_PART),
          },
          (m) => ctx.log(`${m} (${ctx.input.availabilityZone})`),
        );
        ctx.setState({ fileSystemId: fs.FileSystemId });
      }
    },
    pollKey: (ctx) => `fsx:${ctx.input.region}:${ctx.state.fileSystemId ?? ctx.input.name}`,
    async await(ctx) {
      const fsxLustre = ctx.input.storage.fsxLustre;
      if (!fsxLustre) return { done: true };
      const standing = await lustreAvailability(deps.cloud, ctx.input.region, ctx.state.fileSystemId!);
      if (!('available' in standing)) return { done: false, progress: standing.progress };
      const fs = standing.available;
      const { names, kube } = await wanted(deps, ctx);
      const claim = await kube.find(PERSISTENT_VOLUME_CLAIM, names.fsxPersistentVolumeClaim, 'default');
      if (!claim) {
        // Binding the volume needs the file system's DNS name, known only once it is AVAILABLE.
        await kube.applyAll(
          lustreVolumeManifests(fs, {
            volumeName: names.fsxPersistentVolume,
            claimName: names.fsxPersistentVolumeClaim,
            fallbackCapacityGiB: fsxLustre.storageCapacityGiB,
          }),
        );
        ctx.log(
          `PersistentVolume ${names.fsxPersistentVolume} and claim default/${names.fsxPersistentVolumeClaim} mount ${fs.FileSystemId}`,
        );
      }
      return { done: true, progress: 'FSx AVAILABLE' };
    },
  };
}
