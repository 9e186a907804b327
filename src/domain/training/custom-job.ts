import type { KubeObject } from '../kube-object.js';
import type { CustomContainer } from '../schemas/training.js';
import { hyperpodTrainingJob, type TrainingCommon } from './job-manifest.js';
import type { Placement } from './placement.js';

/**
 * A custom container as a HyperPodPyTorchJob: your image, command, args and env, with the same
 * placement, storage at /data, MLflow and fault tolerance as a recipe. Launch with hyperpodrun for
 * process-level restarts and elastic scaling; the log-monitoring presets look for the metric line
 * contract only.
 */
export function customJobManifest(custom: CustomContainer, placement: Placement, common: TrainingCommon): KubeObject {
  return hyperpodTrainingJob({}, { ...common, env: [...custom.env, ...(common.env ?? [])] }, placement, { image: custom.image, command: custom.command, args: custom.args });
}
