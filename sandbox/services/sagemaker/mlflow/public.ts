import { keyed } from '../../../core/keyed.js';
import type { SandboxState } from '../../../core/store.js';
import {
  allServers,
  findServerByArn,
  isServing,
  type ReporterSource,
  type RunStatus,
  type StoredRun,
} from './state.js';
import { appendPoints, createExperiment, createRun, experimentByName, RUN_NAME_TAG } from './tracking.js';

export { mlflowOperations } from './ops.js';
export { mlflowTick } from './lifecycle.js';
export { isMlflowRequest, serveMlflow, MLFLOW_SIGNING_NAME, type MlflowCall } from './endpoint.js';
export type { ReporterSource, RunStatus } from './state.js';

/**
 * What the rest of the sandbox may do with managed MLflow: the simulated trainers of the sandbox's
 * Kubernetes clusters log to a tracking server as a training script with `mlflow` and the
 * sagemaker-mlflow plugin would (sandbox/kube/controllers/mlflow-reporter.ts), and the inventory.
 */

/** A run a trainer reports to, opaque to callers: they act on it through the functions below. */
export type TrainerRun = StoredRun;

/**
 * The run named `runName` in experiment `experimentName` of the tracking server (both created when
 * missing, as `mlflow.set_experiment` and `mlflow.start_run(run_name=…)` do); undefined while the
 * server does not exist or is not serving (a trainer's calls would fail then).
 */
export function trainerRun(
  state: SandboxState,
  target: {
    trackingServerArn: string;
    experimentName: string;
    runName: string;
    userId: string;
    startTime: number;
    tags: Record<string, string>;
  },
  now: number,
): TrainerRun | undefined {
  const server = findServerByArn(state, target.trackingServerArn);
  if (!server || !isServing(server.status)) return undefined;
  const store = server.tracking;
  let experiment = experimentByName(store, target.experimentName);
  if (!experiment) experiment = createExperiment(store, server.artifactStoreUri, { name: target.experimentName }, now);
  if (experiment.lifecycleStage !== 'active') return undefined;
  const existing = keyed
    .values(store.runs)
    .filter(
      (r) =>
        r.experimentId === experiment.id &&
        r.lifecycleStage === 'active' &&
        keyed.get(r.tags, RUN_NAME_TAG) === target.runName,
    )
    .sort((a, b) => b.startTime - a.startTime)[0];
  if (existing) return existing;
  return createRun(
    store,
    {
      experimentId: experiment.id,
      runName: target.runName,
      userId: target.userId,
      startTime: target.startTime,
      tags: Object.entries(target.tags).map(([key, value]) => ({ key, value })),
    },
    now,
  );
}

export const reporterSourceOf = (run: TrainerRun): ReporterSource | undefined => run.reporter;

export function setReporterSource(run: TrainerRun, source: ReporterSource): void {
  run.reporter = source;
}

/** Appends parsed log values to metric histories: `[step, timestamp ms, value]` each. */
export function recordMetrics(
  run: TrainerRun,
  points: Array<{ key: string; step: number; timestamp: number; value: number }>,
): void {
  for (const p of points) appendPoints(run, p.key, [[p.step, p.timestamp, p.value]]);
}

export const runStatusOf = (run: TrainerRun): RunStatus => run.status;

/** RUNNING (clears the end time: a new pod took the run over), or a final status with its end. */
export function setRunStatus(run: TrainerRun, status: RunStatus, endTime?: number): void {
  run.status = status;
  if (status === 'RUNNING') delete run.endTime;
  else if (endTime !== undefined) run.endTime = endTime;
}

/** Runs whose reporting trainer lived in the given EKS cluster (for runs whose pod is gone). */
export function runsReportedFrom(state: SandboxState, clusterArn: string): TrainerRun[] {
  return allServers(state)
    .filter((s) => isServing(s.status))
    .flatMap((s) => keyed.values(s.tracking.runs))
    .filter((r) => r.reporter?.cluster === clusterArn);
}

/** Tracking servers for `GET /_sandbox/inventory`. */
export function mlflowInventory(state: SandboxState): Record<string, unknown[]> {
  return {
    mlflowTrackingServers: allServers(state).map((s) => ({
      region: s.region,
      name: s.name,
      arn: s.arn,
      status: s.status,
      url: s.url,
      artifactStoreUri: s.artifactStoreUri,
      experiments: keyed.size(s.tracking.experiments),
      runs: keyed.size(s.tracking.runs),
      tags: s.tags,
    })),
  };
}
