import { MANAGED_BY } from './kube/kind.js';
import type { KubeObject } from './kube-object.js';
import { clusterTarget } from './naming.js';
import type { LandedFile, ModelDownloadInput } from './schemas/model-downloads.js';

/**
 * The rules of a model download (docs/MODEL-DOWNLOADS.md): where the files go, what the Job that
 * fetches them looks like, and which objects under the folder are the model (not the CLI's
 * bookkeeping). Pure: the service and the workflow apply them.
 */

/** The label on the Job, its pods and the token Secret: the Job's name (a retry finds the Job by it). */
export const MODEL_DOWNLOAD_LABEL = 'instantstart.dev/model-download';
/** Where the storage's claim is mounted in the download container. */
export const STORAGE_MOUNT_PATH = '/data';
/** The key of the token in its Secret, and the variable huggingface_hub reads it from. */
export const TOKEN_KEY = 'HF_TOKEN';
/**
 * The downloader image: vLLM's official OpenAI-server image, pinned. It carries huggingface_hub with
 * the `hf` CLI (huggingface_hub ≥ 0.34) and hf_xet, it is public on Docker Hub, and clusters that
 * serve models pull it anyway, so nodes often have it cached. `python:3.12-slim` would need a
 * `pip install` at every start (network to PyPI, an unpinned version); a slimmer image with `hf` is
 * a better choice where one is mirrored: set INSTANTSTART_MODEL_DOWNLOAD_IMAGE.
 */
export const DEFAULT_MODEL_DOWNLOAD_IMAGE = 'vllm/vllm-openai:v0.11.0';
/** Finished download Jobs (and their pods) are removed by Kubernetes after a day; the operation keeps what landed. */
export const FINISHED_JOB_TTL_SECONDS = 86_400;
/** A download that runs longer than this is stopped (DeadlineExceeded). */
export const DOWNLOAD_DEADLINE_SECONDS = 12 * 3600;

/** `models/<owner>/<name>/<revision>` (a `/` in a revision becomes `--`, so each revision is one folder). */
export function defaultDownloadPath(modelId: string, revision: string): string {
  return `models/${modelId}/${revision.replaceAll('/', '--')}`;
}

/** What a download works on: one folder of one storage of a cluster (two downloads never write the same folder at once). */
export const downloadTarget = (region: string, cluster: string, storage: string, path: string): string =>
  `${clusterTarget(region, cluster)}/model-download/${storage}/${path}`;

/** The prefix every download target of a cluster starts with (its list). */
export const downloadTargetPrefix = (region: string, cluster: string): string =>
  `${clusterTarget(region, cluster)}/model-download/`;

/** `s3://bucket/prefix/`, as people and the aws CLI write it. */
export const s3Uri = (bucket: string, keyPrefix: string): string => `s3://${bucket}/${keyPrefix}`;

/** The files of the model among the objects under the folder: the CLI's `.cache/` bookkeeping is not the model. */
export function landedFiles(objects: ReadonlyArray<{ key: string; size: number }>, keyPrefix: string): LandedFile[] {
  return objects
    .filter((o) => o.key.startsWith(keyPrefix))
    .map((o) => ({ path: o.key.slice(keyPrefix.length), size: o.size }))
    .filter((f) => f.path !== '' && !f.path.endsWith('/') && !f.path.startsWith('.cache/'))
    .sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * The Job: one pod (restartPolicy Never, two more tries on failure) running
 * `hf download <model> --revision <commit> --local-dir /data/<path>` with the storage's claim at
 * /data. HF_TOKEN comes from the Secret by reference only (secretKeyRef); HF_ENDPOINT is set when
 * this server uses another Hub than the public one. HF_HOME points at the container's own disk so
 * the CLI's cache never lands in the storage. The pinned commit makes the Job fetch exactly what
 * was checked, even if the branch moves meanwhile.
 */
export function modelDownloadJobManifest(input: ModelDownloadInput): KubeObject {
  const labels = { ...MANAGED_BY, [MODEL_DOWNLOAD_LABEL]: input.jobName };
  const env: Array<Record<string, unknown>> = [
    { name: 'HF_HOME', value: '/tmp/hf-home' },
    { name: 'HF_HUB_DISABLE_TELEMETRY', value: '1' },
    ...(input.hubEndpoint ? [{ name: 'HF_ENDPOINT', value: input.hubEndpoint }] : []),
    ...(input.tokenSecret
      ? [{ name: TOKEN_KEY, valueFrom: { secretKeyRef: { name: input.tokenSecret, key: TOKEN_KEY } } }]
      : []),
  ];
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: input.jobName,
      namespace: input.namespace,
      labels,
      annotations: {
        'instantstart.dev/model-id': input.modelId,
        'instantstart.dev/revision': input.revision,
        'instantstart.dev/commit': input.commit,
      },
    },
    spec: {
      backoffLimit: 2,
      activeDeadlineSeconds: DOWNLOAD_DEADLINE_SECONDS,
      ttlSecondsAfterFinished: FINISHED_JOB_TTL_SECONDS,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          containers: [
            {
              name: 'download',
              image: input.image,
              command: [
                'hf',
                'download',
                input.modelId,
                '--revision',
                input.commit,
                '--local-dir',
                `${STORAGE_MOUNT_PATH}/${input.path}`,
              ],
              env,
              resources: { requests: { cpu: '1', memory: '2Gi' }, limits: { memory: '4Gi' } },
              volumeMounts: [{ name: 'storage', mountPath: STORAGE_MOUNT_PATH }],
            },
          ],
          volumes: [{ name: 'storage', persistentVolumeClaim: { claimName: input.claimName } }],
        },
      },
    },
  };
}

/** `3.1 MB`, `512 kB`: sizes for progress lines (powers of 1000, as S3 consoles and the hf CLI print). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = -1;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}
