import { STORAGE_MOUNT_PATH } from '../model-downloads.js';
import type { EnvVar } from './placement.js';

/**
 * The data contract (docs/TRAINING.md → Data contract): the cluster's chosen storage is mounted at
 * one path in every pod of every job — the same path model downloads write under — and everything
 * a job reads or writes has its place below it. A path a person uses from their own machine is the
 * same path below the storage (s3://<bucket>/<prefix>/models/… ↔ /data/models/…).
 */

/** Where the storage's claim is mounted in every training pod. */
export const DATA_ROOT = STORAGE_MOUNT_PATH;
export const DATASETS_DIR = `${DATA_ROOT}/datasets`;
/** Where model downloads land: models/<owner>/<name>/<revision>. */
export const MODELS_DIR = `${DATA_ROOT}/models`;
export const CHECKPOINTS_DIR = `${DATA_ROOT}/checkpoints`;
export const OUTPUTS_DIR = `${DATA_ROOT}/outputs`;

/** `/data/checkpoints/<job>`: where a job saves (and, restarted, resumes from) its checkpoints. */
export const checkpointDir = (job: string): string => `${CHECKPOINTS_DIR}/${job}`;
/** `/data/outputs/<job>`: the job's final model, adapters and reports. */
export const outputDir = (job: string): string => `${OUTPUTS_DIR}/${job}`;

/** The variables every training container gets, so scripts need not hard-code the contract. */
export function dataContractEnv(job: string): EnvVar[] {
  return [
    { name: 'DATA_DIR', value: DATA_ROOT },
    { name: 'CHECKPOINT_DIR', value: checkpointDir(job) },
    { name: 'OUTPUT_DIR', value: outputDir(job) },
  ];
}

const STORAGE_VOLUME = 'data';
const SHM_VOLUME = 'dshm';

/**
 * The pod volumes of a training pod: the storage's claim, and a memory-backed /dev/shm (the
 * container runtime's 64 MiB default breaks NCCL and PyTorch data loaders).
 */
export function dataVolumes(claimName: string): {
  volumes: Array<Record<string, unknown>>;
  volumeMounts: Array<Record<string, unknown>>;
} {
  return {
    volumes: [
      { name: STORAGE_VOLUME, persistentVolumeClaim: { claimName } },
      { name: SHM_VOLUME, emptyDir: { medium: 'Memory' } },
    ],
    volumeMounts: [
      { name: STORAGE_VOLUME, mountPath: DATA_ROOT },
      { name: SHM_VOLUME, mountPath: '/dev/shm' },
    ],
  };
}

/** Whether a path lies under the data contract's root (absolute, no `.`/`..` segments). */
export function isDataPath(path: string): boolean {
  if (!path.startsWith(`${DATA_ROOT}/`)) return false;
  return path
    .slice(DATA_ROOT.length + 1)
    .replace(/\/+$/, '')
    .split('/')
    .every((s) => s !== '' && s !== '.' && s !== '..');
}

/**
 * MLflow for a job (docs/TRAINING.md → MLflow): the tracking URI is the tracking server's ARN (the
 * sagemaker-mlflow plugin in the image signs the calls), one experiment, the run named after the job.
 */
export function mlflowEnv(m: { trackingServerArn: string; experimentName: string }, job: string): EnvVar[] {
  return [
    { name: 'MLFLOW_TRACKING_URI', value: m.trackingServerArn },
    { name: 'MLFLOW_EXPERIMENT_NAME', value: m.experimentName },
    { name: 'MLFLOW_RUN_NAME', value: job },
  ];
}
