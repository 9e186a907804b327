import {
  conditionOf,
  health,
  kubeKind,
  num,
  parseBase,
  parseConditions,
  rec,
  str,
  type Condition,
  type KubeHealth,
  type KubeResource,
  type Loose,
} from './kind.js';

/**
 * Job (batch/v1): what InstantStart runs to completion in a cluster (a model download). Read live:
 * Kubernetes tracks it, so its state is never copied into our store. The builders live with what a
 * Job is for (e.g. src/domain/model-downloads.ts).
 */

export type KubeJob = KubeResource & {
  spec: Loose & { backoffLimit?: number };
  status: Loose & {
    active: number;
    succeeded: number;
    failed: number;
    startTime?: string;
    completionTime?: string;
    conditions: Condition[];
  };
};

export function parseJob(raw: unknown): KubeJob {
  const base = parseBase(raw, { apiVersion: 'batch/v1', kind: 'Job' });
  const spec = rec(base.spec);
  const status = rec(base.status);
  return {
    ...base,
    spec: { ...spec, ...(num(spec.backoffLimit) !== undefined ? { backoffLimit: num(spec.backoffLimit) } : {}) },
    status: {
      ...status,
      active: num(status.active) ?? 0,
      succeeded: num(status.succeeded) ?? 0,
      failed: num(status.failed) ?? 0,
      ...(str(status.startTime) ? { startTime: str(status.startTime) } : {}),
      ...(str(status.completionTime) ? { completionTime: str(status.completionTime) } : {}),
      conditions: parseConditions(status.conditions),
    },
  };
}

export const JOB = kubeKind<KubeJob>(
  { apiVersion: 'batch/v1', kind: 'Job', plural: 'jobs', namespaced: true, health: jobHealth },
  parseJob,
);

export type JobState = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

/** Complete → Succeeded, Failed → Failed (with Kubernetes' reason), a pod running → Running, else Pending. */
export function jobState(job: KubeJob): { state: JobState; reason?: string; message?: string } {
  const failed = conditionOf(job.status.conditions, 'Failed');
  if (failed?.status === 'True')
    return {
      state: 'Failed',
      ...(failed.reason ? { reason: failed.reason } : {}),
      ...(failed.message ? { message: failed.message } : {}),
    };
  if (conditionOf(job.status.conditions, 'Complete')?.status === 'True') return { state: 'Succeeded' };
  return { state: job.status.active > 0 ? 'Running' : 'Pending' };
}

/** Finished well is healthy, failed is failed (it will not run again by itself), anything else is on its way. */
export function jobHealth(job: KubeJob): KubeHealth {
  const s = jobState(job);
  if (s.state === 'Succeeded') return health('healthy', 'complete', `Job ${job.metadata.name} completed.`);
  if (s.state === 'Failed')
    return health(
      'failed',
      s.reason ?? 'failed',
      `Job ${job.metadata.name} failed${s.message ? `: ${s.message}` : ''}.`,
    );
  return health(
    'transitional',
    s.state.toLowerCase(),
    `Job ${job.metadata.name} is ${s.state === 'Running' ? 'running' : 'waiting for its pod to start'}.`,
  );
}
