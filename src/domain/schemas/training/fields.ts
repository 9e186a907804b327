import { z } from 'zod';

/**
 * The fields a training job request is made of (docs/TRAINING.md): its kind, its name, the recipe it
 * runs, the image, the environment, and the name a template of it is saved under. Every field
 * carries a description: REST, OpenAPI, the MCP tools and the UI's generated forms derive from it.
 */

export const TRAINING_KINDS = ['HyperPodPyTorchJob', 'RayJob'] as const;
export const TrainingKindSchema = z
  .enum(TRAINING_KINDS)
  .describe(
    'HyperPodPyTorchJob: the HyperPod training operator (process-level restarts, log monitoring, elastic). RayJob: KubeRay (a Ray cluster per job).',
  );
export type TrainingKind = z.infer<typeof TrainingKindSchema>;

const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Job names become pod names (`<job>-pod-<index>`), the RayCluster KubeRay derives
 * (`<job>-<5 chars>`) and its head Service (`…-head-svc`), each at most 63 characters: 40 leaves room.
 */
export const TrainingJobNameSchema = z
  .string('must be a job name')
  .min(1, 'must not be empty')
  .max(40, 'must be at most 40 characters (pod and Service names derive from it and must stay within 63)')
  .regex(
    DNS_LABEL,
    'must be a Kubernetes name: lower-case letters, digits and hyphens, starting with a letter and ending with a letter or digit',
  )
  .describe(
    'Job name, unique in its namespace across both kinds: 1–40 lower-case letters, digits and hyphens. ' +
      'Names its pods, checkpoints (/data/checkpoints/<name>) and outputs (/data/outputs/<name>).',
  );

export const RecipeIdSchema = z
  .string('must be a recipe id')
  .regex(
    /^[a-z][a-z0-9-]{0,62}$/,
    'must be a recipe id such as pytorch-script (list them with list_recipes / GET /api/v1/training/recipes)',
  )
  .describe(
    'Recipe id, e.g. pytorch-script, llama-factory-sft, ms-swift-sft, ms-swift-megatron-rlhf, verl-rl. List them with list_recipes.',
  );

/** Values that are secrets must come from a Secret, never a literal in a manifest anyone can read. */
const SECRET_LIKE = /(SECRET|PASSWORD|PASSWD|TOKEN|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL)/i;

export const EnvVarSchema = z
  .object({
    name: z
      .string()
      .regex(
        /^[A-Za-z_][A-Za-z0-9_]{0,127}$/,
        'must be an environment variable name: letters, digits and _, not starting with a digit',
      )
      .refine(
        (n) => !SECRET_LIKE.test(n),
        'looks like a secret: literal values are visible to anyone who can read the job; keep secrets in a Kubernetes Secret',
      )
      .describe('Variable name.'),
    value: z
      .string()
      .max(4096, 'must be at most 4096 characters')
      .describe("Literal value (no secrets: it is stored in the job's manifest)."),
  })
  .strict()
  .describe('One environment variable for every training container.');
export type EnvVarRequest = z.infer<typeof EnvVarSchema>;

export const EnvListSchema = z
  .array(EnvVarSchema)
  .max(64)
  .describe(
    'Extra environment variables for every container. They cannot replace the ones InstantStart sets (data contract, MLflow, NCCL).',
  );

export const ImageSchema = z
  .string()
  .min(1, 'must not be empty: give a container image reference such as registry/repository:tag')
  .max(512, 'must be at most 512 characters')
  .regex(/^[a-z0-9][a-z0-9._\-/:@]*$/i, 'must be a container image reference such as registry/repository:tag')
  .describe('Container image, e.g. 123456789012.dkr.ecr.us-west-2.amazonaws.com/my-trainer:1.2.');

export const TemplateNameSchema = z
  .string('must be a template name')
  .min(1)
  .max(63)
  .regex(DNS_LABEL, 'must be lower-case letters, digits and hyphens, starting with a letter')
  .describe('Template name, unique per cluster.');
