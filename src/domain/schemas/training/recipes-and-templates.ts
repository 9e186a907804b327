import { z } from 'zod';
import { RegionSchema } from '../common.js';
import { TemplateNameSchema, TrainingKindSchema } from './fields.js';
import { checkSubmit, SubmitTrainingJobShape } from './job-requests.js';

/**
 * What a job is started from besides a full request: a recipe of the catalogue (its parameters as
 * JSON Schema, for generated forms), or a template — a submit request saved on a cluster without
 * the job's name.
 */

export const RecipeViewSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    kind: TrainingKindSchema,
    image: z.object({ default: z.string(), source: z.string().describe('Where the pinned image comes from.') }),
    parameters: z
      .record(z.string(), z.unknown())
      .describe('JSON Schema of params (each field described, defaults given): what a form is generated from.'),
  })
  .describe('A recipe of the catalogue.');
export type RecipeView = z.infer<typeof RecipeViewSchema>;

export const RecipeListSchema = z.object({ recipes: z.array(RecipeViewSchema) });

export const TrainingTemplateRequestSchema = SubmitTrainingJobShape.omit({
  name: true,
  region: true,
  saveAsTemplate: true,
})
  .superRefine(checkSubmit)
  .describe('The submit request the template stands for, without the job name.');

export const SaveTrainingTemplateRequestSchema = z
  .object({
    region: RegionSchema.optional(),
    description: z.string().max(1024).optional().describe('What the template is for.'),
    request: TrainingTemplateRequestSchema,
  })
  .strict();

export const TrainingTemplateSchema = z
  .object({
    name: TemplateNameSchema,
    cluster: z.string(),
    description: z.string().optional(),
    request: TrainingTemplateRequestSchema.describe(
      'The saved submit request without name (re-submit it with a new name).',
    ),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .describe('A saved job request of one cluster.');
export type TrainingTemplate = z.infer<typeof TrainingTemplateSchema>;

export const TrainingTemplateListSchema = z.object({ cluster: z.string(), templates: z.array(TrainingTemplateSchema) });
