import { z } from 'zod';
import type { KubeCluster } from '../cluster.js';
import { injectFault } from './injected-faults.js';
import { plannedPods, trainingContainer, trainingStatus } from './training-pods.js';
import type { KubeObject } from '../types.js';
import { rfc3339, T, type Any } from './util.js';

/**
 * `POST /_sandbox/kube/<cluster>/faults/training`: crash or hang one rank of a running
 * HyperPodPyTorchJob from outside, as a GPU error or a deadlocked collective would — or make a
 * collective time out (`nccl-timeout`), as when the named rank's network stops carrying NCCL's
 * traffic: every running rank waits in the collective (their output stops) and, the process group's
 * timeout later (`timeoutSeconds`, PyTorch's default 600), each rank's NCCL watchdog aborts it
 * (nccl-watchdog.ts) and it exits 1 — a crash to the operator. A crash ends the
 * rank's training process now (exit 1, or the pod's `sandbox.instantstart.dev/exit-code`), a hang
 * freezes its output from now on; either way only the current run of its training container is
 * touched (injected-faults.ts), and the training operator reacts as it does to any fault: a crash is
 * a process-level restart counted against the budget, a hang is found by the job's log rules (or
 * goes unnoticed without them).
 */

export const trainingFaultSchema = z
  .object({
    namespace: z.string().min(1).default('default'),
    job: z.string().min(1).describe('the HyperPodPyTorchJob'),
    rank: z.number().int().min(0).describe("the pod's rank: NODE_RANK, its index counted across the replicaSpecs"),
    kind: z.enum(['crash', 'hang', 'nccl-timeout']),
    timeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(86_400)
      .optional()
      .describe("nccl-timeout only: the process group's timeout (init_process_group(timeout=)); default 600"),
    region: z.string().min(1).optional().describe('when EKS clusters of that name live in several Regions'),
  })
  .strict()
  .refine((f) => f.timeoutSeconds === undefined || f.kind === 'nccl-timeout', {
    path: ['timeoutSeconds'],
    message: 'timeoutSeconds applies to kind nccl-timeout only',
  });

export type TrainingFault = z.infer<typeof trainingFaultSchema>;

export interface InjectedTrainingFault {
  namespace: string;
  job: string;
  rank: number;
  kind: 'crash' | 'hang' | 'nccl-timeout';
  pod: string;
  container: string;
  /** The run of the container the fault ends or freezes (its restart count). */
  run: number;
  at: string;
  /** nccl-timeout: every rank whose collective waits (each running rank), and when their watchdogs fire. */
  ranks?: number[];
  failsAt?: string;
}

export class TrainingFaultError extends Error {
  constructor(
    readonly status: 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export function injectTrainingFault(cluster: KubeCluster, fault: TrainingFault): InjectedTrainingFault {
  const type = cluster.findType('sagemaker.amazonaws.com', 'v1', 'hyperpodpytorchjobs');
  if (!type)
    throw new TrainingFaultError(
      404,
      `cluster ${cluster.name} does not serve hyperpodpytorchjobs.sagemaker.amazonaws.com (the training operator add-on is not installed)`,
    );
  const job = cluster.objects.get(type, fault.namespace, fault.job);
  if (!job)
    throw new TrainingFaultError(
      404,
      `hyperpodpytorchjobs.sagemaker.amazonaws.com "${fault.job}" not found in namespace ${fault.namespace}`,
    );
  const planned = plannedPods(job);
  const target = planned.find((p) => p.rank === fault.rank);
  if (!target)
    throw new TrainingFaultError(
      404,
      `job ${fault.job} has no rank ${fault.rank} (its ranks are 0–${planned.length - 1})`,
    );
  const running = runningRank(cluster, fault, target.name);
  const now = cluster.now();
  const at = rfc3339(now);
  if (fault.kind !== 'nccl-timeout') {
    recordFault(cluster, running, { kind: fault.kind, now, at });
    return { ...answer(fault, running), at };
  }
  const timeoutMs = (fault.timeoutSeconds ?? 600) * 1000;
  // A collective needs every rank: all the ranks running now wait in it, and each one's watchdog fires.
  const ranks: number[] = [];
  for (const p of planned) {
    const pod = cluster.objects.get(T.pods, fault.namespace, p.name);
    const container = pod ? trainingContainer(pod) : undefined;
    const status = pod ? trainingStatus(pod) : undefined;
    if (!pod || !container || !status?.state?.running) continue;
    recordFault(cluster, { pod, container, status }, { kind: 'nccl-timeout', now, at, timeoutMs });
    ranks.push(p.rank);
  }
  return { ...answer(fault, running), at, ranks, failsAt: rfc3339(now + timeoutMs) };
}

interface RunningRank {
  pod: KubeObject;
  container: Any;
  status: Any;
}

function runningRank(cluster: KubeCluster, fault: TrainingFault, podName: string): RunningRank {
  const pod = cluster.objects.get(T.pods, fault.namespace, podName);
  if (!pod)
    throw new TrainingFaultError(409, `rank ${fault.rank} of job ${fault.job} has no pod right now (pod ${podName})`);
  const container = trainingContainer(pod);
  const status = trainingStatus(pod);
  if (!container || !status?.state?.running) {
    const state =
      status?.state?.waiting?.reason ??
      (status?.state?.terminated ? `terminated with exit code ${status.state.terminated.exitCode}` : 'not started');
    throw new TrainingFaultError(
      409,
      `the training container of pod ${podName} is not running (${state}): there is no process to ${fault.kind === 'hang' ? 'hang' : fault.kind === 'crash' ? 'crash' : 'time out'}`,
    );
  }
  return { pod, container, status };
}

function recordFault(
  cluster: KubeCluster,
  { pod, container, status }: RunningRank,
  f: { kind: 'crash' | 'hang' | 'nccl-timeout'; now: number; at: string; timeoutMs?: number },
): void {
  injectFault(cluster, pod, {
    container: String(container.name),
    run: Number(status.restartCount ?? 0),
    kind: f.kind,
    at: f.at,
    afterMs: Math.max(0, f.now - Date.parse(status.state.running.startedAt)),
    ...(f.timeoutMs !== undefined ? { timeoutMs: f.timeoutMs } : {}),
  });
}

function answer(fault: TrainingFault, { pod, container, status }: RunningRank) {
  return {
    namespace: fault.namespace,
    job: fault.job,
    rank: fault.rank,
    kind: fault.kind,
    pod: String(pod.metadata.name),
    container: String(container.name),
    run: Number(status.restartCount ?? 0),
  };
}
