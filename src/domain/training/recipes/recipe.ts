import type { z } from 'zod';
import type { FieldProblem } from '../../errors.js';
import type { KubeObject } from '../../kube-object.js';
import type { TrainingKind } from '../../schemas/training.js';
import type { TrainingCommon } from '../job-manifest.js';
import type { Placement } from '../placement.js';
import type { RecipeLogLines } from '../run-policy.js';

/**
 * A recipe: a framework's way to train, as data. Its parameters are a zod object whose fields are
 * all described and defaulted where a default makes sense (the UI generates its form from them,
 * REST and MCP validate with them); its builder turns parameters, placement and the common inputs
 * into the one manifest that is applied. Recipes never decide placement, storage, MLflow or fault
 * tolerance — job-manifest.ts does, the same for all.
 */
export interface Recipe<P extends z.ZodObject = z.ZodObject> {
  id: string;
  title: string;
  description: string;
  kind: TrainingKind;
  /** The pinned image and where it comes from (a request's `image` replaces it). */
  image: { default: string; source: string };
  params: P;
  /** How the framework prints progress, for the log-monitoring presets (besides the metric line contract). */
  logLines?: RecipeLogLines;
  /**
   * Whether the job may be elastic. Every HyperPodPyTorchJob recipe starts its workers through
   * hyperpodrun (elastic-agent.ts), but AWS documents elastic training for PyTorch DDP/FSDP scripts
   * that checkpoint with PyTorch Distributed Checkpoint and resume at another world size; the
   * frameworks the other recipes wrap do not promise that.
   */
  elastic: boolean;
  /** Problems between the parameters and where the job runs (paths like `params.tensorParallel`); [] when it fits. */
  check?(params: z.output<P>, placement: Placement, common: TrainingCommon): FieldProblem[];
  build(params: z.output<P>, placement: Placement, common: TrainingCommon): KubeObject;
}

/** Keeps a recipe's parameter type attached to its builder. */
export const defineRecipe = <P extends z.ZodObject>(recipe: Recipe<P>): Recipe<P> => recipe;
