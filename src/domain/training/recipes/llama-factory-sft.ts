import { z } from 'zod';
import { DATASETS_DIR, outputDir } from '../data-contract.js';
import { ElasticAgentParamSchema, hyperpodrunCommand } from '../elastic-agent.js';
import { hyperpodTrainingJob } from '../job-manifest.js';
import {
  BatchSizeSchema,
  dataPath,
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
 * LLaMA-Factory supervised fine-tuning, full or LoRA, with a config generated from the parameters.
 * `llamafactory-cli train` would start torchrun itself (LLaMA-Factory 0.9.4 src/llamafactory/launcher.py:
 * `torchrun … <launcher.py> <config>`); here hyperpodrun takes torchrun's place and starts the same
 * entry, `llamafactory.launcher` with the config, so the training operator's restarts and log rules
 * work. The Hugging Face Trainer writes checkpoint-N folders into the output folder and resumes from
 * the newest one after a restart.
 */

/** LLaMA-Factory's own image on Docker Hub (hiyouga/llamafactory, built from docker/docker-cuda), release 0.9.4. */
const IMAGE = 'hiyouga/llamafactory:0.9.4';
/** Where that image keeps the repository (its DeepSpeed configs among it). */
const DEEPSPEED_CONFIGS = '/app/examples/deepspeed';

/** The Hugging Face Trainer prints {'loss': …, 'learning_rate': …} every loggingSteps. */
export const HF_TRAINER_LOG_LINES = { progress: "'loss': " } as const;
const LOG_LINES = HF_TRAINER_LOG_LINES;

/** The generated config, handed to the container in this variable and written to a file there. */
export const TRAIN_CONFIG_ENV = 'INSTANTSTART_TRAIN_CONFIG';
const TRAIN_CONFIG_FILE = '/tmp/train.yaml';

/** What LLaMA-Factory's launcher sets for its workers by default (OPTIM_TORCH=1), set here since hyperpodrun starts them. */
const LAUNCHER_ENV = [
  { name: 'PYTORCH_CUDA_ALLOC_CONF', value: 'expandable_segments:True' },
  { name: 'TORCH_NCCL_AVOID_RECORD_STREAMS', value: '1' },
];

export const LLAMA_FACTORY_SFT_PARAMS = z
  .object({
    modelPath: ModelPathSchema,
    template: z
      .string()
      .regex(/^[a-z0-9_.-]{1,64}$/, 'must be a LLaMA-Factory template name such as qwen or llama3')
      .default('qwen')
      .describe("Chat template of the model family (LLaMA-Factory's template name: qwen, llama3, mistral, …)."),
    dataset: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$/, 'must be dataset names separated by commas')
      .describe('Dataset names, comma-separated, as registered in dataset_info.json of datasetDir.'),
    datasetDir: dataPath('Folder with dataset_info.json and the data files', DATASETS_DIR).default(DATASETS_DIR),
    finetuningType: FinetuningTypeSchema,
    loraRank: LoraRankSchema,
    epochs: EpochsSchema,
    learningRate: LearningRateSchema(1e-4),
    perDeviceBatchSize: BatchSizeSchema,
    gradientAccumulationSteps: GradientAccumulationSchema,
    cutoffLen: MaxLengthSchema,
    maxSamples: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Use at most this many samples per dataset (a quick trial).'),
    saveSteps: SaveStepsSchema,
    loggingSteps: LoggingStepsSchema,
    deepspeed: z
      .enum(['none', 'z2', 'z3'])
      .default('none')
      .describe(
        'DeepSpeed ZeRO stage for large full fine-tunes: z2 shards optimizer state and gradients, z3 also the weights.',
      ),
    elasticAgent: ElasticAgentParamSchema,
  })
  .strict();

export const LLAMA_FACTORY_SFT = defineRecipe({
  id: 'llama-factory-sft',
  title: 'LLaMA-Factory SFT (full or LoRA)',
  description:
    'Supervised fine-tuning with LLaMA-Factory (its train entry, launched by hyperpodrun) from a model in the storage on datasets registered in dataset_info.json; LoRA adapters or full weights land in /data/outputs/<job>.',
  kind: 'HyperPodPyTorchJob',
  elastic: false,
  image: {
    default: IMAGE,
    source: "Docker Hub hiyouga/llamafactory (LLaMA-Factory's docker/docker-cuda build), tag 0.9.4",
  },
  params: LLAMA_FACTORY_SFT_PARAMS,
  logLines: LOG_LINES,
  check: (_p, placement) => needsNvidia('LLaMA-Factory', placement),
  build(p, placement, common) {
    const config: Record<string, unknown> = {
      model_name_or_path: p.modelPath,
      stage: 'sft',
      do_train: true,
      finetuning_type: p.finetuningType,
      ...(p.finetuningType === 'lora' ? { lora_rank: p.loraRank, lora_target: 'all' } : {}),
      dataset: p.dataset,
      dataset_dir: p.datasetDir,
      template: p.template,
      cutoff_len: p.cutoffLen,
      ...(p.maxSamples !== undefined ? { max_samples: p.maxSamples } : {}),
      preprocessing_num_workers: 16,
      output_dir: outputDir(common.jobName),
      // Kept, so a restarted job resumes from its newest checkpoint-N.
      overwrite_output_dir: false,
      logging_steps: p.loggingSteps,
      save_steps: p.saveSteps,
      plot_loss: true,
      per_device_train_batch_size: p.perDeviceBatchSize,
      gradient_accumulation_steps: p.gradientAccumulationSteps,
      learning_rate: p.learningRate,
      num_train_epochs: p.epochs,
      lr_scheduler_type: 'cosine',
      warmup_ratio: 0.1,
      bf16: placement.accelerator === 'nvidia',
      ddp_timeout: 180_000_000,
      ...(p.deepspeed !== 'none' ? { deepspeed: `${DEEPSPEED_CONFIGS}/ds_${p.deepspeed}_config.json` } : {}),
      report_to: common.mlflow ? 'mlflow' : 'none',
      run_name: common.jobName,
    };
    // JSON is YAML: the config needs no YAML writer, and LLaMA-Factory reads it by its .yaml name.
    const command = hyperpodrunCommand({
      nnodes: String(common.nodes),
      nprocPerNode: placement.processesPerNode,
      entry: { module: 'llamafactory.launcher' },
      args: [TRAIN_CONFIG_FILE],
      install: p.elasticAgent,
      prepare: `printf '%s' "$${TRAIN_CONFIG_ENV}" > ${TRAIN_CONFIG_FILE}`,
    });
    return hyperpodTrainingJob({ id: 'llama-factory-sft', logLines: LOG_LINES }, common, placement, {
      image: common.image ?? IMAGE,
      command,
      env: [...LAUNCHER_ENV, { name: TRAIN_CONFIG_ENV, value: JSON.stringify(config, null, 2) }],
    });
  },
});
