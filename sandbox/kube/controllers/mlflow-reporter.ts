import type { SandboxRuntime } from '../../core/service.js';
import type { SandboxState } from '../../core/store.js';
import {
  recordMetrics,
  reporterSourceOf,
  runsReportedFrom,
  runStatusOf,
  setReporterSource,
  setRunStatus,
  trainerRun,
  type ReporterSource,
  type RunStatus,
  type TrainerRun,
} from '../../services/sagemaker/mlflow/public.js';
import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { containerEnv } from './container-env.js';
import { programOf } from './log-programs.js';
import { parseMetricLine } from './training-programs.js';
import { T, type Any } from './util.js';

/**
 * The MLflow calls of the sandbox's simulated trainers. A training script run with
 * `MLFLOW_TRACKING_URI=<tracking server ARN>` (the sagemaker-mlflow plugin's form),
 * `MLFLOW_EXPERIMENT_NAME` and `MLFLOW_RUN_NAME` in its container's environment logs, from rank 0
 * only (`NODE_RANK` 0 or unset), what its metric lines say — `step=<int> loss=<float>
 * tokens/s=<float> lr=<float>`, anywhere in a line — as the metrics `loss`, `throughput` and
 * `learning_rate` at that step, timed when the line was printed. The lines are the container's
 * log (log-programs.ts), read on from where the last pass stopped, across its restarts.
 *
 * One run per run name in the experiment: a restarted container or a replacement pod (a full-job
 * restart) keeps logging to it. The run is FINISHED when the pod succeeds, FAILED when it fails,
 * KILLED when the pod goes while running, and RUNNING again when a new pod takes it over. While the
 * server does not exist or is not serving nothing is recorded; the lines are recorded once it serves.
 */

/** The MLflow metrics of one log line (the trainers' metric line contract, training-programs.ts); none for other lines. */
export function metricsOfLine(text: string): Array<{ key: string; step: number; value: number }> {
  const m = parseMetricLine(text);
  if (!m) return [];
  return [
    { key: 'loss', step: m.step, value: m.loss },
    { key: 'throughput', step: m.step, value: m.tokensPerSecond },
    { key: 'learning_rate', step: m.step, value: m.lr },
  ];
}

interface Reporter {
  pod: KubeObject;
  container: Any;
  status: Any;
  env: Record<string, string>;
  trackingServerArn: string;
}

const mentionsMlflow = (c: Any) =>
  ((c.env ?? []) as Any[]).some((e) => e?.name === 'MLFLOW_TRACKING_URI') || ((c.envFrom ?? []) as Any[]).length > 0;
const TRACKING_ARN = /^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:mlflow-tracking-server\/.+$/;

/** Every pass: the rank-0 trainers of this cluster log what they printed since the last pass. */
export function reportToMlflow(cluster: KubeCluster, state: SandboxState, runtime: SandboxRuntime | undefined): void {
  const now = cluster.now();
  let changed = false;
  const candidates = cluster.objects.select(
    T.pods,
    undefined,
    (p) =>
      Boolean((p.status as Any | undefined)?.startTime) && ((p.spec as Any)?.containers ?? []).some(mentionsMlflow),
  ).items;
  const reported = runsReportedFrom(state, cluster.arn);
  // Most clusters have no trainer reporting to MLflow: nothing more to read.
  if (candidates.length === 0 && reported.length === 0) return;
  /** Pod uid → phase, of every pod: who may take a run over, and whose trainer is gone. */
  const live = new Map<string, string>();
  cluster.objects.scan(T.pods, undefined, (p) =>
    live.set(p.metadata.uid!, String((p.status as Any | undefined)?.phase ?? 'Pending')),
  );
  for (const pod of candidates) {
    const reporter = reporterOf(cluster, pod);
    if (reporter && report(cluster, state, reporter, live, now)) changed = true;
  }
  // A trainer whose pod is gone while its run was RUNNING was stopped (the job was deleted, the pod evicted).
  for (const run of reported) {
    const source = reporterSourceOf(run)!;
    if (runStatusOf(run) !== 'RUNNING' || live.has(source.uid)) continue;
    setRunStatus(run, 'KILLED', now);
    changed = true;
  }
  if (changed) runtime?.store?.markDirty();
}

/** The pod's MLflow-reporting container, when it is rank 0 and names a tracking server. */
function reporterOf(cluster: KubeCluster, pod: KubeObject): Reporter | undefined {
  const statuses = ((pod.status as Any).containerStatuses ?? []) as Any[];
  for (const container of ((pod.spec as Any).containers ?? []) as Any[]) {
    if (!mentionsMlflow(container)) continue;
    const { vars, error } = containerEnv(cluster, pod, container);
    const uri = vars.MLFLOW_TRACKING_URI;
    if (error || !uri || !TRACKING_ARN.test(uri)) continue;
    if (vars.NODE_RANK !== undefined && vars.NODE_RANK !== '0') return undefined;
    const status = statuses.find((s) => s.name === container.name);
    if (!status) return undefined;
    return { pod, container, status, env: vars, trackingServerArn: uri };
  }
  return undefined;
}

/** One container run's window, from its status: the current run or, one restart later, the last. */
function runWindow(status: Any, run: number): { start: number; end?: number } | undefined {
  const of = (state: Any | undefined) => {
    if (state?.running) return { start: Date.parse(state.running.startedAt) };
    if (state?.terminated)
      return { start: Date.parse(state.terminated.startedAt), end: Date.parse(state.terminated.finishedAt) };
    return undefined;
  };
  if (status.restartCount === run) return of(status.state);
  if (status.restartCount === run + 1) return of(status.lastState);
  return undefined;
}

function report(
  cluster: KubeCluster,
  state: SandboxState,
  r: Reporter,
  live: Map<string, string>,
  now: number,
): boolean {
  const restarts = Number(r.status.restartCount ?? 0);
  // The earliest run whose log can still be read: the previous one if the container restarted.
  const firstRun = runWindow(r.status, Math.max(0, restarts - 1)) ? Math.max(0, restarts - 1) : restarts;
  const first = runWindow(r.status, firstRun);
  if (!first) return false;
  const run = trainerRun(
    state,
    {
      trackingServerArn: r.trackingServerArn,
      experimentName: r.env.MLFLOW_EXPERIMENT_NAME || 'Default',
      runName: r.env.MLFLOW_RUN_NAME || r.env.JOB_NAME || r.pod.metadata.name!,
      userId: r.env.USER || 'root',
      startTime: first.start,
      tags: {
        'mlflow.user': r.env.USER || 'root',
        'mlflow.source.type': 'LOCAL',
        'mlflow.source.name': sourceName(r.container),
      },
    },
    now,
  );
  if (!run) return false;
  let changed = false;
  let source = reporterSourceOf(run);
  if (!source || source.uid !== r.pod.metadata.uid || source.container !== r.container.name) {
    // Another trainer still running under the same run name keeps it: the first one reports.
    const previous = source && live.get(source.uid);
    if (
      source &&
      source.cluster === cluster.arn &&
      previous !== undefined &&
      previous !== 'Succeeded' &&
      previous !== 'Failed'
    )
      return false;
    // A new trainer takes the run over (the first one, or a replacement pod after a full-job restart).
    source = {
      cluster: cluster.arn,
      namespace: r.pod.metadata.namespace ?? 'default',
      pod: r.pod.metadata.name!,
      uid: r.pod.metadata.uid!,
      container: r.container.name,
      restart: firstRun,
      loggedUntil: -1,
    };
    setReporterSource(run, source);
    changed = true;
  }
  changed = readRuns(cluster, r, run, source, restarts, now) || changed;
  const wanted = statusOf(r.pod);
  if (runStatusOf(run) !== wanted.status) {
    setRunStatus(run, wanted.status, wanted.end ?? now);
    changed = true;
  }
  return changed;
}

/** Records the lines of every run from the source's cursor up to now, moving the cursor on. */
function readRuns(
  cluster: KubeCluster,
  r: Reporter,
  run: TrainerRun,
  source: ReporterSource,
  restarts: number,
  now: number,
): boolean {
  let changed = false;
  for (let index = source.restart; index <= restarts; index++) {
    const window = runWindow(r.status, index);
    if (!window) continue;
    const until = Math.min(now, window.end ?? now);
    const from = Math.max(window.start, source.loggedUntil + 1);
    if (from > until) continue;
    const lines = programOf(r.pod, r.container, index, cluster).lines(window.start, from, until);
    const points = lines.flatMap((l) => metricsOfLine(l.text).map((m) => ({ ...m, timestamp: l.at })));
    if (points.length > 0) recordMetrics(run, points);
    source.loggedUntil = until;
    changed = true;
  }
  // Earlier runs are over (or no longer readable): the next pass reads only the current one.
  if (source.restart < restarts) {
    source.restart = restarts;
    changed = true;
  }
  return changed;
}

/** The run's status from its pod's phase (and, once finished, when its container ended). */
function statusOf(pod: KubeObject): { status: RunStatus; end?: number } {
  const st = pod.status as Any;
  const finished = ((st.containerStatuses ?? []) as Any[])
    .map((c) => Date.parse(c.state?.terminated?.finishedAt ?? ''))
    .filter((t) => !Number.isNaN(t));
  const end = finished.length ? Math.max(...finished) : undefined;
  if (st.phase === 'Succeeded') return { status: 'FINISHED', ...(end !== undefined ? { end } : {}) };
  if (st.phase === 'Failed') return { status: 'FAILED', ...(end !== undefined ? { end } : {}) };
  return { status: 'RUNNING' };
}

/** What the mlflow client records as the source: the script the container runs. */
function sourceName(container: Any): string {
  const argv = [...((container.command ?? []) as unknown[]), ...((container.args ?? []) as unknown[])].map(String);
  const script = argv.find((a) => /\.py$/.test(a));
  return script ?? (argv.length > 0 ? argv.join(' ').slice(0, 200) : String(container.image ?? ''));
}
