import type { KubePort } from '../../../cloud/ports.js';
import { POD, type KubePod } from '../../../domain/kube/pod.js';
import {
  hasSubmitterPod,
  hyperpodPodSelector,
  hyperpodRanks,
  rayPodSelector,
  rayRanks,
  raySubmitterSelector,
} from '../../../domain/training/job-view.js';
import type { RankedPod } from '../../../workflows/pod-logs/pod-runs.js';
import type { FoundJob } from '../jobs.js';

/**
 * A training job's ranks and the pod behind each, read from Kubernetes with the domain's selectors
 * (HPJob=<job>; a RayJob's by its Ray cluster and its submitter Job) and ranked as the job view ranks them, so a
 * log's `[rank N]` is the rank every other face shows. Also: why a rank's log cannot be read yet.
 */

/** The label selectors of the job's pods (a RayJob's: its Ray cluster's, once it has one, and its submitter's). */
export function podSelectorsOf(found: FoundJob): string[] {
  if (found.kind === 'HyperPodPyTorchJob') return [hyperpodPodSelector(found.job.metadata.name)];
  return [
    ...(found.job.status.rayClusterName ? [rayPodSelector(found.job.status.rayClusterName)] : []),
    ...(hasSubmitterPod(found.job) ? [raySubmitterSelector(found.job.metadata.name)] : []),
  ];
}

/** How many ranks the job has by its spec (a rank's pod may not exist yet); a RayJob's submitter is its last. */
export function rankCountOf(found: FoundJob): number {
  if (found.kind === 'HyperPodPyTorchJob')
    return found.job.spec.replicaSpecs.reduce((n, s) => n + Math.max(s.replicas, s.maxReplicas ?? 0), 0);
  const spec = found.job.spec.rayClusterSpec;
  return (
    (spec ? 1 + spec.workerGroupSpecs.reduce((n, g) => n + g.replicas, 0) : 0) + (hasSubmitterPod(found.job) ? 1 : 0)
  );
}

/**
 * The pods by rank. While a rank's pod is being replaced two pods may claim it: the one not being
 * deleted, then the newest, is the rank's.
 */
export function rankPods(found: FoundJob, pods: readonly KubePod[]): RankedPod[] {
  const views = found.kind === 'HyperPodPyTorchJob' ? hyperpodRanks(found.job, pods) : rayRanks(pods);
  const byName = new Map(pods.map((p) => [p.metadata.name, p]));
  const byRank = new Map<number, KubePod>();
  for (const v of views) {
    const pod = byName.get(v.pod);
    if (!pod) continue;
    const held = byRank.get(v.rank);
    if (!held || preferred(pod, held)) byRank.set(v.rank, pod);
  }
  return [...byRank].map(([rank, pod]) => ({ rank, pod })).sort((a, b) => a.rank - b.rank);
}

function preferred(a: KubePod, b: KubePod): boolean {
  const aGoing = a.metadata.deletionTimestamp !== undefined;
  const bGoing = b.metadata.deletionTimestamp !== undefined;
  if (aGoing !== bGoing) return !aGoing;
  return (a.metadata.creationTimestamp ?? '') > (b.metadata.creationTimestamp ?? '');
}

/** The job's pods now (none while a RayJob has no cluster yet). */
export async function readRankPods(kube: KubePort, found: FoundJob): Promise<RankedPod[]> {
  const namespace = found.job.metadata.namespace ?? 'default';
  const lists = await Promise.all(
    podSelectorsOf(found).map((labelSelector) => kube.list(POD, { namespace, labelSelector })),
  );
  return rankPods(found, lists.flat());
}
