import { randomBytes } from 'node:crypto';
import {
  DEFAULT_HUB_ENDPOINT,
  HubRefusal,
  HuggingFaceHub,
  type HubModelRevision,
} from '../../cloud/huggingface/hub-client.js';
import type { KubePort } from '../../cloud/ports.js';
import { CloudError, ConflictError, PreconditionError } from '../../domain/errors.js';
import { opaqueSecretManifest, SECRET } from '../../domain/kube/secret.js';
import {
  DEFAULT_MODEL_DOWNLOAD_IMAGE,
  defaultDownloadPath,
  downloadTarget,
  MODEL_DOWNLOAD_LABEL,
  TOKEN_KEY,
} from '../../domain/model-downloads.js';
import {
  ModelDownloadInputSchema,
  type LandedFile,
  type ModelDownloadInput,
  type ModelDownloadList,
  type StartModelDownloadRequest,
} from '../../domain/schemas/model-downloads.js';
import type { OperationView } from '../../domain/schemas/operations.js';
import { describeHyperPod, kubeOfHyperPod } from '../../workflows/cluster-access.js';
import type { ServiceDeps } from '../capability.js';
import { resolveDownloadStorage, type DownloadStorage } from './storage-target.js';
import { listModelDownloads } from './views.js';
import { readLanded } from './workflows/landed.js';

type Started = { operation: OperationView; existing: boolean };

/** The image of the download Job: INSTANTSTART_MODEL_DOWNLOAD_IMAGE, else the pinned default (src/domain/model-downloads.ts says why). */
export const downloadImage = (env: NodeJS.ProcessEnv = process.env): string =>
  env.INSTANTSTART_MODEL_DOWNLOAD_IMAGE?.trim() || DEFAULT_MODEL_DOWNLOAD_IMAGE;

const refused = (path: 'modelId' | 'revision' | 'token', message: string) =>
  new PreconditionError({ message: `${path}: ${message}`, problems: [{ path, message }] });

/**
 * The rules of model downloads: nothing is created until the model has been checked on the Hub
 * (exists, revision, size, gate and whether the token opens it) and the storage resolved; then the
 * token, if any, goes into a Secret and the model-download operation starts with that Secret's name.
 */
export class ModelDownloadsService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly hub = new HuggingFaceHub(),
  ) {}

  async start(
    region: string,
    cluster: string,
    request: StartModelDownloadRequest,
    idempotencyKey?: string,
  ): Promise<Started> {
    const kube = await kubeOfHyperPod(
      this.deps.cloud,
      await describeHyperPod(this.deps.cloud, region, cluster),
      region,
      { required: true },
    );
    const storage = await resolveDownloadStorage(kube, request.storage);
    const revision = request.revision ?? 'main';
    const model = await this.checkModel(request.modelId, revision, request.token);
    const path = request.prefix ?? defaultDownloadPath(request.modelId, revision);
    const target = downloadTarget(region, cluster, storage.name, path);

    const running = this.deps.operations.activeFor(target);
    if (running) {
      const same = running.input.modelId === request.modelId && running.input.commit === model.sha;
      if (same) return { operation: running, existing: true };
      throw new ConflictError({
        message: `prefix: download ${running.id} is writing ${storage.name}/${path} now; wait for it (wait_for_operation) or choose another prefix.`,
        field: 'prefix',
      });
    }
    const landed = await this.landed(target, request.modelId, model.sha);
    if (landed) return { operation: landed, existing: true };

    const jobName = `hf-download-${fnv8(target)}-${randomBytes(3).toString('hex').slice(0, 5)}`;
    const tokenSecret = request.token ? `${jobName}-token` : undefined;
    const input = this.inputFor({ region, cluster, request, revision, model, storage, path, jobName, tokenSecret });
    if (tokenSecret) await this.keepToken(kube, storage.namespace, tokenSecret, jobName, request.token!);
    try {
      return await this.deps.operations.start('model-download', input, { idempotencyKey });
    } catch (err) {
      // Nothing will use the Secret: it must not outlive the refused start.
      if (tokenSecret) await kube.delete(SECRET, tokenSecret, storage.namespace).catch(() => undefined);
      throw err;
    }
  }

  /**
   * The succeeded download of this very model commit into this folder, when every file it listed is
   * still there (read from S3, as its result was): a repeat of a download that landed answers it
   * instead of downloading again. Files removed or changed since mean a new download.
   */
  private async landed(target: string, modelId: string, commit: string): Promise<OperationView | undefined> {
    const [newest] = this.deps.operations.list({ kind: 'model-download', target, status: 'succeeded', limit: 1 });
    const input = newest && ModelDownloadInputSchema.safeParse(newest.input).data;
    if (!input || input.modelId !== modelId || input.commit !== commit) return undefined;
    const had = Array.isArray(newest.result?.files) ? (newest.result.files as LandedFile[]) : [];
    const now = new Map((await readLanded(this.deps.cloud, input)).map((f) => [f.path, f.size]));
    return had.length > 0 && had.every((f) => now.get(f.path) === f.size) ? newest : undefined;
  }

  list(region: string, cluster: string): Promise<ModelDownloadList> {
    return listModelDownloads(this.deps, region, cluster);
  }

  /** The model at the revision on the Hub, and (for gated or private models) whether the token opens its files; 422 naming the field otherwise. */
  private async checkModel(modelId: string, revision: string, token: string | undefined): Promise<HubModelRevision> {
    let model: HubModelRevision;
    try {
      model = await this.hub.modelRevision(modelId, revision, token);
    } catch (err) {
      if (!(err instanceof HubRefusal)) throw err;
      throw this.refusalOf(err, modelId, revision, token);
    }
    if ((model.gated || model.private) && model.files.length > 0) {
      const refusal = await this.hub.fileRefusal(modelId, model.sha, model.files[0]!.path, token);
      if (refusal) throw this.refusalOf(refusal, modelId, revision, token);
    }
    return model;
  }

  private refusalOf(r: HubRefusal, modelId: string, revision: string, token: string | undefined): Error {
    const hub = this.hub.endpoint;
    if (r.code === 'RevisionNotFound')
      return refused(
        'revision',
        `model ${modelId} has no revision '${revision}' on the Hugging Face Hub (${hub}): ${r.message}`,
      );
    if (r.code === 'GatedRepo') {
      return refused(
        'token',
        token
          ? `model ${modelId} is gated and this token's account is not granted access (${r.message}). Ask for access at ${hub}/${modelId}, then give a token of the account that has it.`
          : `model ${modelId} is gated: give a Hugging Face access token (token) of an account granted access (${r.message}).`,
      );
    }
    if (r.status === 401 && token && /credentials/i.test(r.message))
      return refused(
        'token',
        `the Hugging Face Hub does not accept this token (${r.message}); check it at ${hub}/settings/tokens.`,
      );
    if (r.code === 'RepoNotFound' || r.status === 404 || r.status === 401) {
      return refused(
        'modelId',
        `model ${modelId} does not exist on the Hugging Face Hub (${hub})${token ? '' : ', or it is private (then give a token that can read it)'}: ${r.message}`,
      );
    }
    return new CloudError({
      service: 'huggingface',
      operation: 'ModelInfo',
      code: r.code ?? `HTTP${r.status}`,
      message: `The Hugging Face Hub (${hub}) refused to describe ${modelId}: ${r.message}`,
      httpStatus: r.status >= 500 ? 502 : r.status,
    });
  }

  private inputFor(p: {
    region: string;
    cluster: string;
    request: StartModelDownloadRequest;
    revision: string;
    model: HubModelRevision;
    storage: DownloadStorage;
    path: string;
    jobName: string;
    tokenSecret?: string;
  }): ModelDownloadInput {
    return {
      cluster: p.cluster,
      region: p.region,
      modelId: p.request.modelId,
      revision: p.revision,
      commit: p.model.sha,
      storage: p.storage.name,
      namespace: p.storage.namespace,
      claimName: p.storage.claimName,
      bucket: p.storage.bucket,
      ...(p.storage.bucketRegion && p.storage.bucketRegion !== p.region
        ? { bucketRegion: p.storage.bucketRegion }
        : {}),
      path: p.path,
      keyPrefix: `${p.storage.prefix}${p.path}/`,
      jobName: p.jobName,
      ...(p.tokenSecret ? { tokenSecret: p.tokenSecret } : {}),
      image: downloadImage(),
      ...(this.hub.endpoint !== DEFAULT_HUB_ENDPOINT ? { hubEndpoint: this.hub.endpoint } : {}),
      expectedFiles: p.model.files.length,
      expectedBytes: p.model.totalBytes,
    };
  }

  /** The token goes into a Secret of its own, labelled with the Job that will read it (and nothing else keeps it). */
  private async keepToken(
    kube: KubePort,
    namespace: string,
    name: string,
    jobName: string,
    token: string,
  ): Promise<void> {
    await kube.apply(
      SECRET,
      opaqueSecretManifest({
        name,
        namespace,
        key: TOKEN_KEY,
        value: token,
        labels: { [MODEL_DOWNLOAD_LABEL]: jobName },
      }),
    );
  }
}

/** 8 hex of FNV-1a: a short, stable name part per download folder. */
function fnv8(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}
