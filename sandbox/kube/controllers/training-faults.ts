import { z } from 'zod';
import type { KubeCluster } from '../cluster.js';
import { injectFault } from './injected-faults.js';
import { plannedPods, trainingContainer, trainingStatus } from './training-pods.js';
import { rfc3339, T } from './util.js';

/**
 * `POST /_sandbox/kube/<cluster>/faults/training`: crash or hang one rank of a running
 * HyperPodPyTorchJob from outside, as a GPU error or a deadlocked collective would. A crash ends the
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
    kind: z.enum(['crash', 'hang']),
    region: z.string().min(1).optional().describe('when EKS clusters of that name live in several Regions'),
  })
  .strict();

export type TrainingFault = z.infer<typeof trainingFaultSchema>;

export interface InjectedTrainingFault {
  namespace: string;
  job: string;
  rank: number;
  kind: 'crash' | 'hang';
  pod: string;
  container: string;
  /** The run of the container the fault ends or freezes (its restart count). */
  run: number;
  at: string;
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
  const pod = cluster.objects.get(T.pods, fault.namespace, target.name);
  if (!pod)
    throw new TrainingFaultError(
      409,
      `rank ${fault.rank} of job ${fault.job} has no pod right now (pod ${target.name})`,
    );
  const container = trainingContainer(pod);
  const status = trainingStatus(pod);
  if (!container || !status?.state?.running) {
    const state =
      status?.state?.waiting?.reason ??
      (status?.state?.terminated ? `terminated with exit code ${status.state.terminated.exitCode}` : 'not started');
    throw new TrainingFaultError(
      409,
      `the training container of pod ${target.name} is not running (${state}): there is no process to ${fault.kind === 'crash' ? 'crash' : 'hang'}`,
    );
  }
  const now = cluster.now();
  const run = Number(status.restartCount ?? 0);
  const at = rfc3339(now);
  injectFault(cluster, pod, {
    container: String(container.name),
    run,
    kind: fault.kind,
    at,
    afterMs: Math.max(0, now - Date.parse(status.state.running.startedAt)),
  });
  return {
    namespace: fault.namespace,
    job: fault.job,
    rank: fault.rank,
    kind: fault.kind,
    pod: target.name,
    container: String(container.name),
    run,
    at,
  };
}
