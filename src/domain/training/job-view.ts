import {
  hyperpodJobStatus,
  hyperpodPyTorchJobHealth,
  hyperpodRecoveryBudget,
  HPJOB_LABEL,
  REPLICA_INDEX_LABEL,
  REPLICA_NAME_LABEL,
  type KubeHyperPodPyTorchJob,
} from '../kube/hyperpod-pytorch-job.js';
import type { Condition, KubeResource } from '../kube/kind.js';
import { podHealth, type KubePod } from '../kube/pod.js';
import { RAY_CLUSTER_LABEL, RAY_GROUP_LABEL, RAY_NODE_TYPE_LABEL, type KubeRayCluster } from '../kube/ray-cluster.js';
import { rayJobHealth, rayJobRecoveryBudget, rayJobStatus, type KubeRayJob } from '../kube/ray-job.js';
import type { RankView, TrainingJobView } from '../schemas/training.js';
import { checkpointDir, outputDir } from './data-contract.js';
import {
  INSTANCE_GROUP_ANNOTATION,
  MLFLOW_ARN_ANNOTATION,
  MLFLOW_EXPERIMENT_ANNOTATION,
  RECIPE_LABEL,
  STORAGE_ANNOTATION,
} from './job-manifest.js';

/**
 * The job view (schemas/training.ts TrainingJobView) of a HyperPodPyTorchJob or a RayJob and the
 * pods read with it: phase, recovery budget, ranks. Pure: the service reads the objects, this
 * joins them. A list passes no pods (ranks stay empty); a get passes the job's pods.
 */

/** The label selector of a HyperPodPyTorchJob's pods (what the HyperPod CLI selects by too). */
export const hyperpodPodSelector = (job: string): string => `${HPJOB_LABEL}=${job}`;
/** The label selector of a Ray cluster's pods. */
export const rayPodSelector = (rayCluster: string): string => `${RAY_CLUSTER_LABEL}=${rayCluster}`;
/** Kubernetes' label on a batch Job's pods, naming the Job. */
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
/**
 * The label selector of a RayJob's submitter pods: KubeRay runs `ray job submit` (K8sJobMode, its
 * default) in a batch Job named after the RayJob, and that pod prints the entrypoint's output — the
 * driver, where VERL's step lines are.
 */
export const raySubmitterSelector = (rayJob: string): string => `${JOB_NAME_LABEL}=${rayJob}`;
/** The role of a RayJob's submitter among its ranks. */
export const SUBMITTER_ROLE = 'submitter';
/** Whether a RayJob runs a submitter pod: K8sJobMode, KubeRay's default (HTTPMode and the others submit without one). */
export const hasSubmitterPod = (job: KubeRayJob): boolean => (job.spec.submissionMode ?? 'K8sJobMode') === 'K8sJobMode';

const instanceIdOfNode = (node: string | undefined) => (node ? /^hyperpod-(i-[0-9a-f]+)$/.exec(node)?.[1] : undefined);

function rankView(rank: number, pod: KubePod, role: string | undefined): RankView {
  const node = pod.spec.nodeName;
  const instanceId = instanceIdOfNode(node);
  return {
    rank,
    pod: pod.metadata.name,
    ...(role ? { role } : {}),
    ...(node ? { node } : {}),
    ...(instanceId ? { instanceId } : {}),
    phase: pod.status.phase,
    restarts: pod.status.containerStatuses.reduce((n, c) => n + c.restartCount, 0),
    health: podHealth(pod),
  };
}

/**
 * A HyperPodPyTorchJob's pods by global rank: the replica index (label, else the name's last part)
 * counted across replica specs in order. Pods of the job whose rank cannot be told come last.
 */
export function hyperpodRanks(job: KubeHyperPodPyTorchJob, pods: readonly KubePod[]): RankView[] {
  const offsets = new Map<string, number>();
  let offset = 0;
  for (const spec of job.spec.replicaSpecs) {
    offsets.set(spec.name, offset);
    offset += Math.max(spec.replicas, spec.maxReplicas ?? 0);
  }
  const ranked = pods.map((pod) => {
    const name =
      pod.metadata.labels[REPLICA_NAME_LABEL] ??
      job.spec.replicaSpecs.find((s) => pod.metadata.name.startsWith(`${job.metadata.name}-${s.name}-`))?.name;
    const indexText = pod.metadata.labels[REPLICA_INDEX_LABEL] ?? /-(\d+)$/.exec(pod.metadata.name)?.[1];
    const index = indexText !== undefined && /^\d+$/.test(indexText) ? Number(indexText) : undefined;
    const base = name !== undefined ? offsets.get(name) : undefined;
    return { pod, role: name, rank: base !== undefined && index !== undefined ? base + index : undefined };
  });
  let next = offset;
  return ranked
    .sort(
      (a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.pod.metadata.name.localeCompare(b.pod.metadata.name),
    )
    .map((r) => rankView(r.rank ?? next++, r.pod, r.role));
}

/**
 * A RayJob's pods: the Ray cluster's head is rank 0, workers follow by group and name, and the
 * submitter (a pod of the batch Job, no Ray node) comes last — its newest pod, after a retry.
 */
export function rayRanks(pods: readonly KubePod[]): RankView[] {
  const isRayNode = (p: KubePod) =>
    p.metadata.labels[RAY_NODE_TYPE_LABEL] !== undefined || p.metadata.labels[JOB_NAME_LABEL] === undefined;
  const head = pods.filter((p) => p.metadata.labels[RAY_NODE_TYPE_LABEL] === 'head');
  const workers = pods
    .filter((p) => isRayNode(p) && p.metadata.labels[RAY_NODE_TYPE_LABEL] !== 'head')
    .sort(
      (a, b) =>
        (a.metadata.labels[RAY_GROUP_LABEL] ?? '').localeCompare(b.metadata.labels[RAY_GROUP_LABEL] ?? '') ||
        a.metadata.name.localeCompare(b.metadata.name),
    );
  const submitter = pods
    .filter((p) => !isRayNode(p))
    .sort(
      (a, b) =>
        Number(a.metadata.deletionTimestamp !== undefined) - Number(b.metadata.deletionTimestamp !== undefined) ||
        (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? ''),
    )[0];
  const nodes = [...head, ...workers].map((pod, i) =>
    rankView(
      i,
      pod,
      pod.metadata.labels[RAY_NODE_TYPE_LABEL] === 'head' ? 'head' : (pod.metadata.labels[RAY_GROUP_LABEL] ?? 'worker'),
    ),
  );
  return submitter ? [...nodes, rankView(nodes.length, submitter, SUBMITTER_ROLE)] : nodes;
}

function common(obj: KubeResource) {
  const a = obj.metadata.annotations;
  const recipe = obj.metadata.labels[RECIPE_LABEL];
  const arn = a[MLFLOW_ARN_ANNOTATION];
  return {
    name: obj.metadata.name,
    namespace: obj.metadata.namespace ?? 'default',
    ...(recipe ? { recipe } : {}),
    ...(a[INSTANCE_GROUP_ANNOTATION] ? { instanceGroup: a[INSTANCE_GROUP_ANNOTATION] } : {}),
    ...(a[STORAGE_ANNOTATION] ? { storage: a[STORAGE_ANNOTATION] } : {}),
    ...(obj.metadata.creationTimestamp ? { createdAt: obj.metadata.creationTimestamp } : {}),
    paths: { checkpoints: checkpointDir(obj.metadata.name), outputs: outputDir(obj.metadata.name) },
    ...(arn
      ? {
          mlflow: {
            trackingServerArn: arn,
            experimentName: a[MLFLOW_EXPERIMENT_ANNOTATION] ?? obj.metadata.name,
            runName: obj.metadata.name,
          },
        }
      : {}),
  };
}

const imageOf = (template: unknown): string | undefined => {
  const containers = (template as { spec?: { containers?: Array<{ image?: unknown }> } } | undefined)?.spec?.containers;
  const image = Array.isArray(containers) ? containers[0]?.image : undefined;
  return typeof image === 'string' ? image : undefined;
};

const conditionsView = (cs: readonly Condition[]) =>
  cs.map((c) => ({
    type: c.type,
    status: c.status,
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
    ...(c.lastTransitionTime ? { lastTransitionTime: c.lastTransitionTime } : {}),
  }));

export function hyperpodJobView(job: KubeHyperPodPyTorchJob, pods: readonly KubePod[] = []): TrainingJobView {
  const status = hyperpodJobStatus(job);
  const first = job.spec.replicaSpecs[0];
  const elastic = job.spec.elasticPolicy;
  const target = job.status.elasticScalingStatus?.targetReplicas;
  const image = imageOf(first?.template);
  return {
    ...common(job),
    kind: 'HyperPodPyTorchJob',
    nodes: job.spec.replicaSpecs.reduce((n, s) => n + s.replicas, 0),
    ...(image ? { image } : {}),
    ...status,
    recovery: hyperpodRecoveryBudget(job),
    health: hyperpodPyTorchJobHealth(job),
    ranks: hyperpodRanks(job, pods),
    conditions: conditionsView(job.status.conditions),
    ...(job.status.startTime ? { startedAt: job.status.startTime } : {}),
    ...(job.status.completionTime ? { finishedAt: job.status.completionTime } : {}),
    ...(elastic?.minReplicas !== undefined && elastic.maxReplicas !== undefined
      ? {
          elastic: {
            minReplicas: elastic.minReplicas,
            maxReplicas: elastic.maxReplicas,
            ...(target !== undefined ? { targetReplicas: target } : {}),
          },
        }
      : {}),
  };
}

export function rayJobView(job: KubeRayJob, pods: readonly KubePod[] = [], cluster?: KubeRayCluster): TrainingJobView {
  const spec = job.spec.rayClusterSpec;
  const workers = spec?.workerGroupSpecs.reduce((n, g) => n + g.replicas, 0) ?? 0;
  const image = imageOf(spec?.headGroupSpec.template);
  const clusterName = job.status.rayClusterName ?? cluster?.metadata.name;
  return {
    ...common(job),
    kind: 'RayJob',
    nodes: (spec ? 1 : 0) + workers,
    ...(image ? { image } : {}),
    ...rayJobStatus(job),
    recovery: rayJobRecoveryBudget(job),
    health: rayJobHealth(job),
    ranks: rayRanks(pods),
    conditions: [],
    ...(job.status.startTime ? { startedAt: job.status.startTime } : {}),
    ...(job.status.endTime ? { finishedAt: job.status.endTime } : {}),
    ...(clusterName
      ? {
          rayCluster: {
            name: clusterName,
            ...(cluster?.status.state ? { state: cluster.status.state } : {}),
            ...(cluster?.status.availableWorkerReplicas !== undefined
              ? { availableWorkers: cluster.status.availableWorkerReplicas }
              : {}),
            ...(cluster?.status.desiredWorkerReplicas !== undefined
              ? { desiredWorkers: cluster.status.desiredWorkerReplicas }
              : {}),
            ...(job.status.dashboardURL ? { dashboardURL: job.status.dashboardURL } : {}),
          },
        }
      : {}),
  };
}
