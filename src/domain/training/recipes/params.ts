import { z } from 'zod';
import type { FieldProblem } from '../../errors.js';
import type { Placement } from '../placement.js';
import { DATASETS_DIR, isDataPath, MODELS_DIR } from '../data-contract.js';

/**
 * Parameter fields several recipes share. Paths are under the data contract's /data and use a
 * plain character set, because they reach a shell (Ray entrypoints) and command lines as they are.
 */

const SAFE_PATH = /^[A-Za-z0-9._\-/]+$/;

export const dataPath = (what: string, example: string) =>
  z
    .string()
    .max(1024)
    .refine((p) => SAFE_PATH.test(p), 'must use letters, digits, ., _, - and / only')
    .refine(
      isDataPath,
      'must be a path under /data (the storage every pod mounts), without . or .. segments, e.g. ' + example,
    )
    .describe(`${what}, under /data, e.g. ${example}.`);

export const ModelPathSchema = dataPath(
  'Model folder in the storage (where model downloads land: /data/models/<owner>/<name>/<revision>)',
  `${MODELS_DIR}/Qwen/Qwen2.5-0.5B-Instruct/main`,
);

export const DatasetFileSchema = dataPath(
  'Dataset file or folder in the storage',
  `${DATASETS_DIR}/alpaca/train.jsonl`,
);

export const EpochsSchema = z.number().min(0.01).max(1000).default(3).describe('Passes over the dataset.');

export const LearningRateSchema = (fallback: number) =>
  z.number().positive().max(1).default(fallback).describe('Peak learning rate.');

export const BatchSizeSchema = z.number().int().min(1).max(4096).default(1).describe('Samples per device per step.');

export const GradientAccumulationSchema = z
  .number()
  .int()
  .min(1)
  .max(1024)
  .default(8)
  .describe('Steps whose gradients add up before an optimizer step (global batch = batch × accumulation × devices).');

export const MaxLengthSchema = z
  .number()
  .int()
  .min(64)
  .max(1_048_576)
  .default(2048)
  .describe('Longest sequence in tokens; longer samples are cut.');

export const SaveStepsSchema = z
  .number()
  .int()
  .min(1)
  .max(1_000_000)
  .default(500)
  .describe('Save a checkpoint every this many steps (a restarted job resumes from the newest).');

export const LoggingStepsSchema = z
  .number()
  .int()
  .min(1)
  .max(100_000)
  .default(10)
  .describe('Log loss and learning rate every this many steps.');

export const FinetuningTypeSchema = z
  .enum(['lora', 'full'])
  .default('lora')
  .describe('lora: train low-rank adapters (little memory, small output); full: train every weight.');

export const LoraRankSchema = z.number().int().min(1).max(1024).default(8).describe('LoRA rank (lora only).');

/** For frameworks built on CUDA only: a group without NVIDIA GPUs cannot run them. */
export function needsNvidia(framework: string, placement: Placement): FieldProblem[] {
  if (placement.accelerator === 'nvidia') return [];
  const what = placement.accelerator === 'neuron' ? 'AWS Neuron devices' : 'no accelerators';
  return [
    {
      path: 'instanceGroup',
      message: `runs ${placement.instanceType} (${what}); ${framework} needs NVIDIA GPUs: choose a GPU group`,
    },
  ];
}
