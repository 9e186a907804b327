import { z } from 'zod';
import { outputDir } from '../data-contract.js';
import { ElasticAgentParamSchema, hyperpodrunCommand } from '../elastic-agent.js';
import { hyperpodTrainingJob } from '../job-manifest.js';
import type { Placement } from '../placement.js';
import type { TrainingCommon } from '../job-manifest.js';
import { HF_TRAINER_LOG_LINES } from './llama-factory-sft.js';
import {
  BatchSizeSchema,
  DatasetFileSchema,
  EpochsSchema,
  FinetuningTypeSchema,
  GradientAccumulationSchema,
  LearningRateSchema,
  LoggingStepsSchema,
  LoraRankSchema,
  MaxLengthSchema,
  ModelPathSchema,
  needsNvidia,
  SaveStepsSchema,
} from './params.js';
import { defineRecipe } from './recipe.js';

/**
 * MS-Swift supervised fine-tuning on a model and dataset files in the storage. `swift sft` would
 * start torchrun itself (ms-swift 3.12.3 swift/cli/main.py: the file of `swift.cli.sft`, found with
 * importlib, run by `torch.distributed.run`); here hyperpodrun takes torchrun's place and runs that
 * same entry, so the training operator's restarts and log rules work. Output goes straight to
 * /data/outputs/<job> (no version subfolder), checkpoint-N folders included, so a restart resumes
 * from there.
 */

/**
 * ModelScope's ms-swift 3.12.3 image (CUDA 12.8, PyTorch 2.9, vLLM 0.13) from its us-west-1
 * registry, as listed in ms-swift docs/source_en/GetStarted/SWIFT-installation.md → Mirror. It
 * carries Megatron-Core too (megatron rlhf uses the same image).
 */
export const MS_SWIFT_IMAGE =
  'modelscope-registry.us-west-1.cr.aliyuncs.com/modelscope-repo/modelscope:ubuntu22.04-cuda12.8.1-py311-torch2.9.0-vllm0.13.0-modelscope1.33.0-swift3.12.3';
export const MS_SWIFT_IMAGE_SOURCE =
  'ms-swift documentation, SWIFT installation → Mirror (ModelScope registry, us-west-1), swift 3.12.3';

/** An MS-Swift entry (`swift.cli.sft`, `swift.cli._megatron.rlhf`) started on every node through hyperpodrun. */
export function swiftCommand(
  module: string,
  args: string[],
  elasticAgent: string,
  common: TrainingCommon,
  placement: Placement,
): string[] {
  return hyperpodrunCommand({
    nnodes: String(common.nodes),
    nprocPerNode: placement.processesPerNode,
    entry: { module },
    args,
    install: elasticAgent,
  });
}

export const MS_SWIFT_SFT_PARAMS = z
  .object({
    modelPath: ModelPathSchema,
    datasets: z
      .array(DatasetFileSchema)
      .min(1)
      .max(16)
      .describe(
        'Dataset files in the storage (jsonl, json or csv in a format Swift reads), e.g. ["/data/datasets/alpaca/train.jsonl"].',
      ),
    trainType: FinetuningTypeSchema,
    loraRank: LoraRankSchema,
    epochs: EpochsSchema,
    learningRate: LearningRateSchema(1e-4),
    perDeviceBatchSize: BatchSizeSchema,
    gradientAccumulationSteps: GradientAccumulationSchema,
    maxLength: MaxLengthSchema,
    saveSteps: SaveStepsSchema,
    loggingSteps: LoggingStepsSchema,
    elasticAgent: ElasticAgentParamSchema,
  })
  .strict();

export const MS_SWIFT_SFT = defineRecipe({
  id: 'ms-swift-sft',
  title: 'MS-Swift SFT (swift sft)',
  description:
    'Supervised fine-tuning with ModelScope Swift (its sft entry, launched by hyperpodrun), full or LoRA, from a model and dataset files in the storage; results in /data/outputs/<job>.',
  kind: 'HyperPodPyTorchJob',
  elastic: false,
  image: { default: MS_SWIFT_IMAGE, source: MS_SWIFT_IMAGE_SOURCE },
  params: MS_SWIFT_SFT_PARAMS,
  logLines: HF_TRAINER_LOG_LINES,
  check: (_p, placement) => needsNvidia('MS-Swift', placement),
  build(p, placement, common) {
    const args = [
      '--model',
      p.modelPath,
      '--dataset',
      ...p.datasets,
      '--train_type',
      p.trainType,
      ...(p.trainType === 'lora' ? ['--lora_rank', String(p.loraRank), '--target_modules', 'all-linear'] : []),
      '--num_train_epochs',
      String(p.epochs),
      '--learning_rate',
      String(p.learningRate),
      '--per_device_train_batch_size',
      String(p.perDeviceBatchSize),
      '--gradient_accumulation_steps',
      String(p.gradientAccumulationSteps),
      '--max_length',
      String(p.maxLength),
      '--save_steps',
      String(p.saveSteps),
      '--logging_steps',
      String(p.loggingSteps),
      '--torch_dtype',
      placement.accelerator === 'nvidia' ? 'bfloat16' : 'float32',
      '--output_dir',
      outputDir(common.jobName),
      '--add_version',
      'false',
      '--report_to',
      common.mlflow ? 'mlflow' : 'none',
      '--run_name',
      common.jobName,
    ];
    return hyperpodTrainingJob({ id: 'ms-swift-sft', logLines: HF_TRAINER_LOG_LINES }, common, placement, {
      image: common.image ?? MS_SWIFT_IMAGE,
      command: swiftCommand('swift.cli.sft', args, p.elasticAgent, common, placement),
    });
  },
});
