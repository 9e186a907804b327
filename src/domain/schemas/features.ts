import { z } from 'zod';
import { AUTOSCALING_MAX_GROUPS } from './autoscaling.js';
import { ClusterRefSchema, RegionSchema } from './common.js';
import { InstanceGroupNameSchema } from './instance-groups.js';

/**
 * The managed features of a cluster (see src/domain/features/registry.ts for what each installs)
 * and the shapes a caller uses to change them. Validation lives here once: the features API, its
 * OpenAPI, the MCP tools and the UI derive from these schemas.
 */

/** Every feature the registry knows, in registry order. */
export const FEATURE_IDS = [
  'pod-identity-agent',
  'cert-manager',
  'metrics-server',
  's3-csi-driver',
  'fsx-csi-driver',
  'health-monitoring-agent',
  'device-plugins',
  'training-operator',
  'inference-operator',
  'kuberay-operator',
  'tiered-checkpointing',
  'autoscaling',
] as const;
export type FeatureId = (typeof FEATURE_IDS)[number];

export const FeatureIdSchema = z
  .enum(FEATURE_IDS, `must be one of ${FEATURE_IDS.join(', ')}`)
  .describe('A managed feature of the cluster.');

/**
 * An EKS add-on version as DescribeAddonVersions spells it, e.g. v1.18.2-eksbuild.2. Absent means the
 * version EKS marks default for the cluster's Kubernetes version (read from AWS, never hard-coded).
 */
export const AddonVersionSchema = z
  .string()
  .regex(/^v\d+\.\d+\.\d+(-[A-Za-z0-9.]+)?$/, 'must be an EKS add-on version such as v1.18.2-eksbuild.2')
  .describe(
    "EKS add-on version (DescribeAddonVersions); absent = the default version for the cluster's Kubernetes version.",
  );

/** The config of a feature that is one EKS add-on: only which version. */
export const AddonFeatureConfigSchema = z
  .object({ version: AddonVersionSchema.optional() })
  .strict()
  .describe('Settings of an EKS add-on feature.');

/** Features installed from manifests InstantStart pins take no settings. */
export const NoFeatureConfigSchema = z.object({}).strict().describe('This feature takes no settings.');

/** HyperPod's ClusterTieredStorageConfig (UpdateCluster). The API allows 0–100; the user guide says 20–100, which we enforce. */
export const TieredCheckpointingConfigSchema = z
  .object({
    instanceMemoryAllocationPercentage: z
      .number('must be a whole number from 20 to 100')
      .int('must be a whole number from 20 to 100')
      .min(20, "must be at least 20 (the HyperPod user guide's lower bound)")
      .max(100, 'must be at most 100')
      .optional()
      .describe(
        "Share of each instance's memory (percent, 20–100) HyperPod gives the checkpoint memory tier; absent = HyperPod's default.",
      ),
    namespace: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a Kubernetes namespace name')
      .max(63, 'must be at most 63 characters')
      .optional()
      .describe(
        'Namespace of the training pods whose service account gets the checkpointing identity (absent = default).',
      ),
  })
  .strict()
  .describe(
    "Managed tiered checkpointing: a memory tier on every node, with the shared bucket's checkpoint prefix behind it.",
  );

/** Managed autoscaling as a feature: the same rule as set-autoscaling's instanceGroups. */
export const AutoscalingFeatureConfigSchema = z
  .object({
    instanceGroups: z
      .array(InstanceGroupNameSchema)
      .min(1, 'must name at least one instance group')
      .max(AUTOSCALING_MAX_GROUPS, `must name at most ${AUTOSCALING_MAX_GROUPS} instance groups`)
      .refine((names) => new Set(names).size === names.length, 'must not name a group twice')
      .describe(`The instance groups Karpenter may scale (1–${AUTOSCALING_MAX_GROUPS}).`),
  })
  .strict()
  .describe('HyperPod-managed node autoscaling (Karpenter): which instance groups it may scale.');

/** Each feature's config schema, by id: what `true` means (its defaults) and what a config object may say. */
export const FEATURE_CONFIG_SCHEMAS = {
  'pod-identity-agent': AddonFeatureConfigSchema,
  'cert-manager': AddonFeatureConfigSchema,
  'metrics-server': AddonFeatureConfigSchema,
  's3-csi-driver': AddonFeatureConfigSchema,
  'fsx-csi-driver': AddonFeatureConfigSchema,
  'health-monitoring-agent': NoFeatureConfigSchema,
  'device-plugins': NoFeatureConfigSchema,
  'training-operator': AddonFeatureConfigSchema,
  'inference-operator': AddonFeatureConfigSchema,
  'kuberay-operator': NoFeatureConfigSchema,
  'tiered-checkpointing': TieredCheckpointingConfigSchema,
  autoscaling: AutoscalingFeatureConfigSchema,
} as const satisfies Record<FeatureId, z.ZodType>;

export type FeatureConfig<Id extends FeatureId = FeatureId> = z.output<(typeof FEATURE_CONFIG_SCHEMAS)[Id]>;

/**
 * The features a caller may turn on and off. The health-monitoring agent and the device plugins are
 * part of every HyperPod cluster (HyperPod's own dependency chart): installed by create, never offered.
 */
export const TOGGLEABLE_FEATURE_IDS = FEATURE_IDS.filter(
  (id) => id !== 'health-monitoring-agent' && id !== 'device-plugins',
);

const changeOf = (id: FeatureId) =>
  z
    .union([z.boolean(), FEATURE_CONFIG_SCHEMAS[id]], `must be true, false or this feature's settings object`)
    .optional()
    .describe(
      `true turns ${id} on (with its defaults, or its current settings when already on), false turns it off, an object turns it on with those settings.`,
    );

/**
 * A change of features under the diff contract: only the keys the caller changed, each true, false
 * or a settings object. Unknown keys (and the features nobody toggles) are refused, naming the key.
 */
export const FeatureChangesSchema = z
  .strictObject(
    Object.fromEntries(TOGGLEABLE_FEATURE_IDS.map((id) => [id, changeOf(id)])) as {
      [K in FeatureId]?: ReturnType<typeof changeOf>;
    },
  )
  .refine((changes) => Object.values(changes).some((v) => v !== undefined), 'must name at least one feature to change')
  .describe(
    'Only the features the caller changed: true turns one on, false off, an object turns it on with those settings.',
  );
export type FeatureChanges = { [K in FeatureId]?: boolean | FeatureConfig<K> };

// ── Answers of the features API (GET …/features, POST …/features/plan) ─────────────────────────────

/**
 * A feature's state as read from the cluster (AWS and Kubernetes, never our store):
 * on (installed and healthy or degraded), off, installing, removing, failed, or unknown (the
 * cluster could not be read; `detail` says why).
 */
export const FeatureStateNameSchema = z.enum(['on', 'off', 'installing', 'removing', 'failed', 'unknown']);

export const FeatureStateSchema = z
  .object({
    id: FeatureIdSchema,
    title: z.string(),
    summary: z.string(),
    toggleable: z.boolean(),
    state: FeatureStateNameSchema,
    /** The installed version when on: an EKS add-on's, or the operator's of a manifest set (KubeRay's image tag). */
    version: z.string().optional(),
    /**
     * Set when another install, not InstantStart, provides the feature (e.g. a KubeRay installed with
     * its Helm chart): who, in words. InstantStart leaves it in charge — it applies nothing over it
     * and refuses to turn it off.
     */
    providedBy: z.string().optional(),
    /** Health in words (the add-on's health issues, a missing manifest object, the cluster setting as read back). */
    health: z.string().optional(),
    /** Its settings as read back from the cluster (what `config` of a PATCH is compared against). */
    config: z.record(z.string(), z.unknown()),
    /** Features this one needs (registry). */
    needs: z.array(FeatureIdSchema),
    /** Features that need this one (registry). */
    neededBy: z.array(FeatureIdSchema),
    /** What turning it on installs, in words (one line each: add-on, manifests, cluster setting, bucket, tags). */
    installs: z.array(z.string()),
    /** Its IAM identities: role name, who assumes it, and whether the role exists now. */
    identities: z.array(z.object({ id: z.string(), title: z.string(), roleName: z.string(), present: z.boolean() })),
  })
  .describe('One managed feature of the cluster, read from AWS and Kubernetes.');
export type FeatureState = z.infer<typeof FeatureStateSchema>;

export const FeaturesAnswerSchema = z
  .object({
    cluster: z.string(),
    features: z.array(FeatureStateSchema),
    /** The set-features operation running on this cluster now, if any (its id). */
    runningOperationId: z.string().optional(),
  })
  .describe('Every managed feature of a cluster, in registry order.');
export type FeaturesAnswer = z.infer<typeof FeaturesAnswerSchema>;

/** One step of a plan in words: which object it creates or deletes (role, add-on, association, annotation, setting). */
export const PlannedObjectSchema = z.object({
  action: z.enum(['create', 'update', 'delete']),
  kind: z.string(),
  name: z.string(),
});

export const FeaturePlanAnswerSchema = z
  .object({
    install: z.array(
      z.object({
        feature: FeatureIdSchema,
        reason: z.enum(['requested', 'reconfigure', 'needed']),
        neededBy: z.array(FeatureIdSchema),
        config: z.record(z.string(), z.unknown()),
        objects: z.array(PlannedObjectSchema),
      }),
    ),
    remove: z.array(z.object({ feature: FeatureIdSchema, objects: z.array(PlannedObjectSchema) })),
    unchanged: z.array(FeatureIdSchema),
    refused: z.array(
      z.object({
        feature: FeatureIdSchema,
        neededBy: z.array(FeatureIdSchema),
        providedBy: z.string().optional(),
        inUseBy: z
          .array(z.string())
          .optional()
          .describe('Objects in the cluster that still need it (delete them first).'),
      }),
    ),
    /** True when applying would change nothing (every key sent already matches the cluster). */
    noOp: z.boolean(),
  })
  .describe(
    'What a change of features would do, before anything happens: installs in order (with what each also needs), removals, and refusals.',
  );
export type FeaturePlanAnswer = z.infer<typeof FeaturePlanAnswerSchema>;

// ── The set-features operation (PATCH …/features) ──────────────────────────────────────────────────

/** The set-features operation's input: the caller's changes (only the keys they changed), with the cluster and Region resolved. */
export const SetFeaturesInputSchema = z
  .object({ cluster: ClusterRefSchema, region: RegionSchema, changes: FeatureChangesSchema })
  .strict();
export type SetFeaturesInput = z.output<typeof SetFeaturesInputSchema>;

/** PATCH …/features when every key sent already matches the cluster: 200, no operation started, the plan that says so. */
export const FeaturesUnchangedSchema = z
  .object({
    noOp: z.literal(true),
    message: z.string(),
    plan: FeaturePlanAnswerSchema,
  })
  .describe(
    'Nothing to do: every feature named already is as asked. No operation was started and nothing was changed.',
  );
export type FeaturesUnchanged = z.infer<typeof FeaturesUnchangedSchema>;
