import type { KubePort } from '../../../cloud/ports.js';
import { CloudError } from '../../../domain/errors.js';
import { JOB, jobState } from '../../../domain/kube/job.js';
import { SECRET } from '../../../domain/kube/secret.js';
import { downloadTarget, formatBytes, modelDownloadJobManifest, s3Uri } from '../../../domain/model-downloads.js';
import { clusterTarget } from '../../../domain/naming.js';
import type { LandedFile, ModelDownloadInput } from '../../../domain/schemas/model-downloads.js';
import { exclusive, shared, type PhaseContext, type PhaseDefinition } from '../../../engine/workflow.js';
import { applyAndAwait } from '../../../workflows/apply-and-await.js';
import { describeHyperPod, kubeOfHyperPod } from '../../../workflows/cluster-access.js';
import type { WorkflowDeps } from '../../../workflows/context.js';
import { defineWorkflow, type KindWorkflow } from '../../../workflows/define.js';
import { lastLogLines, progressOf, readLanded } from './landed.js';

/**
 * model-download: a Hub model into one of the cluster's S3 storages (docs/MODEL-DOWNLOADS.md). The
 * request handler already checked the model on the Hub and, when a token was given, put it in a
 * Secret; the input names that Secret, never the token.
 *
 * 1. job — the Job running `hf download` (server-side apply of a deterministic name: a repeat or a
 *    resumed operation finds the same Job).
 * 2. download — follows the Job, live, to its end; progress is what has landed in S3. A failed Job
 *    fails the operation with its pod's last log lines, after deleting the token's Secret.
 * 3. token — deletes the token's Secret (the Job no longer needs it).
 * 4. result — lists what landed (files and sizes, from S3): the operation's result.
 */
export interface ModelDownloadState {
  files?: LandedFile[];
}
type Ctx = PhaseContext<ModelDownloadInput, ModelDownloadState>;
type Phase = PhaseDefinition<ModelDownloadInput, ModelDownloadState>;

const kubeOf = async (deps: WorkflowDeps, ctx: Ctx): Promise<KubePort> =>
  kubeOfHyperPod(
    deps.cloud,
    await describeHyperPod(deps.cloud, ctx.input.region, ctx.input.cluster),
    ctx.input.region,
    { required: true },
  );

const landedLine = (files: readonly LandedFile[], input: ModelDownloadInput) => {
  const p = progressOf(files, input);
  return `${p.files}/${p.totalFiles} files, ${formatBytes(p.bytes)} of ${formatBytes(p.totalBytes)} landed in ${s3Uri(input.bucket, input.keyPrefix)}`;
};

/** The token's Secret goes as soon as nothing needs it; a Secret already gone is fine. */
async function forgetToken(kube: KubePort, ctx: Ctx): Promise<void> {
  if (!ctx.input.tokenSecret) return;
  if (await kube.delete(SECRET, ctx.input.tokenSecret, ctx.input.namespace))
    ctx.log(`Deleted Secret ${ctx.input.namespace}/${ctx.input.tokenSecret} (the Hugging Face token)`);
}

function jobPhase(deps: WorkflowDeps): Phase {
  return applyAndAwait<ModelDownloadInput, ModelDownloadState>({
    name: 'job',
    title: 'Start the download Job (hf download)',
    expectedSeconds: 5,
    deadline: { actSeconds: 300, waitSeconds: 1800 }, // the Job is applied and its pod scheduled
    kube: (ctx) => kubeOf(deps, ctx),
    manifests: (ctx) => [modelDownloadJobManifest(ctx.input)],
    // The Job exists: following it is the next phase's (a failed Job fails there, with its log).
    ready: () => ({ done: true }),
    readyProgress: (ctx) =>
      `Job ${ctx.input.namespace}/${ctx.input.jobName} runs hf download ${ctx.input.modelId} (${ctx.input.revision} = ${ctx.input.commit.slice(0, 7)})`,
  });
}

function downloadPhase(deps: WorkflowDeps): Phase {
  return {
    name: 'download',
    title: 'Download the model into the storage',
    expectedSeconds: 300,
    deadline: { actSeconds: 300, waitSeconds: 43_200 }, // a long wait by intent: hundreds of GB from the Hub can take hours
    async observe(ctx) {
      const job = await (await kubeOf(deps, ctx)).find(JOB, ctx.input.jobName, ctx.input.namespace);
      if (!job)
        throw new CloudError({
          service: 'kubernetes',
          operation: 'Job',
          code: 'JobMissing',
          message: `Job ${ctx.input.namespace}/${ctx.input.jobName} is gone (deleted, or expired a day after it finished); start a new download.`,
        });
      return jobState(job).state === 'Succeeded' ? 'done' : 'in-progress';
    },
    pollKey: (ctx) => `kube:${ctx.input.region}:${ctx.input.cluster}:job:${ctx.input.namespace}/${ctx.input.jobName}`,
    async await(ctx) {
      const kube = await kubeOf(deps, ctx);
      const job = await kube.find(JOB, ctx.input.jobName, ctx.input.namespace);
      if (!job)
        throw new CloudError({
          service: 'kubernetes',
          operation: 'Job',
          code: 'JobMissing',
          message: `Job ${ctx.input.namespace}/${ctx.input.jobName} was deleted before it finished; start a new download.`,
        });
      const state = jobState(job);
      if (state.state === 'Failed') {
        const lines = await lastLogLines(kube, ctx.input.namespace, ctx.input.jobName);
        await forgetToken(kube, ctx);
        const why = `${state.reason ?? 'Failed'}${state.message ? `: ${state.message}` : ''}`;
        throw new CloudError({
          service: 'kubernetes',
          operation: 'Job',
          code: 'ModelDownloadFailed',
          message: `The download Job ${ctx.input.jobName} failed (${why}).${lines.length ? ` Its pod's last lines:\n${lines.join('\n')}` : ' Its pod left no log.'}`,
        });
      }
      const files = await readLanded(deps.cloud, ctx.input);
      if (state.state !== 'Succeeded')
        return {
          done: false,
          progress: `${state.state === 'Pending' ? 'Job waiting for its pod to start' : 'Downloading'}: ${landedLine(files, ctx.input)}`,
        };
      return { done: true, progress: landedLine(files, ctx.input) };
    },
  };
}

function tokenPhase(deps: WorkflowDeps): Phase {
  return {
    name: 'token',
    title: "Delete the token's Secret",
    expectedSeconds: 2,
    deadline: { actSeconds: 120, waitSeconds: 300 }, // one Secret
    appliesTo: (i) => !!i.tokenSecret,
    async observe(ctx) {
      if (!ctx.input.tokenSecret) return 'done';
      return (await (await kubeOf(deps, ctx)).find(SECRET, ctx.input.tokenSecret, ctx.input.namespace))
        ? 'needs-act'
        : 'done';
    },
    async act(ctx) {
      await forgetToken(await kubeOf(deps, ctx), ctx);
    },
  };
}

function resultPhase(deps: WorkflowDeps): Phase {
  return {
    name: 'result',
    title: 'List what landed',
    expectedSeconds: 2,
    deadline: { actSeconds: 300, waitSeconds: 300 }, // one listing
    verdict: 'Listed the files in the storage',
    async observe(ctx) {
      const files = await readLanded(deps.cloud, ctx.input);
      ctx.setState({ files });
      ctx.log(landedLine(files, ctx.input));
      return 'done';
    },
  };
}

export function modelDownloadWorkflow(deps: WorkflowDeps): KindWorkflow<'model-download', ModelDownloadState> {
  return defineWorkflow('model-download', {
    target: (i) => downloadTarget(i.region, i.cluster, i.storage, i.path),
    // The cluster stays (shared); one download at a time writes a folder (exclusive).
    locks: (i) => [
      shared(clusterTarget(i.region, i.cluster)),
      exclusive(downloadTarget(i.region, i.cluster, i.storage, i.path)),
    ],
    initialState: () => ({}),
    phases: [jobPhase(deps), downloadPhase(deps), tokenPhase(deps), resultPhase(deps)],
    result: (s, i) => {
      const files = s.files ?? [];
      return {
        modelId: i.modelId,
        revision: i.revision,
        commit: i.commit,
        storage: i.storage,
        destination: s3Uri(i.bucket, i.keyPrefix),
        files,
        totalFiles: files.length,
        totalBytes: files.reduce((n, f) => n + f.size, 0),
      };
    },
  });
}
