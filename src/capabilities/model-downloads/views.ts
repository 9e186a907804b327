import { mapLimited } from '../../cloud/aws/catalog/paginate.js';
import type { KubePort } from '../../cloud/ports.js';
import { JOB, jobState } from '../../domain/kube/job.js';
import { downloadTargetPrefix, s3Uri } from '../../domain/model-downloads.js';
import {
  ModelDownloadInputSchema,
  type LandedFile,
  type ModelDownloadList,
  type ModelDownloadView,
} from '../../domain/schemas/model-downloads.js';
import type { OperationView } from '../../domain/schemas/operations.js';
import { describeHyperPod, kubeOfHyperPod } from '../../workflows/cluster-access.js';
import type { ServiceDeps } from '../capability.js';
import { progressOf, readLanded } from './workflows/landed.js';

/** How many downloads are read at once (one Job read and, while unfinished, one S3 listing each). */
const CONCURRENCY = 4;
/** The newest model-download operations looked at. */
const NEWEST = 200;

/**
 * The model downloads of a cluster: its model-download operations (our journal: what was asked and
 * what landed), each with its Job read live from Kubernetes (never copied into our store) and, while
 * not succeeded, what has landed so far read from S3. A cluster whose Kubernetes API cannot be read
 * still lists its downloads, without their Jobs.
 */
export async function listModelDownloads(
  deps: ServiceDeps,
  region: string,
  cluster: string,
): Promise<ModelDownloadList> {
  const hp = await describeHyperPod(deps.cloud, region, cluster);
  const prefix = downloadTargetPrefix(region, cluster);
  const ops = deps.operations
    .list({ kind: 'model-download', limit: NEWEST })
    .filter((op) => op.target.startsWith(prefix));
  const kube = ops.length ? await kubeOfHyperPod(deps.cloud, hp, region).catch(() => undefined) : undefined;
  const downloads = (await mapLimited(ops, CONCURRENCY, (op) => viewOf(deps, op, kube))).filter(
    (d): d is ModelDownloadView => d !== undefined,
  );
  return { cluster, region, downloads };
}

async function viewOf(
  deps: ServiceDeps,
  op: OperationView,
  kube: KubePort | undefined,
): Promise<ModelDownloadView | undefined> {
  const parsed = ModelDownloadInputSchema.safeParse(op.input);
  if (!parsed.success) return undefined;
  const input = parsed.data;
  const resultFiles = Array.isArray(op.result?.files) ? (op.result.files as LandedFile[]) : undefined;
  // S3 is read only while the download runs: finished ones answer from their result (failed ones have none).
  const unfinished = !['succeeded', 'failed', 'cancelled'].includes(op.status);
  const files =
    op.status === 'succeeded'
      ? resultFiles
      : unfinished
        ? await readLanded(deps.cloud, input).catch(() => undefined)
        : undefined;
  const job = kube ? await jobView(kube, input.jobName, input.namespace) : undefined;
  return {
    operationId: op.id,
    status: op.status,
    modelId: input.modelId,
    revision: input.revision,
    commit: input.commit,
    storage: input.storage,
    path: input.path,
    destination: s3Uri(input.bucket, input.keyPrefix),
    createdAt: op.createdAt,
    ...(op.finishedAt ? { finishedAt: op.finishedAt } : {}),
    ...(files ? { progress: progressOf(files, input) } : {}),
    ...(job ? { job } : {}),
    ...(op.status === 'succeeded' && files ? { files } : {}),
    ...(op.error ? { error: op.error } : {}),
  };
}

async function jobView(kube: KubePort, name: string, namespace: string): Promise<ModelDownloadView['job']> {
  try {
    const job = await kube.find(JOB, name, namespace);
    if (!job) return { name, namespace, state: 'Gone' };
    const s = jobState(job);
    return {
      name,
      namespace,
      state: s.state,
      ...(s.reason || s.message ? { message: [s.reason, s.message].filter(Boolean).join(': ') } : {}),
    };
  } catch {
    return undefined;
  }
}
