import { z } from 'zod';
import { checkpointDir } from '../data-contract.js';
import { rayTrainingJob } from '../job-manifest.js';
import { dataPath, ModelPathSchema, needsNvidia } from './params.js';
import { defineRecipe } from './recipe.js';

/**
 * VERL reinforcement learning (PPO with a critic, or GRPO without one) on a RayJob: KubeRay starts
 * a Ray cluster over the job's nodes and submits `python3 -m verl.trainer.main_ppo …` to it; VERL
 * places actor, rollout (vLLM), reference and critic workers on the Ray cluster's GPUs. Checkpoints
 * go to /data/checkpoints/<job>; with MLflow, VERL's tracker logs to the tracking server.
 */

/**
 * VERL's application image for release 0.5 (vLLM 0.10.0, Megatron-Core 0.13, Transformer Engine
 * 2.2) on Docker Hub (verlai/verl; the tags are listed in verl's docker/ README and install docs).
 * It carries the dependencies but not verl itself: verlPackage installs it at job start.
 */
const IMAGE = 'verlai/verl:app-verl0.5-vllm0.10.0-mcore0.13.0-te2.2';

/** VERL's console logger prints `step:12 - actor/pg_loss:… - perf/throughput:…` per step. */
const LOG_LINES = { progress: 'step:\\d+ - ', throughput: 'perf/throughput:' };

const PIP_SPEC = /^[A-Za-z0-9][A-Za-z0-9._-]*(==[A-Za-z0-9.+!-]+)?$/;

export const VERL_RL_PARAMS = z
  .object({
    algorithm: z
      .enum(['grpo', 'ppo'])
      .default('grpo')
      .describe(
        'grpo: group-relative advantages from several rollouts per prompt, no critic; ppo: a critic model estimates advantages (GAE).',
      ),
    modelPath: ModelPathSchema.describe("The policy model (and the critic's starting point for ppo), under /data."),
    trainFiles: dataPath(
      "Training prompts (parquet, VERL's format with data_source, prompt and reward_model columns)",
      '/data/datasets/gsm8k/train.parquet',
    ),
    valFiles: dataPath('Validation prompts (parquet)', '/data/datasets/gsm8k/test.parquet'),
    trainBatchSize: z.number().int().min(1).max(65_536).default(256).describe('Prompts per training step.'),
    maxPromptLength: z.number().int().min(16).max(262_144).default(512).describe('Longest prompt in tokens.'),
    maxResponseLength: z
      .number()
      .int()
      .min(16)
      .max(262_144)
      .default(1024)
      .describe('Longest generated response in tokens.'),
    actorLearningRate: z.number().positive().max(1).default(1e-6).describe('Learning rate of the policy.'),
    criticLearningRate: z.number().positive().max(1).default(1e-5).describe('Learning rate of the critic (ppo only).'),
    rolloutsPerPrompt: z
      .number()
      .int()
      .min(1)
      .max(64)
      .default(5)
      .describe('Responses sampled per prompt (grpo compares them; ppo uses 1).'),
    rolloutTensorParallel: z.number().int().min(1).max(64).default(1).describe('GPUs each vLLM rollout engine spans.'),
    rolloutGpuMemoryUtilization: z
      .number()
      .min(0.1)
      .max(0.95)
      .default(0.5)
      .describe('Share of GPU memory vLLM takes for rollouts (the rest trains).'),
    epochs: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(15)
      .describe('Passes over the training prompts (trainer.total_epochs).'),
    saveFreq: z
      .number()
      .int()
      .min(-1)
      .max(1_000_000)
      .default(20)
      .describe('Save a checkpoint every this many steps (-1: only at the end).'),
    verlPackage: z
      .string()
      .refine((s) => s === '' || PIP_SPEC.test(s), 'must be a pip requirement such as verl==0.5.0, or empty')
      .default('verl==0.5.0')
      .describe(
        "pip requirement of VERL installed into the job's Ray runtime environment (the default image has VERL's dependencies, not VERL); empty when your image carries VERL.",
      ),
  })
  .strict();

export const VERL_RL = defineRecipe({
  id: 'verl-rl',
  title: 'VERL RL (GRPO or PPO on Ray)',
  description:
    "Reinforcement learning of a language model with VERL (python3 -m verl.trainer.main_ppo) on a RayJob spanning the job's nodes: vLLM rollouts, GRPO or PPO updates, checkpoints in /data/checkpoints/<job>.",
  kind: 'RayJob',
  elastic: false,
  image: { default: IMAGE, source: "Docker Hub verlai/verl (verl's docker images), app-verl0.5 tag" },
  params: VERL_RL_PARAMS,
  logLines: LOG_LINES,
  check: (_p, placement) => needsNvidia('VERL', placement),
  build(p, placement, common) {
    const ppo = p.algorithm === 'ppo';
    const overrides = [
      `algorithm.adv_estimator=${ppo ? 'gae' : 'grpo'}`,
      `data.train_files=${p.trainFiles}`,
      `data.val_files=${p.valFiles}`,
      `data.train_batch_size=${p.trainBatchSize}`,
      `data.max_prompt_length=${p.maxPromptLength}`,
      `data.max_response_length=${p.maxResponseLength}`,
      `actor_rollout_ref.model.path=${p.modelPath}`,
      `actor_rollout_ref.actor.optim.lr=${p.actorLearningRate}`,
      `actor_rollout_ref.rollout.name=vllm`,
      `actor_rollout_ref.rollout.n=${ppo ? 1 : p.rolloutsPerPrompt}`,
      `actor_rollout_ref.rollout.tensor_model_parallel_size=${p.rolloutTensorParallel}`,
      `actor_rollout_ref.rollout.gpu_memory_utilization=${p.rolloutGpuMemoryUtilization}`,
      ...(ppo
        ? [`critic.model.path=${p.modelPath}`, `critic.optim.lr=${p.criticLearningRate}`]
        : [`actor_rollout_ref.actor.use_kl_loss=True`, `algorithm.use_kl_in_reward=False`]),
      `trainer.nnodes=${common.nodes}`,
      `trainer.n_gpus_per_node=${placement.acceleratorsPerPod}`,
      `trainer.total_epochs=${p.epochs}`,
      `trainer.save_freq=${p.saveFreq}`,
      `trainer.default_local_dir=${checkpointDir(common.jobName)}`,
      // The step is found again after a restart: resume from the newest checkpoint there.
      `trainer.resume_mode=auto`,
      `trainer.project_name=${common.mlflow?.experimentName ?? common.jobName}`,
      `trainer.experiment_name=${common.jobName}`,
      // Quoted: brackets are shell glob characters.
      `'trainer.logger=${JSON.stringify(common.mlflow ? ['console', 'mlflow'] : ['console'])}'`,
    ];
    // Every value above is a number, an enum or a path of plain characters: nothing for the shell to expand.
    const entrypoint = ['python3', '-m', 'verl.trainer.main_ppo', ...overrides].join(' ');
    const runtimeEnvYAML = p.verlPackage
      ? `pip:\n  packages: ["${p.verlPackage}"]\n  pip_install_options: ["--no-deps"]\n`
      : undefined;
    return rayTrainingJob({ id: 'verl-rl' }, common, placement, {
      image: common.image ?? IMAGE,
      entrypoint,
      ...(runtimeEnvYAML ? { runtimeEnvYAML } : {}),
    });
  },
});
