import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from '../common.js';
import { InstanceGroupNameSchema } from '../instance-groups.js';
import { StorageNameSchema, StorageNamespaceSchema } from '../storage.js';
import { ElasticSchema, FaultToleranceSchema } from '../training-policies.js';
import { CustomContainerSchema } from './custom-container.js';
import {
  EnvListSchema,
  ImageSchema,
  RecipeIdSchema,
  TemplateNameSchema,
  TrainingJobNameSchema,
  TrainingKindSchema,
} from './fields.js';
import { TrainingJobViewSchema } from './job-view.js';
import { MlflowLinkSchema } from './mlflow.js';

/**
 * What a caller sends about a job, and the answers: submit (a recipe or a custom container), list,
 * re-submit under a new name, delete. The rules across a submit's fields are written once
 * ({@link checkSubmit}) and hold for a template's request too.
 */

export const SubmitTrainingJobShape = z
  .object({
    region: RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region."),
    name: TrainingJobNameSchema,
    namespace: StorageNamespaceSchema.default('default').describe(
      "Namespace the job runs in; the storage's claim must be in it. Default: default.",
    ),
    recipe: RecipeIdSchema.optional().describe('The recipe to run (give params); or give custom instead.'),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("The recipe's parameters, as list_recipes describes them."),
    custom: CustomContainerSchema.optional(),
    image: ImageSchema.optional().describe("Replace the recipe's pinned image (same framework, your build or mirror)."),
    instanceGroup: InstanceGroupNameSchema.describe(
      'The instance group the pods run on; GPUs, Neuron devices and EFA per pod follow from its instance type.',
    ),
    nodes: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(1)
      .describe(
        'Nodes (one pod each) the job starts on. With elastic: the starting size, within minReplicas..maxReplicas.',
      ),
    storage: StorageNameSchema.describe(
      'The storage mounted at /data in every pod. Its claim is in namespace; datasets, models, checkpoints and outputs live there.',
    ),
    faultTolerance: FaultToleranceSchema.optional().describe(
      'Recovery budget, restart escalation and log-monitoring rules. Default: 10 restarts, 3 process ' +
        'restarts before a full-job restart, 1 full-job restart per 6 h, no log rules.',
    ),
    elastic: ElasticSchema.optional(),
    checkpointless: z
      .boolean()
      .default(false)
      .describe(
        "HyperPod checkpointless training. Recovery from peers' memory; needs a checkpointless-ready image; not with elastic or managed tiered checkpointing.",
      ),
    mlflow: MlflowLinkSchema.optional(),
    env: EnvListSchema.default([]),
    saveAsTemplate: z
      .object({
        name: TemplateNameSchema,
        description: z.string().max(1024).optional().describe('What the template is for.'),
      })
      .strict()
      .optional()
      .describe('Also save the request as a template. Re-submit it later with another name.'),
  })
  .strict();

type SubmitChecked = Pick<
  z.output<typeof SubmitTrainingJobShape>,
  'recipe' | 'params' | 'custom' | 'image' | 'elastic' | 'nodes'
>;

/** The rules across fields of a submit request (and of a template's request). */
export function checkSubmit(r: SubmitChecked, ctx: z.RefinementCtx): void {
  if ((r.recipe === undefined) === (r.custom === undefined))
    ctx.addIssue({
      code: 'custom',
      path: [r.recipe === undefined ? 'recipe' : 'custom'],
      message: 'give either recipe (with params) or custom, not both and not neither',
    });
  if (r.custom && r.params !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['params'],
      message: 'params belong to a recipe; a custom container takes command, args and env',
    });
  if (r.custom && r.image !== undefined)
    ctx.addIssue({ code: 'custom', path: ['image'], message: 'a custom container names its image in custom.image' });
  if (r.elastic && (r.nodes < r.elastic.minReplicas || r.nodes > r.elastic.maxReplicas))
    ctx.addIssue({
      code: 'custom',
      path: ['nodes'],
      message: `must be within elastic.minReplicas..maxReplicas (${r.elastic.minReplicas}..${r.elastic.maxReplicas})`,
    });
}

export const SubmitTrainingJobRequestSchema = SubmitTrainingJobShape.superRefine(checkSubmit).describe(
  'Submit a training job: a recipe with its parameters, or a custom container, on one instance group, ' +
    'with the storage at /data. Created at once; follow it with get_job and get_job_logs.',
);
export type SubmitTrainingJobRequest = z.output<typeof SubmitTrainingJobRequestSchema>;

export const TrainingJobListQuerySchema = z
  .object({
    region: RegionSchema.optional(),
    namespace: StorageNamespaceSchema.optional().describe('Only jobs of this namespace; default all.'),
  })
  .strict();

/** The path parameters of one job. */
export const TrainingJobParamsSchema = z
  .object({ name: ClusterRefSchema, namespace: StorageNamespaceSchema, job: TrainingJobNameSchema })
  .strict();

export const SubmitTrainingJobAnswerSchema = z
  .object({
    job: TrainingJobViewSchema,
    template: z.string().optional().describe('The template saved, when saveAsTemplate was given.'),
  })
  .describe('The job as created.');

export const ResubmitTrainingJobRequestSchema = z
  .object({
    region: RegionSchema.optional(),
    name: TrainingJobNameSchema.describe("The new job's name (the old job keeps its own)."),
  })
  .strict()
  .describe(
    'Run a job again under a new name, from the request it was submitted with (the same recipe, parameters, group, storage, fault tolerance and MLflow).',
  );

export const DeleteTrainingJobQuerySchema = z
  .object({
    region: RegionSchema.optional(),
    confirm: z
      .literal('true', 'must be true: deleting a job stops its pods (its checkpoints and outputs under /data stay)')
      .describe(
        'Must be "true": the job and its pods are deleted (a RayJob\'s Ray cluster too); /data/checkpoints/<job> and /data/outputs/<job> stay.',
      ),
  })
  .strict();

export const DeleteTrainingJobAnswerSchema = z
  .object({
    job: z.string(),
    namespace: z.string(),
    kind: TrainingKindSchema,
    deleted: z.boolean().describe('False when it was already gone.'),
  })
  .describe('The job deleted.');
