import type { KubeObject } from '../kube-object.js';
import type { RecoveryBudget } from '../schemas/training.js';
import { trainingJobHealth, type TrainingStatus } from './hyperpod-pytorch-job.js';
import { kubeKind, num, parseBase, rec, str, time, type KubeHealth, type KubeResource, type Loose } from './kind.js';
import { parseRayClusterSpec, RAY_API, RAY_INSTALLED_BY, type KubeRayCluster } from './ray-cluster.js';

/**
 * RayJob (ray.io/v1): a Ray program KubeRay runs on a Ray cluster it creates for the job (the VERL
 * recipes). Its submitter is a batch/v1 Job named after the RayJob, labelled
 * `ray.io/originated-from-crd=RayJob` and `ray.io/originated-from-cr-name=<rayjob>`; its cluster is
 * `status.rayClusterName`. Shapes: hyperpod-apis.md §3.4.
 */

export const RAY_ORIGIN_KIND_LABEL = 'ray.io/originated-from-crd';
export const RAY_ORIGIN_NAME_LABEL = 'ray.io/originated-from-cr-name';

export type KubeRayJob = KubeResource & {
  spec: Loose & {
    entrypoint?: string;
    rayClusterSpec?: KubeRayCluster['spec'];
    backoffLimit?: number;
    suspend?: boolean;
    shutdownAfterJobFinishes?: boolean;
    submissionMode?: string;
  };
  status: Loose & {
    jobStatus?: string;
    jobDeploymentStatus?: string;
    reason?: string;
    message?: string;
    rayClusterName?: string;
    dashboardURL?: string;
    jobId?: string;
    succeeded?: number;
    failed?: number;
    startTime?: string;
    endTime?: string;
  };
};

export function parseRayJob(raw: unknown): KubeRayJob {
  const base = parseBase(raw, { apiVersion: RAY_API, kind: 'RayJob' });
  const spec = rec(base.spec);
  const status = rec(base.status);
  const s = (k: string) => (str(status[k]) ? { [k]: str(status[k]) } : {});
  const n = (k: string) => (num(status[k]) !== undefined ? { [k]: num(status[k]) } : {});
  const t = (k: string) => (time(status[k]) ? { [k]: time(status[k]) } : {});
  return {
    ...base,
    spec: {
      ...spec,
      ...(str(spec.entrypoint) !== undefined ? { entrypoint: str(spec.entrypoint) } : {}),
      ...(spec.rayClusterSpec !== undefined ? { rayClusterSpec: parseRayClusterSpec(spec.rayClusterSpec) } : {}),
      ...(num(spec.backoffLimit) !== undefined ? { backoffLimit: num(spec.backoffLimit) } : {}),
      ...(typeof spec.suspend === 'boolean' ? { suspend: spec.suspend } : {}),
      ...(typeof spec.shutdownAfterJobFinishes === 'boolean'
        ? { shutdownAfterJobFinishes: spec.shutdownAfterJobFinishes }
        : {}),
      ...(str(spec.submissionMode) !== undefined ? { submissionMode: str(spec.submissionMode) } : {}),
    },
    status: {
      ...status,
      ...s('jobStatus'),
      ...s('jobDeploymentStatus'),
      ...s('reason'),
      ...s('message'),
      ...s('rayClusterName'),
      ...s('dashboardURL'),
      ...s('jobId'),
      ...n('succeeded'),
      ...n('failed'),
      ...t('startTime'),
      ...t('endTime'),
    },
  };
}

export const RAY_JOB = kubeKind<KubeRayJob>(
  {
    apiVersion: RAY_API,
    kind: 'RayJob',
    plural: 'rayjobs',
    namespaced: true,
    crd: 'rayjobs.ray.io',
    installedBy: RAY_INSTALLED_BY,
    health: rayJobHealth,
  },
  parseRayJob,
);

/** A RayJob manifest with its own Ray cluster; the VERL recipes fill entrypoint and the cluster spec. */
export function rayJobManifest(p: {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  entrypoint: string;
  runtimeEnvYAML?: string;
  rayClusterSpec: Record<string, unknown>;
  backoffLimit: number;
  ttlSecondsAfterFinished: number;
}): KubeObject {
  return {
    apiVersion: RAY_API,
    kind: 'RayJob',
    metadata: {
      name: p.name,
      namespace: p.namespace,
      labels: p.labels,
      ...(p.annotations ? { annotations: p.annotations } : {}),
    },
    spec: {
      entrypoint: p.entrypoint,
      ...(p.runtimeEnvYAML ? { runtimeEnvYAML: p.runtimeEnvYAML } : {}),
      // The Ray cluster goes when the job ends (GPUs back); the RayJob itself stays for its status.
      shutdownAfterJobFinishes: true,
      ttlSecondsAfterFinished: p.ttlSecondsAfterFinished,
      backoffLimit: p.backoffLimit,
      rayClusterSpec: p.rayClusterSpec,
    },
  };
}

/**
 * The phase of a RayJob from KubeRay's two statuses: the deployment (jobDeploymentStatus:
 * Initializing → Running → Complete | Failed, Retrying between attempts) and the Ray job inside it
 * (jobStatus: PENDING → RUNNING → SUCCEEDED | FAILED | STOPPED).
 */
export function rayJobStatus(job: KubeRayJob): TrainingStatus {
  const { jobStatus = '', jobDeploymentStatus = '', reason, message } = job.status;
  const said = { ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
  if (jobDeploymentStatus === 'Failed' || jobStatus === 'FAILED') return { phase: 'Failed', ...said };
  if (jobStatus === 'STOPPED') return { phase: 'Failed', reason: reason ?? 'Stopped', ...(message ? { message } : {}) };
  if (jobDeploymentStatus === 'Complete' || jobStatus === 'SUCCEEDED') return { phase: 'Succeeded', ...said };
  if (jobDeploymentStatus === 'Retrying') return { phase: 'Restarting', ...said };
  if (jobDeploymentStatus === 'Suspending' || jobDeploymentStatus === 'Suspended' || job.spec.suspend)
    return { phase: 'Suspended', ...said };
  if (jobDeploymentStatus === 'Running' && jobStatus === 'RUNNING') return { phase: 'Running', ...said };
  return { phase: 'Pending', ...said };
}

/** Failed attempts (each retry runs on a new Ray cluster) of spec.backoffLimit; exhausted once the next failure would be final. */
export function rayJobRecoveryBudget(job: KubeRayJob): RecoveryBudget {
  const allowed = job.spec.backoffLimit ?? 0;
  const used = job.status.failed ?? 0;
  return { jobRetries: { used, allowed, remaining: Math.max(0, allowed - used) }, exhausted: used >= allowed };
}

export function rayJobHealth(job: KubeRayJob): KubeHealth {
  const deployment = job.status.jobDeploymentStatus;
  return trainingJobHealth(`RayJob ${job.metadata.name}`, rayJobStatus(job), {
    restarting: 'is retrying on a new Ray cluster',
    restartReason: 'retrying',
    pending: `is ${deployment ? deployment.toLowerCase() : 'waiting for its Ray cluster'}`,
  });
}
