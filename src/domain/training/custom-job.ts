import type { KubeObject } from '../kube-object.js';
import { customScriptOf, startsHyperpodrun, type CustomContainer } from '../schemas/training.js';
import { hyperpodrunCommand, nnodesOf } from './elastic-agent.js';
import { hyperpodTrainingJob, type TrainingCommon } from './job-manifest.js';
import type { Placement } from './placement.js';

/**
 * A custom container as a HyperPodPyTorchJob: your image, command, args and env, with the same
 * placement, storage at /data, MLflow and fault tolerance as a recipe. A training script is started
 * through hyperpodrun with the job's layout (launch hyperpodrun, the default; elastic jobs get
 * `--nnodes=<min>:<max>`); a command that starts hyperpodrun, or one run as-is, is left as written.
 * The image must bring the elastic agent: nothing is installed into it. The log-monitoring presets
 * look for the metric line contract only.
 */
export function customJobManifest(custom: CustomContainer, placement: Placement, common: TrainingCommon): KubeObject {
  return hyperpodTrainingJob({}, { ...common, env: [...custom.env, ...(common.env ?? [])] }, placement, {
    image: custom.image,
    command: customCommand(custom, placement, common),
    args: custom.args,
  });
}

/** The container command: the script through hyperpodrun, or the command as written. */
export function customCommand(custom: CustomContainer, placement: Placement, common: TrainingCommon): string[] {
  const script =
    custom.launch === 'hyperpodrun' && !startsHyperpodrun(custom.command) ? customScriptOf(custom.command) : undefined;
  if (!script) return [...custom.command];
  return hyperpodrunCommand({
    nnodes: nnodesOf(common.nodes, common.elastic),
    nprocPerNode: placement.processesPerNode,
    entry: { script: script.script },
    args: script.args,
  });
}
