import type { KubeObject } from '../types.js';
import { podFromTemplate } from './pod-template.js';
import { commandLine, PREFIX } from './program-lines.js';
import { type Any } from './util.js';

/**
 * The pods the HyperPod training operator makes for a HyperPodPyTorchJob: `replicas` pods per
 * replicaSpec from its template, named `<job>-<replicaSpec>-<index>`, labelled `HPJob=<job>`,
 * `sagemaker.amazonaws.com/replica-name` and `…/replica-index`, with the distributed-training
 * environment in every container (MASTER_ADDR/MASTER_PORT of rank 0, WORLD_SIZE in pods, NODE_RANK
 * — the pod's index counted across the replicaSpecs in order —, JOB_NAME). They run with
 * restartPolicy OnFailure: a crashed rank restarts in place (the process-level restart the operator
 * counts, standing in for the elastic agent restarting its processes) and a finished one stays
 * finished. Without the agent in the rank, the operator replaces all pods instead (training-operator.ts).
 */

export const HPJOB = 'HPJob';
export const REPLICA_NAME = 'sagemaker.amazonaws.com/replica-name';
export const REPLICA_INDEX = 'sagemaker.amazonaws.com/replica-index';
export const MASTER_PORT = '29500';
/** The restarts of a pod's training container the operator has accounted for (each is a fault it decided about). */
export const COUNTED = `${PREFIX}counted-restarts`;

export interface PlannedPod {
  name: string;
  replica: string;
  index: number;
  rank: number;
  template: Any;
}

export function plannedPods(job: KubeObject): PlannedPod[] {
  const out: PlannedPod[] = [];
  for (const spec of ((job.spec as Any | undefined)?.replicaSpecs ?? []) as Any[]) {
    const replicas = Math.max(0, Math.floor(Number(spec?.replicas ?? 0)) || 0);
    for (let index = 0; index < replicas; index++)
      out.push({
        name: `${job.metadata.name}-${spec.name}-${index}`,
        replica: String(spec.name),
        index,
        rank: out.length,
        template: spec.template ?? {},
      });
  }
  return out;
}

export function trainingPod(job: KubeObject, planned: PlannedPod, all: PlannedPod[]): KubeObject {
  const env = [
    { name: 'MASTER_ADDR', value: all[0]?.name ?? planned.name },
    { name: 'MASTER_PORT', value: MASTER_PORT },
    { name: 'WORLD_SIZE', value: String(all.length) },
    { name: 'NODE_RANK', value: String(planned.rank) },
    { name: 'JOB_NAME', value: job.metadata.name! },
  ];
  const injected = new Set(env.map((e) => e.name));
  return podFromTemplate(
    job,
    planned.template,
    {
      name: planned.name,
      labels: { [HPJOB]: job.metadata.name!, [REPLICA_NAME]: planned.replica, [REPLICA_INDEX]: String(planned.index) },
    },
    (spec) => {
      spec.restartPolicy = 'OnFailure';
      for (const c of (spec.containers ?? []) as Any[])
        c.env = [...((c.env ?? []) as Any[]).filter((e) => !injected.has(e?.name)), ...env];
    },
  );
}

/** The container the operator watches: the first one (where hyperpodrun runs the training). */
export const trainingContainer = (pod: KubeObject): Any | undefined =>
  ((pod.spec as Any | undefined)?.containers ?? [])[0];
export const trainingStatus = (pod: KubeObject): Any | undefined => {
  const name = trainingContainer(pod)?.name;
  return (((pod.status as Any | undefined)?.containerStatuses ?? []) as Any[]).find((c) => c.name === name);
};
/**
 * Whether a training container starts its workers through the HyperPod elastic agent: its command
 * line runs `hyperpodrun` (directly, or a shell script that execs it). Only then does the operator
 * get process-level restarts and log monitoring — the agent runs the processes and reads their
 * output. The sandbox sees the command line only: an image whose entrypoint starts hyperpodrun
 * unseen counts as without the agent (assumed).
 */
export const runsElasticAgent = (container: Any | undefined): boolean =>
  !!container && /(^|[\s/])hyperpodrun(\s|$)/.test(commandLine(container));

export const rankOf = (pod: KubeObject, planned: PlannedPod[]) =>
  planned.find((p) => p.name === pod.metadata.name)?.rank ?? -1;
