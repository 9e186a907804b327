import type { KubeObject } from '../kube-object.js';
import type { Budget, LastFault, RecoveryBudget, TrainingPhase } from '../schemas/training.js';
import {
  bool,
  health,
  kubeKind,
  list,
  num,
  parseBase,
  parseConditions,
  rec,
  str,
  time,
  type Condition,
  type KubeHealth,
  type KubeResource,
  type Loose,
} from './kind.js';

/**
 * HyperPodPyTorchJob (sagemaker.amazonaws.com/v1): a distributed PyTorch job run by the HyperPod
 * training operator (the `training-operator` feature), with process-level restarts, log-monitoring
 * rules and an elastic size. Read live, never copied into our store. Shapes: hyperpod-apis.md §3.1,
 * next-capabilities.md §10 (the operator's status fields as AWS reports them). The recipes build
 * its manifests (src/domain/training/); this module reads them back and judges them.
 *
 * The operator names pods `<job>-<replicaSpec>-<index>` and labels them `HPJob=<job>` (what the
 * HyperPod CLI selects by), plus the replica's name and index.
 */

export const HYPERPOD_PYTORCH_JOB_API = 'sagemaker.amazonaws.com/v1';
export const HPJOB_LABEL = 'HPJob';
export const REPLICA_NAME_LABEL = 'sagemaker.amazonaws.com/replica-name';
export const REPLICA_INDEX_LABEL = 'sagemaker.amazonaws.com/replica-index';
/** The port the HyperPod elastic agent in each container listens on (hyperpodrun --server-port). */
export const ELASTIC_AGENT_PORT = 8080;

export type ReplicaSpec = { name: string; replicas: number; maxReplicas?: number; template: Loose };
export type LogRule = Loose & { name: string; logPattern?: string };
export type HyperPodRestartPolicy = {
  evalPeriodSeconds?: number;
  numRestartBeforeFullJobRestart?: number;
  maxFullJobRestarts?: number;
  maxNumRepeatOffendersToAvoid?: number;
};

export type KubeHyperPodPyTorchJob = KubeResource & {
  spec: Loose & {
    nprocPerNode?: string;
    replicaSpecs: ReplicaSpec[];
    runPolicy: Loose & {
      jobMaxRetryCount?: number;
      restartPolicy?: HyperPodRestartPolicy;
      logMonitoringConfiguration: LogRule[];
      suspend?: boolean;
    };
    elasticPolicy?: Loose & { minReplicas?: number; maxReplicas?: number };
  };
  status: Loose & {
    conditions: Condition[];
    restartCount: number;
    restartStatus?: { currentEvalPeriod?: string; fullJobRestartCount: number; restartCount: number };
    latestFaultyPodInstanceList?: {
      restartType?: string;
      faultyInstanceIdList: string[];
      faultyPodList: string[];
      faultyRankList: number[];
    };
    /** `targetReplicas` is per replica spec upstream (a map); here their sum, the job's target size. */
    elasticScalingStatus?: Loose & { targetReplicas?: number };
    startTime?: string;
    completionTime?: string;
  };
};

const strs = (v: unknown) => list(v).filter((x): x is string => typeof x === 'string');
/** Ranks as numbers whether the operator lists them as numbers or numeric strings. */
const ints = (v: unknown) =>
  list(v)
    .map((x) => (typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : x))
    .filter((x): x is number => typeof x === 'number' && Number.isInteger(x));
/**
 * The size the operator scales to: upstream a map of replica spec → replicas (the HyperPod CLI's
 * model of the CRD, ElasticScalingStatus.targetReplicas: Dict[str, int]), summed; a bare number is taken as it is.
 */
function targetSize(v: unknown): number | undefined {
  if (num(v) !== undefined) return num(v);
  const counts = Object.values(rec(v))
    .map(num)
    .filter((n): n is number => n !== undefined);
  return counts.length ? counts.reduce((a, b) => a + b, 0) : undefined;
}
/** The window as reported: a time, or a number (kept as its text); its shape is not documented. */
const evalPeriod = (v: unknown): string | undefined => time(v) ?? (num(v) !== undefined ? String(num(v)) : undefined);
const defined = <T extends Record<string, unknown>>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export function parseHyperPodPyTorchJob(raw: unknown): KubeHyperPodPyTorchJob {
  const base = parseBase(raw, { apiVersion: HYPERPOD_PYTORCH_JOB_API, kind: 'HyperPodPyTorchJob' });
  const spec = rec(base.spec);
  const status = rec(base.status);
  const run = rec(spec.runPolicy);
  const restart = rec(run.restartPolicy);
  const elastic = rec(spec.elasticPolicy);
  const rs = rec(status.restartStatus);
  const fault = rec(status.latestFaultyPodInstanceList);
  const scaling = rec(status.elasticScalingStatus);
  const nproc = spec.nprocPerNode;
  return {
    ...base,
    spec: {
      ...spec,
      ...(typeof nproc === 'string' || typeof nproc === 'number' ? { nprocPerNode: String(nproc) } : {}),
      replicaSpecs: list(spec.replicaSpecs)
        .map(rec)
        .filter((r) => typeof r.name === 'string')
        .map((r) => ({
          ...r,
          name: r.name as string,
          replicas: num(r.replicas) ?? 0,
          ...(num(r.maxReplicas) !== undefined ? { maxReplicas: num(r.maxReplicas) } : {}),
          template: rec(r.template),
        })),
      runPolicy: {
        ...run,
        ...(num(run.jobMaxRetryCount) !== undefined ? { jobMaxRetryCount: num(run.jobMaxRetryCount) } : {}),
        ...(Object.keys(restart).length
          ? {
              restartPolicy: defined({
                evalPeriodSeconds: num(restart.evalPeriodSeconds),
                numRestartBeforeFullJobRestart: num(restart.numRestartBeforeFullJobRestart),
                maxFullJobRestarts: num(restart.maxFullJobRestarts),
                maxNumRepeatOffendersToAvoid: num(restart.maxNumRepeatOffendersToAvoid),
              }),
            }
          : {}),
        logMonitoringConfiguration: list(run.logMonitoringConfiguration)
          .map(rec)
          .filter((r) => typeof r.name === 'string')
          .map((r) => ({ ...r, name: r.name as string })),
        ...(bool(run.suspend) !== undefined ? { suspend: bool(run.suspend) } : {}),
      },
      ...(Object.keys(elastic).length
        ? {
            elasticPolicy: { ...elastic, minReplicas: num(elastic.minReplicas), maxReplicas: num(elastic.maxReplicas) },
          }
        : {}),
    },
    status: {
      ...status,
      conditions: parseConditions(status.conditions),
      restartCount: num(status.restartCount) ?? 0,
      ...(Object.keys(rs).length
        ? {
            restartStatus: defined({
              currentEvalPeriod: evalPeriod(rs.currentEvalPeriod),
              fullJobRestartCount: num(rs.fullJobRestartCount) ?? 0,
              restartCount: num(rs.restartCount) ?? 0,
            }),
          }
        : {}),
      ...(Object.keys(fault).length
        ? {
            latestFaultyPodInstanceList: {
              ...(str(fault.restartType) ? { restartType: str(fault.restartType) } : {}),
              faultyInstanceIdList: strs(fault.faultyInstanceIdList),
              faultyPodList: strs(fault.faultyPodList),
              faultyRankList: ints(fault.faultyRankList),
            },
          }
        : {}),
      ...(Object.keys(scaling).length
        ? { elasticScalingStatus: { ...scaling, targetReplicas: targetSize(scaling.targetReplicas) } }
        : {}),
      ...(time(status.startTime) ? { startTime: time(status.startTime) } : {}),
      ...(time(status.completionTime) ? { completionTime: time(status.completionTime) } : {}),
    },
  };
}

export const HYPERPOD_PYTORCH_JOB = kubeKind<KubeHyperPodPyTorchJob>(
  {
    apiVersion: HYPERPOD_PYTORCH_JOB_API,
    kind: 'HyperPodPyTorchJob',
    plural: 'hyperpodpytorchjobs',
    namespaced: true,
    crd: 'hyperpodpytorchjobs.sagemaker.amazonaws.com',
    installedBy:
      "the HyperPod training operator (turn the training-operator feature on: the cluster's Features tab, or set_features)",
    health: hyperpodPyTorchJobHealth,
  },
  parseHyperPodPyTorchJob,
);

/** A HyperPodPyTorchJob manifest; the recipes (src/domain/training/) fill the replica template and policies. */
export function hyperpodPyTorchJobManifest(p: {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  nprocPerNode: string;
  replicaSpecs: Array<{ name: string; replicas: number; maxReplicas?: number; template: Record<string, unknown> }>;
  runPolicy: Record<string, unknown>;
  elasticPolicy?: Record<string, unknown>;
}): KubeObject {
  return {
    apiVersion: HYPERPOD_PYTORCH_JOB_API,
    kind: 'HyperPodPyTorchJob',
    metadata: {
      name: p.name,
      namespace: p.namespace,
      labels: p.labels,
      ...(p.annotations ? { annotations: p.annotations } : {}),
    },
    spec: {
      nprocPerNode: p.nprocPerNode,
      replicaSpecs: p.replicaSpecs,
      runPolicy: p.runPolicy,
      ...(p.elasticPolicy ? { elasticPolicy: p.elasticPolicy } : {}),
    },
  };
}

// ── status view ──────────────────────────────────────────────────────────────────────────────────
export type TrainingStatus = { phase: TrainingPhase; reason?: string; message?: string };

/** Condition types (and reasons) as the operator reports them; some spellings are unconfirmed, so each state accepts its likely names. */
const DONE = ['Completed', 'Succeeded', 'Complete'];
const RESTARTING = ['Restarting', 'Faulted'];
const RUNNING = ['Running', 'PodsRunning'];
const isTrue = (c: Condition) => c.status === 'True';
const hanging = (c: Condition) => c.type === 'Hanging' || (c.reason ?? '').startsWith('LogStateHanging');
const slow = (c: Condition) => c.type === 'Slow' || (c.reason ?? '').startsWith('LogStateSlow');
const said = (c: Condition | undefined) =>
  c ? { ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}) } : {};

/**
 * The phase of a job from its conditions, the newest decisive one first: Failed, then Succeeded,
 * Suspended, Restarting (a fault being recovered), Hanging / Slow (a log rule fired: reason
 * LogStateHanging_<rule> / LogStateSlow_<rule>), Running; else Pending (created, pods coming).
 */
export function hyperpodJobStatus(job: KubeHyperPodPyTorchJob): TrainingStatus {
  const on = job.status.conditions.filter(isTrue);
  const find = (types: string[]) => on.find((c) => types.includes(c.type));
  const failed = find(['Failed']);
  if (failed) return { phase: 'Failed', ...said(failed) };
  const done = find(DONE);
  if (done) return { phase: 'Succeeded', ...said(done) };
  if (job.spec.runPolicy.suspend || find(['Suspended'])) return { phase: 'Suspended', ...said(find(['Suspended'])) };
  const restarting = find(RESTARTING);
  if (restarting) return { phase: 'Restarting', ...said(restarting) };
  const hang = on.find(hanging);
  if (hang) return { phase: 'Hanging', ...said(hang) };
  const slowOne = on.find(slow);
  if (slowOne) return { phase: 'Slow', ...said(slowOne) };
  const running = find(RUNNING);
  if (running) return { phase: 'Running', ...said(running) };
  return { phase: 'Pending', ...said(find(['Created'])) };
}

const budget = (used: number, allowed: number | undefined): Budget =>
  allowed === undefined ? { used } : { used, allowed, remaining: Math.max(0, allowed - used) };

/**
 * The recovery budget: all restarts so far (status.restartCount) of jobMaxRetryCount, full-job
 * restarts in the window of maxFullJobRestarts, the window's own count, and the last fault.
 */
export function hyperpodRecoveryBudget(job: KubeHyperPodPyTorchJob): RecoveryBudget {
  const rp = job.spec.runPolicy.restartPolicy;
  const rs = job.status.restartStatus;
  const processRestarts = budget(job.status.restartCount, job.spec.runPolicy.jobMaxRetryCount);
  const fullJobRestarts =
    rs || rp?.maxFullJobRestarts !== undefined
      ? budget(rs?.fullJobRestartCount ?? 0, rp?.maxFullJobRestarts)
      : undefined;
  const fault = job.status.latestFaultyPodInstanceList;
  const type = fault?.restartType ?? '';
  const lastFault: LastFault | undefined = fault
    ? {
        restartType: type || 'unknown',
        level: /^PLR$/i.test(type) ? 'process' : /^JLR$/i.test(type) ? 'job' : 'unknown',
        ranks: fault.faultyRankList,
        pods: fault.faultyPodList,
        instances: fault.faultyInstanceIdList,
      }
    : undefined;
  const spent = (b: Budget | undefined) => b?.allowed !== undefined && b.used >= b.allowed;
  return {
    processRestarts,
    ...(fullJobRestarts ? { fullJobRestarts } : {}),
    ...(rs || rp
      ? {
          window: defined({
            restarts: rs?.restartCount ?? 0,
            beforeFullJobRestart: rp?.numRestartBeforeFullJobRestart,
            evalPeriodSeconds: rp?.evalPeriodSeconds,
            currentEvalPeriod: rs?.currentEvalPeriod,
          }),
        }
      : {}),
    exhausted: spent(processRestarts) || spent(fullJobRestarts),
    ...(lastFault ? { lastFault } : {}),
  };
}

/**
 * A training job's health from its status view, the same for every kind: healthy while it runs or after it
 * succeeded; degraded while recovering or flagged by a log rule; failed once failed. `says` words what only
 * the kind knows (how it recovers, what it waits for).
 */
export function trainingJobHealth(
  name: string,
  s: TrainingStatus,
  says: { restarting: string; restartReason: string; pending: string },
): KubeHealth {
  const why = s.message || s.reason;
  switch (s.phase) {
    case 'Succeeded':
      return health('healthy', 'succeeded', `${name} completed.`);
    case 'Running':
      return health('healthy', 'running', `${name} is running.`);
    case 'Failed':
      return health('failed', s.reason ?? 'failed', `${name} failed${why ? `: ${why}` : ''}.`);
    case 'Restarting':
      return health('degraded', says.restartReason, `${name} ${says.restarting}${why ? ` (${why})` : ''}.`);
    case 'Hanging':
    case 'Slow':
      return health(
        'degraded',
        s.reason ?? s.phase.toLowerCase(),
        `${name} is ${s.phase.toLowerCase()}${why ? `: ${why}` : ''}.`,
      );
    case 'Suspended':
      return health('transitional', 'suspended', `${name} is suspended.`);
    default:
      return health('transitional', 'pending', `${name} ${says.pending}.`);
  }
}

export function hyperpodPyTorchJobHealth(job: KubeHyperPodPyTorchJob): KubeHealth {
  const s = hyperpodJobStatus(job);
  return trainingJobHealth(`HyperPodPyTorchJob ${job.metadata.name}`, s, {
    restarting: 'is recovering from a fault',
    restartReason: s.reason ?? 'restarting',
    pending: 'is waiting for its pods',
  });
}
