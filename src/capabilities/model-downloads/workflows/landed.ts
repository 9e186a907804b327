import type { CloudPort, KubePort } from '../../../cloud/ports.js';
import { POD } from '../../../domain/kube/pod.js';
import { landedFiles } from '../../../domain/model-downloads.js';
import type { DownloadProgress, LandedFile, ModelDownloadInput } from '../../../domain/schemas/model-downloads.js';

/**
 * What a download has put in its storage so far, read from S3 (ListObjectsV2 of the download's
 * folder, every page). Progress is read from the storage rather than the CLI's log: it counts what
 * really landed (Mountpoint uploads each file when it is complete), it does not depend on the CLI's
 * progress-bar format (tqdm prints sparsely without a terminal, and differs between versions), and
 * it still answers once the pod is gone. It costs one List call per 1,000 files per poll.
 */
export async function readLanded(
  cloud: CloudPort,
  input: Pick<ModelDownloadInput, 'region' | 'bucket' | 'keyPrefix'> & { bucketRegion?: string },
): Promise<LandedFile[]> {
  const objects: Array<{ key: string; size: number }> = [];
  let continuationToken: string | undefined;
  do {
    const page = await cloud.storage.listObjects(input.bucketRegion ?? input.region, input.bucket, {
      prefix: input.keyPrefix,
      ...(continuationToken ? { continuationToken } : {}),
    });
    objects.push(...page.objects);
    continuationToken = page.nextToken;
  } while (continuationToken);
  return landedFiles(objects, input.keyPrefix);
}

export function progressOf(
  files: readonly LandedFile[],
  input: Pick<ModelDownloadInput, 'expectedFiles' | 'expectedBytes'>,
): DownloadProgress {
  return {
    files: files.length,
    totalFiles: input.expectedFiles,
    bytes: files.reduce((n, f) => n + f.size, 0),
    totalBytes: input.expectedBytes,
  };
}

/** The last lines the download's newest pod printed (why a failed Job failed, in the CLI's words). */
export async function lastLogLines(kube: KubePort, namespace: string, jobName: string, lines = 12): Promise<string[]> {
  const pods = await kube.list(POD, { namespace, labelSelector: `batch.kubernetes.io/job-name=${jobName}` });
  const newest = pods.sort((a, b) =>
    (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? ''),
  )[0];
  if (!newest) return [];
  try {
    const stream = await kube.logs({ name: newest.metadata.name, namespace }, { tailLines: lines });
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    return text.split('\n').filter((l) => l.trim() !== '');
  } catch {
    // A pod whose container never started has no log: the Job's own reason is then all there is.
    return [];
  }
}
