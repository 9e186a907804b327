import { InputError, PreconditionError } from '../errors.js';
import type { KubeObject } from '../kube-object.js';
import type { SubmitTrainingJobRequest, TrainingKind } from '../schemas/training.js';
import { FaultToleranceSchema } from '../schemas/training-policies.js';
import { customJobManifest } from './custom-job.js';
import { checkTrainingCompatibility } from './elastic.js';
import type { TrainingCommon } from './job-manifest.js';
import type { Placement } from './placement.js';
import { parseRecipeParams, recipeById, recipeProblems } from './recipes/index.js';

/**
 * A submit request to the one manifest that is applied, with every rule that can refuse it checked
 * first (nothing is created on a refusal): the recipe exists, its parameters parse (400 naming
 * params.<field>), elastic / checkpointless / fault tolerance fit the group and the cluster, and the
 * parameters fit the placement (422 naming the field). The service reads the facts; this decides.
 */

/** What the service read about where the job goes. */
export interface SubmitFacts {
  /** The storage's claim (in the request's namespace). */
  claimName: string;
  placement: Placement;
  /** The instance group's capacity type: on-demand, spot or training-plan. */
  capacityType: string;
  /** Whether managed tiered checkpointing is enabled on the cluster. */
  tieredCheckpointing: boolean;
  /** The service account the pods run as (the MLflow pod identity), when the job reports to MLflow. */
  serviceAccountName?: string;
}

/** The common inputs of a request: fault tolerance with its defaults, the MLflow experiment defaulting to the job name. */
export function trainingCommon(
  req: SubmitTrainingJobRequest,
  claimName: string,
  serviceAccountName?: string,
): TrainingCommon {
  return {
    ...(serviceAccountName ? { serviceAccountName } : {}),
    jobName: req.name,
    namespace: req.namespace,
    claimName,
    nodes: req.nodes,
    faultTolerance: req.faultTolerance ?? FaultToleranceSchema.parse({}),
    ...(req.elastic ? { elastic: req.elastic } : {}),
    ...(req.mlflow
      ? {
          mlflow: {
            trackingServerArn: req.mlflow.trackingServerArn,
            experimentName: req.mlflow.experimentName ?? req.name,
          },
        }
      : {}),
    ...(req.image ? { image: req.image } : {}),
    ...(req.env.length ? { env: req.env } : {}),
    ...(req.checkpointless ? { checkpointless: true } : {}),
  };
}

/** The kind a request creates (custom containers are HyperPodPyTorchJobs). */
export function kindOfRequest(req: Pick<SubmitTrainingJobRequest, 'recipe'>): TrainingKind {
  const recipe = req.recipe !== undefined ? recipeById(req.recipe) : undefined;
  if (req.recipe !== undefined && !recipe)
    throw InputError.field('recipe', `'${req.recipe}' is not a recipe; list them with list_recipes`);
  return recipe?.kind ?? 'HyperPodPyTorchJob';
}

/**
 * The manifest for a submit request, or the refusal.
 *
 * @example
 * const manifest = trainingManifest(req, { claimName: 'shared-s3', placement, capacityType: 'on-demand',
 * tieredCheckpointing: false });
 * // a HyperPodPyTorchJob or RayJob object, ready for server-side apply
 */
export function trainingManifest(req: SubmitTrainingJobRequest, facts: SubmitFacts): KubeObject {
  const kind = kindOfRequest(req);
  const recipe = req.recipe !== undefined ? recipeById(req.recipe)! : undefined;
  const params = recipe ? parseRecipeParams(recipe, req.params) : undefined;
  const common = trainingCommon(req, facts.claimName, facts.serviceAccountName);
  checkTrainingCompatibility(
    {
      ...(req.elastic ? { elastic: req.elastic } : {}),
      checkpointless: req.checkpointless,
      ...(req.faultTolerance ? { faultTolerance: req.faultTolerance } : {}),
    },
    {
      kind,
      group: facts.placement.group,
      capacityType: facts.capacityType,
      tieredCheckpointing: facts.tieredCheckpointing,
    },
  );
  if (recipe && req.elastic && !recipe.elastic)
    throw new PreconditionError({
      message: `elastic: recipe ${recipe.id} cannot resume at another world size; elastic training is for PyTorch scripts that do (the pytorch-script recipe or a custom container)`,
      problems: [
        {
          path: 'elastic',
          message: `is not available with recipe ${recipe.id}: its framework does not resume at another world size (AWS documents elastic training for PyTorch DDP/FSDP with Distributed Checkpoint); use pytorch-script or a custom container`,
        },
      ],
    });
  if (recipe) {
    const problems = recipeProblems(recipe, params, facts.placement, common);
    if (problems.length)
      throw new PreconditionError({
        message: problems.map((p) => `${p.path} ${p.message}`).join('; '),
        problems,
        remedy: 'Change the named fields and submit again; nothing was created.',
      });
    return recipe.build(params as never, facts.placement, common);
  }
  return customJobManifest(req.custom!, facts.placement, common);
}
