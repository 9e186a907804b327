import { CloudError } from '../../../../domain/errors.js';
import { FSX_FILE_SYSTEM, S3_BUCKET } from '../../../../domain/cluster-teardown.js';
import { MLFLOW_SERVER } from '../../../../workflows/cluster-resources.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import type { ClusterWorkflowDeps } from '../../ports.js';
import { type Ctx, type Phase, toRemove } from './types.js';

// What the cluster made that holds data or bills by the hour, found by the cluster's tag (never by name):
// its MLflow tracking servers, then its buckets and file systems — less what the delete keeps.

/**
 * The MLflow tracking servers made for the cluster (tagged with it; they bill by the hour), before
 * its storage: a server's artifact store may be in the cluster's bucket. Awaited until gone. A
 * cluster whose default server is one of them is unlinked (before the delete, and again while it is
 * awaited: a resume after a crash between the two finds the servers Deleting and never acts).
 */
export function mlflowPhase(deps: ClusterWorkflowDeps): Phase {
  const servers = async (ctx: Ctx) => {
    const found = (await toRemove(deps, ctx, ['sagemaker'])).filter((r) => r.kind === MLFLOW_SERVER);
    for (const s of found)
      if (s.arn)
        for (const l of deps.mlflowLinks.unlinkServer(s.arn))
          ctx.log(`Cluster ${l.cluster} (${l.region}) no longer reports to ${s.id} by default`);
    return found;
  };
  return {
    name: 'mlflow',
    title: 'Delete the MLflow tracking servers made for the cluster',
    expectedSeconds: 120,
    deadline: { actSeconds: 300, waitSeconds: 1800 }, // a tracking server is deleted within minutes
    onFailure: 'continue',
    async observe(ctx) {
      const left = await servers(ctx);
      if (left.length === 0) return 'done';
      return left.every((s) => s.status === 'Deleting') ? 'in-progress' : 'needs-act';
    },
    async act(ctx) {
      for (const s of await servers(ctx)) {
        if (s.status === 'Deleting') continue;
        await deps.cloud.mlflow.deleteTrackingServer(ctx.input.region, s.id);
        ctx.log(`Deleting MLflow tracking server ${s.id}`);
      }
    },
    pollKey: (ctx) => `sagemaker:${ctx.input.region}:mlflow:${ctx.input.name}`,
    async await(ctx) {
      const left = await servers(ctx);
      const failed = left.find((s) => s.status === 'DeleteFailed');
      if (failed)
        throw new CloudError({
          service: 'sagemaker',
          operation: 'DeleteMlflowTrackingServer',
          code: 'DeleteFailed',
          message: `SageMaker could not delete MLflow tracking server ${failed.id}.`,
        });
      if (left.length === 0) return { done: true, progress: 'MLflow tracking servers gone' };
      if (left.some((s) => s.status !== 'Deleting'))
        return { done: false, observeAgain: true, progress: `${left.length} tracking server(s) left` };
      return { done: false, progress: `Deleting ${left.map((s) => s.id).join(', ')}` };
    },
  };
}

/**
 * Every bucket and FSx file system tagged with the cluster — the shared ones, the inference
 * operator's TLS bucket, those add-storage made — less what the delete keeps (storages removed
 * keeping their data; everything with keepStorage). Found by tag, never by the shared bucket's name.
 */
export function storagePhase(deps: WorkflowDeps): Phase {
  const data = async (ctx: Ctx) => {
    const left = await toRemove(deps, ctx, ['s3', 'fsx']);
    return {
      buckets: left.filter((r) => r.kind === S3_BUCKET),
      fileSystems: left.filter((r) => r.kind === FSX_FILE_SYSTEM),
    };
  };
  return {
    name: 'storage',
    title: "Delete the cluster's buckets and file systems (but what it keeps)",
    expectedSeconds: 120,
    deadline: { actSeconds: 7200, waitSeconds: 3600 }, // act empties buckets (1,000 objects a call: millions take a while); FSx deletes take minutes
    onFailure: 'continue',
    async observe(ctx) {
      const { buckets, fileSystems } = await data(ctx);
      if (buckets.length === 0 && fileSystems.length === 0) return 'done';
      // FSx refuses DeleteFileSystem while CREATING (a create cancelled while it was made): await it first.
      return buckets.length === 0 && fileSystems.every((f) => f.status === 'DELETING' || f.status === 'CREATING')
        ? 'in-progress'
        : 'needs-act';
    },
    async act(ctx) {
      const { buckets, fileSystems } = await data(ctx);
      for (const b of buckets) await deps.cloud.storage.deleteBucket(ctx.input.region, b.id, (m) => ctx.log(m));
      for (const f of fileSystems) {
        if (f.status === 'DELETING') continue;
        if (f.status === 'CREATING') {
          ctx.log(`FSx file system ${f.id} is still CREATING: it is deleted once that ends`);
          continue;
        }
        await deps.cloud.storage.deleteFileSystem(ctx.input.region, f.id);
        ctx.log(`Deleting FSx file system ${f.id}`);
      }
      for (const k of ctx.input.keeps ?? [])
        if (k.kind === S3_BUCKET || k.kind === FSX_FILE_SYSTEM)
          ctx.log(`Keeping ${k.kind} ${k.name}: ${k.reason ?? 'kept'}`);
    },
    pollKey: (ctx) => `fsx:${ctx.input.region}:teardown:${ctx.input.name}`,
    async await(ctx) {
      const { buckets, fileSystems } = await data(ctx);
      if (buckets.length === 0 && fileSystems.length === 0)
        return { done: true, progress: 'buckets and file systems gone' };
      // A bucket left, or a file system settled (AVAILABLE, FAILED, or CREATING no more): observe again, and act
      // deletes it.
      if (buckets.length || fileSystems.some((f) => f.status !== 'DELETING' && f.status !== 'CREATING')) {
        return { done: false, observeAgain: true, progress: `${buckets.length + fileSystems.length} left` };
      }
      return { done: false, progress: fileSystems.map((f) => `FSx ${f.id} ${f.status}`).join(', ') };
    },
  };
}
