import { z } from 'zod';
import type { FieldProblem } from '../../errors.js';
import { outputDir } from '../data-contract.js';
import { hyperpodTrainingJob } from '../job-manifest.js';
import { ElasticAgentParamSchema } from '../elastic-agent.js';
import { MS_SWIFT_IMAGE, MS_SWIFT_IMAGE_SOURCE, swiftCommand } from './ms-swift-sft.js';
import {
  DatasetFileSchema,
  LearningRateSchema,
  MaxLengthSchema,
  ModelPathSchema,
  needsNvidia,
  SaveStepsSchema,
} from './params.js';
import { defineRecipe } from './recipe.js';

/**
 * MS-Swift preference training on Megatron-Core: `megatron rlhf --rlhf_type dpo|kto` — its entry
 * `swift.cli._megatron.rlhf` launched by hyperpodrun where Swift would use torchrun — loading the
 * Hugging Face weights from the storage directly (--load_safetensors) and saving safetensors to
 * /data/outputs/<job>. Tensor and pipeline parallel sizes split the model across GPUs; the data
 * parallel size is what is left of nodes × GPUs per node. Megatron-SWIFT reports to TensorBoard
 * and Weights & Biases, not MLflow: this recipe's metrics are its log lines.
 */

/** Megatron prints ` iteration       10/     100 | … | lm loss: … |` per logged iteration. */
const LOG_LINES = { progress: 'iteration\\s+\\d+/' };

export const MS_SWIFT_MEGATRON_RLHF_PARAMS = z
  .object({
    rlhfType: z
      .enum(['dpo', 'kto'])
      .default('dpo')
      .describe(
        'dpo: Direct Preference Optimization on chosen/rejected pairs; kto: Kahneman-Tversky Optimization on labelled single answers.',
      ),
    modelPath: ModelPathSchema,
    datasets: z
      .array(DatasetFileSchema)
      .min(1)
      .max(16)
      .describe('Preference dataset files in the storage (messages with rejected_response for dpo; label for kto).'),
    epochs: z.number().int().min(1).max(1000).default(1).describe('Passes over the dataset (max_epochs).'),
    learningRate: LearningRateSchema(1e-5),
    microBatchSize: z.number().int().min(1).max(1024).default(1).describe('Samples per GPU per micro step.'),
    globalBatchSize: z
      .number()
      .int()
      .min(1)
      .max(65_536)
      .default(16)
      .describe('Samples per optimizer step across the job.'),
    tensorParallel: z
      .number()
      .int()
      .min(1)
      .max(64)
      .default(1)
      .describe('GPUs each layer is split across (tensor_model_parallel_size); at most the GPUs of one node.'),
    pipelineParallel: z
      .number()
      .int()
      .min(1)
      .max(64)
      .default(1)
      .describe('Stages the layers are split into (pipeline_model_parallel_size).'),
    maxLength: MaxLengthSchema,
    saveSteps: SaveStepsSchema.describe('Save every this many iterations (save_interval).'),
    beta: z
      .number()
      .positive()
      .max(10)
      .default(0.1)
      .describe('Strength of the preference loss against the reference model.'),
    elasticAgent: ElasticAgentParamSchema,
  })
  .strict();

export const MS_SWIFT_MEGATRON_RLHF = defineRecipe({
  id: 'ms-swift-megatron-rlhf',
  title: 'MS-Swift Megatron RLHF (megatron rlhf: DPO, KTO)',
  description:
    'Preference training (DPO or KTO) with MS-Swift on Megatron-Core (its rlhf entry, launched by hyperpodrun): tensor and pipeline parallel for large models, weights read from and written to the storage as safetensors.',
  kind: 'HyperPodPyTorchJob',
  elastic: false,
  image: { default: MS_SWIFT_IMAGE, source: MS_SWIFT_IMAGE_SOURCE },
  params: MS_SWIFT_MEGATRON_RLHF_PARAMS,
  logLines: LOG_LINES,
  check(p, placement, common) {
    const problems: FieldProblem[] = needsNvidia('Megatron-SWIFT', placement);
    if (problems.length) return problems;
    const gpus = common.nodes * placement.processesPerNode;
    if (p.tensorParallel > placement.processesPerNode)
      problems.push({
        path: 'params.tensorParallel',
        message: `must be at most ${placement.processesPerNode}, the processes per node on ${placement.instanceType} (tensor parallel stays within a node)`,
      });
    else if (gpus % (p.tensorParallel * p.pipelineParallel) !== 0)
      problems.push({
        path: 'params.pipelineParallel',
        message: `tensorParallel × pipelineParallel (${p.tensorParallel * p.pipelineParallel}) must divide the job's ${gpus} processes (${common.nodes} nodes × ${placement.processesPerNode})`,
      });
    else {
      const dataParallel = gpus / (p.tensorParallel * p.pipelineParallel);
      if (p.globalBatchSize % (p.microBatchSize * dataParallel) !== 0)
        problems.push({
          path: 'params.globalBatchSize',
          message: `must be a multiple of microBatchSize × data-parallel size (${p.microBatchSize} × ${dataParallel} = ${p.microBatchSize * dataParallel})`,
        });
    }
    return problems;
  },
  build(p, placement, common) {
    const args = [
      '--rlhf_type',
      p.rlhfType,
      '--model',
      p.modelPath,
      '--load_safetensors',
      'true',
      '--save_safetensors',
      'true',
      '--dataset',
      ...p.datasets,
      '--tensor_model_parallel_size',
      String(p.tensorParallel),
      '--pipeline_model_parallel_size',
      String(p.pipelineParallel),
      '--micro_batch_size',
      String(p.microBatchSize),
      '--global_batch_size',
      String(p.globalBatchSize),
      '--max_epochs',
      String(p.epochs),
      '--lr',
      String(p.learningRate),
      '--beta',
      String(p.beta),
      '--max_length',
      String(p.maxLength),
      '--save_interval',
      String(p.saveSteps),
      '--save',
      outputDir(common.jobName),
      '--log_interval',
      '1',
    ];
    return hyperpodTrainingJob({ id: 'ms-swift-megatron-rlhf', logLines: LOG_LINES }, common, placement, {
      image: common.image ?? MS_SWIFT_IMAGE,
      command: swiftCommand('swift.cli._megatron.rlhf', args, p.elasticAgent, common, placement),
    });
  },
});
