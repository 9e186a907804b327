import { z } from 'zod';
import { ElasticAgentParamSchema, hyperpodrunCommand, nnodesOf } from '../elastic-agent.js';
import { hyperpodTrainingJob } from '../job-manifest.js';
import { dataPath } from './params.js';
import { defineRecipe } from './recipe.js';

/**
 * Your PyTorch script, launched by `hyperpodrun` (the HyperPod elastic agent's torchrun-compatible
 * launcher) on every node, so the training operator can restart processes in place and watch the
 * logs. The script reads the data contract from the environment (DATA_DIR, CHECKPOINT_DIR,
 * OUTPUT_DIR) and should print the metric line contract (`step=… loss=… tokens/s=… lr=…`) for the
 * log-monitoring presets.
 */

/**
 * AWS Deep Learning Containers' PyTorch 2.8 training image for EC2 (CUDA 12.9, Python 3.12): the
 * tag AWS lists in aws/deep-learning-containers available_images.md, from the ECR Public Gallery
 * (no registry login). It has no hyperpod-elastic-agent; the command installs the pinned agent at
 * start when hyperpodrun is missing (elasticAgent), or bake it into your own image.
 */
const IMAGE = 'public.ecr.aws/deep-learning-containers/pytorch-training:2.8.0-gpu-py312-cu129-ubuntu22.04-ec2';

export const PYTORCH_SCRIPT_PARAMS = z
  .object({
    script: dataPath('The training script in the storage', '/data/code/train.py'),
    scriptArgs: z
      .array(z.string().max(1024))
      .max(128)
      .default([])
      .describe('Arguments after the script, e.g. ["--epochs", "3"].'),
    elasticAgent: ElasticAgentParamSchema,
  })
  .strict();

export const PYTORCH_SCRIPT = defineRecipe({
  id: 'pytorch-script',
  title: 'PyTorch script (hyperpodrun)',
  description:
    'Runs a PyTorch script from the storage on every node with hyperpodrun (torchrun-compatible: one process per GPU or NeuronCore), with HyperPod process-level restarts, log monitoring and optional elastic scaling.',
  kind: 'HyperPodPyTorchJob',
  elastic: true,
  image: {
    default: IMAGE,
    source:
      'AWS Deep Learning Containers (aws/deep-learning-containers available_images.md), ECR Public Gallery mirror',
  },
  params: PYTORCH_SCRIPT_PARAMS,
  build(params, placement, common) {
    const command = hyperpodrunCommand({
      nnodes: nnodesOf(common.nodes, common.elastic),
      nprocPerNode: placement.processesPerNode,
      entry: { script: params.script },
      args: params.scriptArgs,
      install: params.elasticAgent,
    });
    return hyperpodTrainingJob({ id: 'pytorch-script' }, common, placement, { image: common.image ?? IMAGE, command });
  },
});
