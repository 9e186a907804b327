import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { deleteObject } from '../api/deletion.js';
import { recordEvent } from './events.js';
import { podFromTemplate } from './pod-template.js';
import { byController, isReady, podPhase, removeIfPresent, rfc3339, save, T, type Any } from './util.js';

/**
 * The Job controller: pods (labelled `batch.kubernetes.io/job-name` and `controller-uid`) up to
 * `parallelism` until `completions` succeed → SuccessCriteriaMet + Complete; failures (failed pods,
 * and container restarts under restartPolicy OnFailure) beyond `backoffLimit` → FailureTarget +
 * Failed (BackoffLimitExceeded), as does running past `activeDeadlineSeconds` (DeadlineExceeded);
 * `suspend` removes the active pods; Indexed jobs give each pod its completion index; finished
 * jobs with `ttlSecondsAfterFinished` are deleted when it expires.
 */
export function runJobs(cluster: KubeCluster): void {
  const now = cluster.now();
  const podsOf = byController(cluster, T.pods);
  for (const job of cluster.objects.list(T.jobs)) {
    if (job.metadata.deletionTimestamp) continue;
    const spec = job.spec as Any;
    const st = (job.status ?? {}) as Any;
    const finished = ((st.conditions ?? []) as Any[]).find(
      (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
    );
    if (finished) {
      expire(cluster, job, spec, Date.parse(st.completionTime ?? finished.lastTransitionTime), now);
      continue;
    }
    const pods = podsOf(job);
    const succeededPods = pods.filter((p) => podPhase(p) === 'Succeeded');
    const failedPods = pods.filter((p) => podPhase(p) === 'Failed');
    let active = pods.filter((p) => !['Succeeded', 'Failed'].includes(podPhase(p)) && !p.metadata.deletionTimestamp);
    const indexed = spec.completionMode === 'Indexed';
    const completions = spec.completions ?? (indexed ? 1 : undefined);
    const parallelism = Number(spec.parallelism ?? 1);
    const doneIndexes = new Set(succeededPods.map(indexOf));
    const succeeded = indexed ? doneIndexes.size : succeededPods.length;
    const restarts =
      spec.template?.spec?.restartPolicy === 'OnFailure'
        ? pods.reduce(
            (n, p) =>
              n +
              (((p.status as Any)?.containerStatuses ?? []) as Any[]).reduce(
                (m, c) => m + Number(c.restartCount ?? 0),
                0,
              ),
            0,
          )
        : 0;
    const failed = failedPods.length + restarts;
    const at = rfc3339(now);
    const startTime = st.startTime ?? (spec.suspend ? undefined : at);
    const pastDeadline =
      spec.activeDeadlineSeconds !== undefined &&
      startTime &&
      now - Date.parse(startTime) >= Number(spec.activeDeadlineSeconds) * 1000;
    const next: Any = {
      ...st,
      ...(startTime ? { startTime } : {}),
      failed: failedPods.length,
      succeeded,
      terminating: 0,
      uncountedTerminatedPods: {},
    };
    const complete =
      completions !== undefined ? succeeded >= completions : succeededPods.length > 0 && active.length === 0;
    const conditionPair = (first: string, second: string, reason: string, message: string) => [
      ...((st.conditions ?? []) as Any[]).filter((c) => c.type !== first && c.type !== second),
      { type: first, status: 'True', reason, message, lastProbeTime: at, lastTransitionTime: at },
      { type: second, status: 'True', reason, message, lastProbeTime: at, lastTransitionTime: at },
    ];
    if (complete) {
      next.completionTime = at;
      next.conditions = conditionPair(
        'SuccessCriteriaMet',
        'Complete',
        'CompletionsReached',
        'Reached expected number of succeeded pods',
      );
      for (const p of active) removeIfPresent(cluster, T.pods, p);
      active = [];
      recordEvent(cluster, job, 'Normal', 'Completed', 'Job completed', 'job-controller');
    } else if (failed > Number(spec.backoffLimit ?? 6) || pastDeadline) {
      const [reason, message] = pastDeadline
        ? ['DeadlineExceeded', 'Job was active longer than specified deadline']
        : ['BackoffLimitExceeded', 'Job has reached the specified backoff limit'];
      for (const p of active)
        if (removeIfPresent(cluster, T.pods, p))
          recordEvent(cluster, job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${p.metadata.name}`, 'job-controller');
      active = [];
      next.conditions = conditionPair('FailureTarget', 'Failed', reason, message);
      recordEvent(cluster, job, 'Warning', reason, message, 'job-controller');
    } else if (spec.suspend) {
      for (const p of active) removeIfPresent(cluster, T.pods, p);
      active = [];
      next.conditions = [
        ...((st.conditions ?? []) as Any[]).filter((c) => c.type !== 'Suspended'),
        {
          type: 'Suspended',
          status: 'True',
          reason: 'JobSuspended',
          message: 'Job suspended',
          lastProbeTime: at,
          lastTransitionTime: at,
        },
      ];
    } else {
      const remaining = completions !== undefined ? completions - succeeded : parallelism;
      // After a failure, replacements wait 10 s, doubling per failure up to 6 min (the job controller's back-off).
      const lastFailure = Math.max(0, ...failedPods.map(finishedAt));
      const backoff = failedPods.length > 0 ? Math.min(360_000, 10_000 * 2 ** (failedPods.length - 1)) : 0;
      const want = now >= lastFailure + backoff ? Math.min(parallelism, remaining) - active.length : 0;
      const busy = new Set([...doneIndexes, ...active.map(indexOf)]);
      for (let i = 0, index = 0; i < want; i++) {
        while (indexed && busy.has(String(index))) index++;
        const pod = cluster.objects.create(T.pods, cluster.admit(T.pods, jobPod(job, indexed ? index : undefined)));
        if (indexed) busy.add(String(index));
        active.push(pod);
        recordEvent(cluster, job, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, 'job-controller');
      }
      if (((st.conditions ?? []) as Any[]).some((c) => c.type === 'Suspended'))
        next.conditions = ((st.conditions ?? []) as Any[]).filter((c) => c.type !== 'Suspended');
    }
    next.active = active.length;
    next.ready = active.filter(isReady).length;
    if (indexed) next.completedIndexes = ranges([...doneIndexes].map(Number));
    for (const k of ['active', 'failed', 'succeeded']) if (next[k] === 0) delete next[k];
    save(cluster, T.jobs, job, { ...job, status: next });
  }
}

const finishedAt = (p: KubeObject) =>
  Math.max(
    0,
    ...((((p.status as Any)?.containerStatuses ?? []) as Any[])
      .map((c) => Date.parse(c.state?.terminated?.finishedAt ?? ''))
      .filter(Number.isFinite) as number[]),
  );

const indexOf = (p: KubeObject) => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'] ?? '';

function jobPod(job: KubeObject, index: number | undefined): KubeObject {
  const spec = job.spec as Any;
  const name = job.metadata.name!;
  const labels: Record<string, string> = {
    'batch.kubernetes.io/controller-uid': job.metadata.uid!,
    'batch.kubernetes.io/job-name': name,
    'controller-uid': job.metadata.uid!,
    'job-name': name,
  };
  if (index !== undefined) labels['batch.kubernetes.io/job-completion-index'] = String(index);
  return podFromTemplate(
    job,
    spec.template,
    {
      generateName: index !== undefined ? `${name}-${index}-` : `${name}-`,
      labels,
      ...(index !== undefined ? { annotations: { 'batch.kubernetes.io/job-completion-index': String(index) } } : {}),
    },
    (podSpec) => {
      if (index === undefined) return;
      podSpec.hostname ??= `${name}-${index}`;
      for (const c of (podSpec.containers ?? []) as Any[])
        c.env = [
          ...(c.env ?? []),
          {
            name: 'JOB_COMPLETION_INDEX',
            valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } },
          },
        ];
    },
  );
}

/** `1,3-5` from [1, 3, 4, 5], as status.completedIndexes lists them. */
function ranges(values: number[]): string {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    out.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

/** The TTL-after-finished controller: a finished job goes (with its pods) `ttlSecondsAfterFinished` after it finished. */
function expire(cluster: KubeCluster, job: KubeObject, spec: Any, finishedAt: number, now: number): void {
  if (spec.ttlSecondsAfterFinished === undefined || !Number.isFinite(finishedAt)) return;
  if (now < finishedAt + Number(spec.ttlSecondsAfterFinished) * 1000) return;
  deleteObject(cluster, T.jobs, job, 'Background');
}
