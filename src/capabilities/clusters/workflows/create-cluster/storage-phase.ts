import { CloudError } from '../../../../domain/errors.js';
import { PERSISTENT_VOLUME_CLAIM } from '../../../../domain/kube/persistent-volume-claim.js';
import { clusterTags } from '../../../../domain/naming.js';
import { fsxVolumeManifests, s3VolumeManifests } from '../../../../domain/storage-manifests.js';
import type { PhaseContext, PhaseDefinition } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import { namesFor } from './iam-eks-phases.js';
import type { CreateClusterInput, CreateClusterState } from './types.js';

type Ctx = PhaseContext<CreateClusterInput, CreateClusterState>;

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
    async observe(ctx) {
      const { s3, fsxLustre } = ctx.input.storage;
      if (!s3 && !fsxLustre) {
        ctx.log('No storage requested');
        return 'done';
      }
      const { names, kube } = await wanted(deps, ctx);
      if (s3) {
        if (!(await deps.cloud.storage.bucketExists(ctx.input.region, names.bucket))) return 'needs-act';
        if (!(await kube.find(PERSISTENT_VOLUME_CLAIM, names.persistentVolumeClaim, 'default'))) return 'needs-act';
        ctx.setState({ bucket: names.bucket });
      }
      if (fsxLustre) {
        const fs = await deps.cloud.storage.findFileSystem(ctx.input.region, ctx.input.name);
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
        await deps.cloud.storage.ensureBucket(ctx.input.region, names.bucket, clusterTags(ctx.input.name, 'bucket'), (m) => ctx.log(m));
        await kube.applyAll(s3VolumeManifests({ volumeName: names.persistentVolume, claimName: names.persistentVolumeClaim, bucket: names.bucket, region: ctx.input.region }));
        ctx.setState({ bucket: names.bucket });
        ctx.log(`PersistentVolume ${names.persistentVolume} and claim default/${names.persistentVolumeClaim} mount s3://${names.bucket}`);
      }
      if (fsxLustre) {
        let fs = await deps.cloud.storage.findFileSystem(ctx.input.region, ctx.input.name);
        if (!fs || fs.Lifecycle === 'FAILED') {
          fs = await deps.cloud.storage.createFileSystem(ctx.input.region, ctx.input.name, {
            subnetId: ctx.state.subnets!.compute,
            securityGroupId: ctx.state.securityGroupId!,
            storageCapacityGiB: fsxLustre.storageCapacityGiB,
            tags: clusterTags(ctx.input.name, 'fsx'),
          });
          ctx.log(`Requested FSx for Lustre ${fs.FileSystemId} (${fsxLustre.storageCapacityGiB} GiB) in ${ctx.input.availabilityZone}`);
        }
        ctx.setState({ fileSystemId: fs.FileSystemId });
      }
    },
    pollKey: (ctx) => `fsx:${ctx.input.region}:${ctx.state.fileSystemId ?? ctx.input.name}`,
    async await(ctx) {
      const fsxLustre = ctx.input.storage.fsxLustre;
      if (!fsxLustre) return { done: true };
      const fs = await deps.cloud.storage.describeFileSystem(ctx.input.region, ctx.state.fileSystemId!);
      if (!fs) throw new CloudError('fsx', 'DescribeFileSystems', 'FileSystemNotFound', `FSx file system ${ctx.state.fileSystemId} disappeared.`);
      if (fs.Lifecycle === 'FAILED') throw new CloudError('fsx', 'CreateFileSystem', 'FileSystemFailed', `FSx file system ${fs.FileSystemId} failed: ${fs.FailureDetails?.Message ?? 'no reason given'}`);
      if (fs.Lifecycle !== 'AVAILABLE') return { done: false, progress: `FSx ${fs.Lifecycle}` };
      const { names, kube } = await wanted(deps, ctx);
      const claim = await kube.find(PERSISTENT_VOLUME_CLAIM, names.fsxPersistentVolumeClaim, 'default');
      if (!claim) {
        // Binding the volume needs the file system's DNS name, known only once it is AVAILABLE.
        await kube.applyAll(
          fsxVolumeManifests({
            volumeName: names.fsxPersistentVolume,
            claimName: names.fsxPersistentVolumeClaim,
            fileSystemId: fs.FileSystemId!,
            dnsName: fs.DNSName!,
            mountName: fs.LustreConfiguration?.MountName ?? 'fsx',
            capacityGiB: fs.StorageCapacity ?? fsxLustre.storageCapacityGiB,
          }),
        );
        ctx.log(`PersistentVolume ${names.fsxPersistentVolume} and claim default/${names.fsxPersistentVolumeClaim} mount ${fs.FileSystemId}`);
      }
      return { done: true, progress: 'FSx AVAILABLE' };
    },
  };
}
