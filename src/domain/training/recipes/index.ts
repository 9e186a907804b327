import { z } from 'zod';
import { InputError, type FieldProblem } from '../../errors.js';
import type { KubeObject } from '../../kube-object.js';
import type { RecipeView } from '../../schemas/training.js';
import type { TrainingCommon } from '../job-manifest.js';
import type { Placement } from '../placement.js';
import { LLAMA_FACTORY_SFT } from './llama-factory-sft.js';
import { MS_SWIFT_MEGATRON_RLHF } from './ms-swift-megatron-rlhf.js';
import { MS_SWIFT_SFT } from './ms-swift-sft.js';
import { PYTORCH_SCRIPT } from './pytorch-script.js';
import type { Recipe } from './recipe.js';
import { VERL_RL } from './verl-rl.js';

/**
 * The recipe catalogue (docs/TRAINING.md → Recipes): every recipe InstantStart offers, in the order
 * people pick them. Adding a recipe is one file in this folder and one line here.
 */
export const RECIPES: readonly Recipe[] = [
  PYTORCH_SCRIPT,
  LLAMA_FACTORY_SFT,
  MS_SWIFT_SFT,
  MS_SWIFT_MEGATRON_RLHF,
  VERL_RL,
] as unknown as Recipe[];

const BY_ID = new Map(RECIPES.map((r) => [r.id, r]));

/** The recipe with this id, or undefined (ids come from requests: a Map, never an object index). */
export const recipeById = (id: string): Recipe | undefined => BY_ID.get(id);

/** A recipe as list_recipes shows it: its parameters as JSON Schema, every field described, defaults filled in. */
export function recipeView(recipe: Recipe): RecipeView {
  const parameters = z.toJSONSchema(recipe.params, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Record<string, unknown>;
  delete parameters.$schema;
  return {
    id: recipe.id,
    title: recipe.title,
    description: recipe.description,
    kind: recipe.kind,
    image: { ...recipe.image },
    parameters,
  };
}

/**
 * A recipe's parameters checked against its schema, problems named `params.<field>` (400).
 *
 * @example
 * parseRecipeParams(PYTORCH_SCRIPT, { script: '/tmp/x.py' })
 * // throws InputError: params.script: must be a path under /data …
 */
export function parseRecipeParams<R extends Recipe>(recipe: R, params: unknown): z.output<R['params']> {
  const r = recipe.params.safeParse(params ?? {});
  if (r.success) return r.data as z.output<R['params']>;
  const problems: FieldProblem[] = r.error.issues.map((i) => ({
    path: ['params', ...i.path.map(String)].join('.'),
    message: i.message,
  }));
  throw new InputError({
    message: `Invalid parameters of recipe ${recipe.id}: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
    problems,
  });
}

/** The recipe's own checks of parameters against the placement (GPU kind, parallel sizes). */
export const recipeProblems = (
  recipe: Recipe,
  params: unknown,
  placement: Placement,
  common: TrainingCommon,
): FieldProblem[] => recipe.check?.(params as never, placement, common) ?? [];

/** The manifest of a recipe job: parameters parsed (InputError naming params.<field>), then built. */
export function buildRecipeManifest(
  recipe: Recipe,
  params: unknown,
  placement: Placement,
  common: TrainingCommon,
): KubeObject {
  return recipe.build(parseRecipeParams(recipe, params) as never, placement, common);
}
