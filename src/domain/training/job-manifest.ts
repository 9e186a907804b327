import { hyperpodPyTorchJobManifest, ELASTIC_AGENT_PORT } from '../kube/hyperpod-pytorch-job.js';
import { MANAGED_BY } from '../kube/kind.js';
import { rayJobManifest } from '../kube/ray-job.js';
import type { KubeObject } from '../kube-object.js';
import type { Elastic, FaultTolerance } from '../schemas/training-policies.js';
import { dataContractEnv, dataVolumes, mlflowEnv } from './data-contract.js';
import { elasticPolicyManifest } from './elastic.js';
import type { EnvVar, Placement } from './placement.js';
import { runPolicyManifest, type RecipeLogLines } from './run-policy.js';

/**
 * What every training job shares, whatever its recipe: labels that find it again, the pod template
 * (placement, the storage at /data, /dev/shm, the environment in one order), and the two kinds'
 * manifests. A recipe only says which image runs which command with which parameters.
 */

/** On the job and its pods: the job's name (how InstantStart finds what it submitted). */
export const TRAINING_JOB_LABEL = 'instantstart.dev/training-job';
/** On the job: the recipe it came from (absent for custom containers). */
export const RECIPE_LABEL = 'instantstart.dev/recipe';
export const INSTANCE_GROUP_ANNOTATION = 'instantstart.dev/instance-group';
export const STORAGE_ANNOTATION = 'instantstart.dev/storage';
export const MLFLOW_ARN_ANNOTATION = 'instantstart.dev/mlflow-tracking-server';
export const MLFLOW_EXPERIMENT_ANNOTATION = 'instantstart.dev/mlflow-experiment';
export const CHECKPOINTLESS_ANNOTATION = 'instantstart.dev/checkpointless';

/** The request's parts every recipe builder takes (resolved by the service: names checked, defaults applied). */
export interface TrainingCommon {
  jobName: string;
  namespace: string;
  /** The storage's PersistentVolumeClaim, mounted at /data. */
  claimName: string;
  /** Nodes (pods) to start with. */
  nodes: number;
  faultTolerance: FaultTolerance;
  elastic?: Elastic;
  mlflow?: { trackingServerArn: string; experimentName: string };
  /** Replaces the recipe's pinned image. */
  image?: string;
  /** The request's extra variables; ours win over a clash. */
  env?: EnvVar[];
  checkpointless?: boolean;
  /** The pods' service account (the MLflow pod identity); absent: the namespace's default. */
  serviceAccountName?: string;
}

export interface TrainingContainer {
  image: string;
  /** Absent: the image's entrypoint (or, for Ray pods, the `ray start` KubeRay supplies). */
  command?: string[];
  args?: string[];
  /** The recipe's own variables (after placement, data contract and MLflow; before the request's). */
  env?: EnvVar[];
}

/** The container's environment: the request's first, then ours (a later entry wins in Kubernetes, and ours must). */
export function trainingEnv(common: TrainingCommon, placement: Placement, recipeEnv: EnvVar[] = []): EnvVar[] {
  const ours = [
    ...placement.env,
    ...dataContractEnv(common.jobName),
    ...(common.mlflow ? mlflowEnv(common.mlflow, common.jobName) : []),
    ...recipeEnv,
  ];
  const taken = new Set(ours.map((e) => e.name));
  return [...(common.env ?? []).filter((e) => !taken.has(e.name)), ...ours];
}

function jobMeta(recipeId: string | undefined, common: TrainingCommon, placement: Placement) {
  const labels: Record<string, string> = {
    ...MANAGED_BY,
    [TRAINING_JOB_LABEL]: common.jobName,
    ...(recipeId ? { [RECIPE_LABEL]: recipeId } : {}),
  };
  const annotations: Record<string, string> = {
    [INSTANCE_GROUP_ANNOTATION]: placement.group,
    [STORAGE_ANNOTATION]: common.claimName,
    ...(common.mlflow
      ? {
          [MLFLOW_ARN_ANNOTATION]: common.mlflow.trackingServerArn,
          [MLFLOW_EXPERIMENT_ANNOTATION]: common.mlflow.experimentName,
        }
      : {}),
    ...(common.checkpointless ? { [CHECKPOINTLESS_ANNOTATION]: 'true' } : {}),
  };
  return { labels, annotations };
}

/** A pod template on the placement with the storage at /data: one container, one pod per node. */
export function trainingPodTemplate(
  common: TrainingCommon,
  placement: Placement,
  container: TrainingContainer & { name: string; ports?: Array<Record<string, unknown>> },
): Record<string, unknown> {
  const { volumes, volumeMounts } = dataVolumes(common.claimName);
  return {
    metadata: { labels: { ...MANAGED_BY, [TRAINING_JOB_LABEL]: common.jobName } },
    spec: {
      ...(common.serviceAccountName ? { serviceAccountName: common.serviceAccountName } : {}),
      nodeSelector: { ...placement.nodeSelector },
      ...(placement.tolerations.length ? { tolerations: placement.tolerations.map((t) => ({ ...t })) } : {}),
      containers: [
        {
          name: container.name,
          image: container.image,
          imagePullPolicy: 'IfNotPresent',
          ...(container.command ? { command: container.command } : {}),
          ...(container.args?.length ? { args: container.args } : {}),
          env: trainingEnv(common, placement, container.env),
          ...(container.ports?.length ? { ports: container.ports } : {}),
          resources: { limits: { ...placement.resources.limits } },
          volumeMounts,
        },
      ],
      volumes,
    },
  };
}

/** The replica spec's name: the operator names pods `<job>-pod-<index>`. */
export const REPLICA_NAME = 'pod';

/** A HyperPodPyTorchJob of `nodes` pods (one replica spec), with fault tolerance and, when asked, elastic. */
export function hyperpodTrainingJob(
  recipe: { id?: string; logLines?: RecipeLogLines },
  common: TrainingCommon,
  placement: Placement,
  container: TrainingContainer,
): KubeObject {
  const { labels, annotations } = jobMeta(recipe.id, common, placement);
  return hyperpodPyTorchJobManifest({
    name: common.jobName,
    namespace: common.namespace,
    labels,
    annotations,
    nprocPerNode: String(placement.processesPerNode),
    replicaSpecs: [
      {
        name: REPLICA_NAME,
        replicas: common.nodes,
        ...(common.elastic ? { maxReplicas: common.elastic.maxReplicas } : {}),
        template: trainingPodTemplate(common, placement, {
          ...container,
          name: 'trainer',
          ports: [{ name: 'elastic-agent', containerPort: ELASTIC_AGENT_PORT }],
        }),
      },
    ],
    runPolicy: runPolicyManifest(common.faultTolerance, recipe.logLines),
    ...(common.elastic ? { elasticPolicy: elasticPolicyManifest(common.elastic) } : {}),
  });
}

/** The Ray head's ports (KubeRay's defaults, named as KubeRay names them). */
const RAY_HEAD_PORTS = [
  { name: 'gcs-server', containerPort: 6379 },
  { name: 'dashboard', containerPort: 8265 },
  { name: 'client', containerPort: 10001 },
];

/**
 * A RayJob whose Ray cluster spans `nodes` nodes of the group: the head is one of them (it holds
 * accelerators too, so the job's GPU count is nodes × per node), the others are one worker group.
 * Whole-job retries: jobMaxRetryCount → backoffLimit (each retry runs on a new Ray cluster).
 */
export function rayTrainingJob(
  recipe: { id: string },
  common: TrainingCommon,
  placement: Placement,
  job: { image: string; entrypoint: string; runtimeEnvYAML?: string; env?: EnvVar[] },
): KubeObject {
  const { labels, annotations } = jobMeta(recipe.id, common, placement);
  // KubeRay supplies the container command (ray start …); the container only needs image and env.
  const pod = (ports: Array<Record<string, unknown>>) =>
    trainingPodTemplate(common, placement, { name: 'ray', image: job.image, env: job.env ?? [], ports });
  const workers = common.nodes - 1;
  return rayJobManifest({
    name: common.jobName,
    namespace: common.namespace,
    labels,
    annotations,
    entrypoint: job.entrypoint,
    ...(job.runtimeEnvYAML ? { runtimeEnvYAML: job.runtimeEnvYAML } : {}),
    backoffLimit: common.faultTolerance.jobMaxRetryCount,
    // KubeRay's TTL is the Ray cluster's life after the job ends (shutdownAfterJobFinishes), not the
    // RayJob's: the cluster holds every GPU of the job, so it goes at once; the RayJob stays with its status.
    ttlSecondsAfterFinished: 0,
    rayClusterSpec: {
      headGroupSpec: { rayStartParams: { 'dashboard-host': '0.0.0.0' }, template: pod(RAY_HEAD_PORTS) },
      workerGroupSpecs:
        workers > 0
          ? [
              {
                groupName: 'workers',
                replicas: workers,
                minReplicas: workers,
                maxReplicas: workers,
                rayStartParams: {},
                template: pod([]),
              },
            ]
          : [],
    },
  });
}
