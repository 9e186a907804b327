import type { KubePort } from '../../../cloud/ports.js';
import { PERSISTENT_VOLUME_CLAIM } from '../../../domain/kube/persistent-volume-claim.js';
import { PERSISTENT_VOLUME } from '../../../domain/kube/persistent-volume.js';
import { keptStoragesOfTag } from '../../../domain/cluster-teardown.js';
import { resourceNames, TAG_CLUSTER, TAG_KEPT_STORAGE } from '../../../domain/naming.js';
import type { RemoveStorageInput } from '../../../domain/schemas/storage.js';
import { csiStoragePolicyName, dataResource, storageDataName, storageTarget } from '../../../domain/storage.js';
import type { PhaseContext, PhaseDefinition } from '../../../engine/workflow.js';
import { describeHyperPod, kubeOfHyperPod } from '../../../workflows/cluster-access.js';
import type { WorkflowDeps } from '../../../workflows/context.js';
import type { StorageWorkflowDeps } from '../ports.js';
import { defineWorkflow, type KindWorkflow } from '../../../workflows/define.js';
import { storageLocks } from './storage-locks.js';

type Empty = Record<string, never>;
type Phase = PhaseDefinition<RemoveStorageInput, Empty>;
type Ctx = PhaseContext<RemoveStorageInput, Empty>;

const kubeOf = async (deps: WorkflowDeps, ctx: Ctx): Promise<KubePort> =>
  kubeOfHyperPod(
    deps.cloud,
    await describeHyperPod(deps.cloud, ctx.input.region, ctx.input.cluster),
    ctx.input.region,
    { required: true },
  );

/**
 * The claim first: Kubernetes keeps a claim that running pods use (pvc-protection) until they end,
 * so with force the wait says which pods hold it.
 */
function claimPhase(deps: WorkflowDeps): Phase {
  return {
    name: 'claim',
    title: 'Delete the PersistentVolumeClaim',
    expectedSeconds: 5,
    deadline: { actSeconds: 300, waitSeconds: 3600 }, // the claim goes once no running pod uses it: allow an hour for them to end
    async observe(ctx) {
      const claim = await (await kubeOf(deps, ctx)).find(PERSISTENT_VOLUME_CLAIM, ctx.input.name, ctx.input.namespace);
      if (!claim) return 'done';
      return claim.metadata.deletionTimestamp ? 'in-progress' : 'needs-act';
    },
    async act(ctx) {
      await (await kubeOf(deps, ctx)).delete(PERSISTENT_VOLUME_CLAIM, ctx.input.name, ctx.input.namespace);
      ctx.log(`Deleted claim ${ctx.input.namespace}/${ctx.input.name}`);
    },
    pollKey: (ctx) => `kube:${ctx.input.region}:${ctx.input.cluster}:storage:${ctx.input.namespace}/${ctx.input.name}`,
    async await(ctx) {
      const claim = await (await kubeOf(deps, ctx)).find(PERSISTENT_VOLUME_CLAIM, ctx.input.name, ctx.input.namespace);
      return claim
        ? { done: false, progress: 'The claim is deleted once no running pod uses it (pvc-protection)' }
        : { done: true, progress: 'Claim gone' };
    },
  };
}

/** Then the volume (Retain: deleting it never touches the data). */
function volumePhase(deps: WorkflowDeps): Phase {
  return {
    name: 'volume',
    title: 'Delete the PersistentVolume',
    expectedSeconds: 5,
    deadline: { actSeconds: 300, waitSeconds: 900 }, // one delete
    appliesTo: (i) => !!i.volumeName,
    async observe(ctx) {
      if (!ctx.input.volumeName) return 'done';
      const pv = await (await kubeOf(deps, ctx)).find(PERSISTENT_VOLUME, ctx.input.volumeName);
      if (!pv) return 'done';
      return pv.metadata.deletionTimestamp ? 'in-progress' : 'needs-act';
    },
    async act(ctx) {
      await (await kubeOf(deps, ctx)).delete(PERSISTENT_VOLUME, ctx.input.volumeName!);
      ctx.log(`Deleted volume ${ctx.input.volumeName} (its data is kept: the volume's reclaim policy is Retain)`);
    },
    async await(ctx) {
      const pv = await (await kubeOf(deps, ctx)).find(PERSISTENT_VOLUME, ctx.input.volumeName!);
      return pv ? { done: false, progress: 'Waiting for the volume to go' } : { done: true, progress: 'Volume gone' };
    },
  };
}

/** The S3 CSI driver's inline policy for this storage (add-storage's), and nothing else of its role. */
function driverAccessPhase(deps: WorkflowDeps): Phase {
  const names = async (i: RemoveStorageInput) => ({
    role: resourceNames(i.cluster, await deps.cloud.accountId(), i.region).s3CsiRole,
    policy: csiStoragePolicyName(i.namespace, i.name),
  });
  return {
    name: 'driver-access',
    title: "Withdraw the S3 CSI driver's access to the storage",
    expectedSeconds: 5,
    deadline: { actSeconds: 300, waitSeconds: 600 }, // an IAM policy
    appliesTo: (i) => i.data.kind === 's3',
    async observe(ctx) {
      if (ctx.input.data.kind !== 's3') return 'done';
      const n = await names(ctx.input);
      return (await deps.cloud.iam.inlinePolicy(n.role, n.policy)) ? 'needs-act' : 'done';
    },
    async act(ctx) {
      const n = await names(ctx.input);
      await deps.cloud.iam.deleteInlinePolicy(n.role, n.policy);
      ctx.log(`Role ${n.role}: removed inline policy ${n.policy}`);
    },
  };
}

/** Only with deleteData (confirmed by name): the bucket, the objects under the storage's prefix, or the file system. */
function dataPhase(deps: WorkflowDeps): Phase {
  return {
    name: 'data',
    title: 'Delete the data',
    expectedSeconds: 30,
    deadline: { actSeconds: 7200, waitSeconds: 3600 }, // act empties a bucket (1,000 objects a call: millions take a while); FSx deletes take minutes
    // Kept data is no step of the removal: the operation's result names it as kept.
    appliesTo: (i) => i.deleteData,
    async observe(ctx) {
      const d = ctx.input.data;
      if (!ctx.input.deleteData) {
        ctx.log(`Keeping ${storageDataName(d)} (deleteData not asked)`);
        return 'done';
      }
      if (d.kind === 'fsx') {
        const fs = await deps.cloud.storage.describeFileSystem(ctx.input.region, d.fileSystemId);
        if (!fs) return 'done';
        return fs.Lifecycle === 'DELETING' ? 'in-progress' : 'needs-act';
      }
      const region = d.region ?? ctx.input.region;
      if (!(await deps.cloud.storage.bucketExists(region, d.bucket))) return 'done';
      if (!d.prefix) return 'needs-act';
      return (await deps.cloud.storage.listObjects(region, d.bucket, { prefix: d.prefix, maxKeys: 1 })).objects.length
        ? 'needs-act'
        : 'done';
    },
    async act(ctx) {
      const d = ctx.input.data;
      const log = (m: string) => ctx.log(m);
      if (d.kind === 'fsx') {
        await deps.cloud.storage.deleteFileSystem(ctx.input.region, d.fileSystemId);
        ctx.log(`Deleting FSx file system ${d.fileSystemId}`);
      } else if (d.prefix) {
        await deps.cloud.storage.deletePrefix(d.region ?? ctx.input.region, d.bucket, d.prefix, log);
      } else {
        await deps.cloud.storage.deleteBucket(d.region ?? ctx.input.region, d.bucket, log);
      }
    },
    pollKey: (ctx) =>
      `fsx:${ctx.input.region}:${ctx.input.data.kind === 'fsx' ? ctx.input.data.fileSystemId : ctx.input.name}`,
    async await(ctx) {
      const d = ctx.input.data;
      if (d.kind !== 'fsx') return { done: true };
      const fs = await deps.cloud.storage.describeFileSystem(ctx.input.region, d.fileSystemId);
      return fs ? { done: false, progress: `FSx ${fs.Lifecycle}` } : { done: true, progress: 'File system gone' };
    },
  };
}

/**
 * Without deleteData: the storage stays listed as kept, not mounted, until the user forgets it, and
 * the cluster's delete keeps its data. Data InstantStart made (tagged with the cluster) also gets the
 * kept-storage tag naming this storage, so a delete run from another server keeps it too.
 */
function keepPhase(deps: StorageWorkflowDeps): Phase {
  const facts = async (ctx: Ctx) => {
    const i = ctx.input;
    const region = i.data.kind === 's3' ? (i.data.region ?? i.region) : i.region;
    const tags = await deps.cloud.tagged.tagsOf(region, dataResource(i.data));
    const ours = tags?.[TAG_CLUSTER] === i.cluster;
    const marks = keptStoragesOfTag(tags?.[TAG_KEPT_STORAGE]);
    return { region, tags, ours, marks, me: `${i.namespace}/${i.name}` };
  };
  return {
    name: 'keep',
    title: "Remember the kept data (listed as kept, not mounted; kept by the cluster's delete)",
    expectedSeconds: 5,
    deadline: { actSeconds: 120, waitSeconds: 120 }, // one row in the server's own store
    // Deleted data is not kept: no step of that removal.
    appliesTo: (i) => !i.deleteData,
    async observe(ctx) {
      const i = ctx.input;
      const f = await facts(ctx);
      if (!f.tags) {
        ctx.log(`${storageDataName(i.data)} no longer exists: nothing to keep`, 'warn');
        return 'done';
      }
      const recorded = deps.keptStorages.get(i.region, i.cluster, i.namespace, i.name);
      return recorded && (!f.ours || f.marks.includes(f.me)) ? 'done' : 'needs-act';
    },
    async act(ctx) {
      const i = ctx.input;
      const f = await facts(ctx);
      if (f.ours && !f.marks.includes(f.me)) {
        await deps.cloud.tagged.tag(f.region, dataResource(i.data), {
          [TAG_KEPT_STORAGE]: [...f.marks, f.me].join(' '),
        });
        ctx.log(
          `Tagged ${storageDataName(i.data)} ${TAG_KEPT_STORAGE}=${[...f.marks, f.me].join(' ')}: the cluster's delete keeps it`,
        );
      }
      deps.keptStorages.put({
        region: i.region,
        cluster: i.cluster,
        namespace: i.namespace,
        name: i.name,
        data: i.data,
        ours: f.ours,
      });
      ctx.log(`Storage ${f.me} is listed as kept, not mounted, until it is forgotten`);
    },
  };
}

/**
 * remove-storage: the claim, then the volume, the S3 CSI driver's access, and — only when asked with
 * the data's name — the data itself; else the kept data is remembered (`keep`). The service refused it while running
 * pods mount the claim
 * (unless force) and resolved where the data is before anything was deleted.
 */
export function removeStorageWorkflow(deps: StorageWorkflowDeps): KindWorkflow<'remove-storage', Empty> {
  return defineWorkflow('remove-storage', {
    target: (i) => storageTarget(i.region, i.cluster, i.namespace, i.name),
    locks: (i) => storageLocks(i.region, i.cluster, i.namespace, i.name),
    initialState: () => ({}),
    phases: [
      claimPhase(deps),
      volumePhase(deps),
      { ...driverAccessPhase(deps), after: [] },
      { ...dataPhase(deps), after: ['volume'] },
      { ...keepPhase(deps), after: ['volume'] },
    ],
    result: (_s, i) => ({
      cluster: i.cluster,
      storage: i.name,
      namespace: i.namespace,
      data: storageDataName(i.data),
      dataDeleted: i.deleteData,
    }),
  });
}
