import { HourlyCostSchema } from './plans.js';
import { z } from 'zod';
import { GroupShortfallSchema } from '../cluster-health.js';
import { IMMUTABLE_GROUP_FIELDS, MUTABLE_GROUP_FIELDS, isImmutableGroupField } from '../instance-groups.js';
import { LabelsSchema, TaintSchema, TaintsSchema } from '../instance-groups/kubernetes-labels.js';
import { QuotaCheckResultSchema } from './preflight.js';
import { checkCapacityAndPlacement } from './clusters.js';
import {
  AvailabilityZoneSchema,
  CapacityTypeSchema,
  ClusterRefSchema,
  InstanceTypeSchema,
  RegionSchema,
  TrainingPlanArnSchema,
} from './common.js';

export { IMMUTABLE_GROUP_FIELDS, TaintSchema };

/**
 * Instance groups: what a user decides when adding one (zone, type, capacity type, count, network
 * interface mode) and the few things they may change later. Everything else is fixed for the
 * group's lifetime — HyperPod's rules, enforced here before AWS is called.
 */
export const InstanceGroupNameSchema = z
  .string()
  .regex(
    /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/,
    'must be 1–63 letters, digits and hyphens, starting and ending with a letter or digit',
  )
  .describe("Instance group name, unique in the cluster (fixed for the group's lifetime).");

/** Our UI and API cap a group at 1000 nodes (HyperPod allows 6758); bigger fleets are several groups. */
const InstanceCountSchema = z.number().int().min(0, 'must be at least 0').max(1000, 'must be at most 1000');

const DeepHealthChecksSchema = z
  .boolean()
  .describe(
    'Deep health checks on new nodes. They run before the nodes take work: GPU stress with DCGM, EFA/NCCL connectivity; adds time to node start.',
  );

const S3_URI = /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^\s]*)?$/;
const ScriptNameSchema = z
  .string()
  .min(1, 'must name a script file')
  .max(128, 'must be at most 128 characters')
  .regex(/^[^/\s][^\s]*$/, 'must be a file name relative to sourceS3Uri, such as on_create.sh');

export const LifecycleConfigSchema = z
  .object({
    sourceS3Uri: z
      .string()
      .max(1024, 'must be at most 1024 characters')
      .regex(S3_URI, 'must be an S3 URI such as s3://sagemaker-my-bucket/lifecycle/')
      .describe(
        "S3 folder of the lifecycle scripts. The execution role's managed policy only reads buckets named sagemaker-…; other buckets need an explicit s3:GetObject grant.",
      ),
    onCreate: ScriptNameSchema.describe('Script in that folder run when a node is created, e.g. on_create.sh.'),
    onInitComplete: ScriptNameSchema.optional().describe(
      "Optional script run after HyperPod's own node initialisation completes.",
    ),
  })
  .strict()
  .describe(
    "Lifecycle scripts the group's nodes run at creation. Left out, the nodes run none (HyperPod on EKS does not need them).",
  );

export const ScheduledUpdateSchema = z
  .object({
    scheduleExpression: z
      .string()
      .regex(/^cron\(.+\)$/, 'must be a cron expression such as cron(0 3 ? * SUN *)')
      .describe('When HyperPod may roll AMI updates over the group, e.g. cron(0 3 ? * SUN *).'),
    waitIntervalSeconds: z
      .number()
      .int()
      .min(0)
      .max(3600, 'must be at most 3600')
      .optional()
      .describe('Pause between update batches, 0–3600 seconds.'),
    maxBatch: z
      .object({
        type: z
          .enum(['INSTANCE_COUNT', 'CAPACITY_PERCENTAGE'])
          .describe('Batch size as a node count or as a percentage of the group.'),
        value: z.number().int().min(1, 'must be at least 1').describe('Nodes (or percent) updated at once.'),
      })
      .strict()
      .optional()
      .describe('Largest batch of nodes updated at once (rolling update).'),
  })
  .strict()
  .describe('Scheduled AMI updates for the group.');

export const AutoPatchSchema = z
  .object({
    patchingStrategy: z
      .enum(['WhenIdle', 'WhenAllIdle'])
      .describe('WhenIdle: patch each node when it runs no pods; WhenAllIdle: only when the whole group is idle.'),
    nextPatchDate: z.iso
      .datetime('must be an ISO-8601 time such as 2026-06-01T03:00:00Z')
      .optional()
      .describe('Earliest time of the next patch.'),
  })
  .strict()
  .describe('Automatic security patching when nodes are idle.');

/** The rules across fields of a new group (exported for schemas that name the fields otherwise, as the MCP tools do). */
export function checkNewGroup(
  req: Parameters<typeof checkCapacityAndPlacement>[0] & {
    instanceCount: number;
    minInstanceCount?: number | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  checkCapacityAndPlacement(req, ctx);
  if (req.minInstanceCount !== undefined && req.minInstanceCount > req.instanceCount)
    ctx.addIssue({ code: 'custom', path: ['minInstanceCount'], message: 'must not exceed instanceCount' });
}

export const AddInstanceGroupRequestSchema = z
  .object({
    name: InstanceGroupNameSchema,
    region: RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region."),
    availabilityZone: AvailabilityZoneSchema.describe(
      "The group's zone. Its /20 compute subnet is reused or created there; fixed for the group's lifetime.",
    ),
    instanceType: InstanceTypeSchema,
    instanceCount: InstanceCountSchema.describe('Instances (0 for a group managed autoscaling grows).'),
    minInstanceCount: InstanceCountSchema.optional().describe(
      'Fewest instances for the group to count as created. Else HyperPod rolls it back after 3 hours.',
    ),
    capacityType: CapacityTypeSchema.default('on-demand').describe(CapacityTypeSchema.description!),
    trainingPlanArn: TrainingPlanArnSchema.optional().describe(TrainingPlanArnSchema.description!),
    networkInterface: z
      .enum(['efa', 'efa-only'])
      .optional()
      .describe("EFA: efa (with ENA) or efa-only. EFA-capable types only; fixed for the group's lifetime."),
    deepHealthChecks: DeepHealthChecksSchema.default(false).describe(DeepHealthChecksSchema.description!),
    threadsPerCore: z
      .union([z.literal(1), z.literal(2)], 'must be 1 or 2')
      .optional()
      .describe("1 disables hyper-threading. Fixed for the group's lifetime."),
    labels: LabelsSchema.optional().describe(LabelsSchema.description!),
    taints: TaintsSchema.optional().describe(TaintsSchema.description!),
    lifecycleConfig: LifecycleConfigSchema.optional().describe(LifecycleConfigSchema.description!),
  })
  .strict()
  .superRefine(checkNewGroup)
  .describe(
    'Add an instance group to a cluster: capacity type, network interface mode and subnet placement are fixed in this one create.',
  );
export type AddInstanceGroupRequest = z.output<typeof AddInstanceGroupRequestSchema>;

/**
 * A lower count terminates nodes (and the jobs on them), so it needs the caller's explicit yes — the
 * same rule for the UI, REST and MCP. The schema cannot know the group's count; the service compares.
 */
export const ShrinkConfirmSchema = z
  .literal(true, 'must be true to shrink: set it only after the user confirmed that nodes of this group are terminated')
  .optional()
  .describe("true to shrink, after the user's yes. A lower count terminates nodes and stops their jobs.");

/** What an update request may carry besides the group's mutable fields. */
const UPDATE_CONTROL_KEYS = ['region', 'confirm'];
const UPDATE_KEYS = new Set<string>([...UPDATE_CONTROL_KEYS, ...MUTABLE_GROUP_FIELDS]);

/**
 * Unknown keys are let through to the refinement, which names each one: a fixed field gets
 * "cannot change: <why>" on its own path (the route answers 422), anything else "is not a field".
 */
export const UpdateInstanceGroupRequestSchema = z
  .object({
    region: RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region."),
    instanceCount: InstanceCountSchema.optional().describe('New number of instances. Send only the fields you change.'),
    minInstanceCount: InstanceCountSchema.optional().describe(
      'New minimum count. It matters only until the group first becomes InService.',
    ),
    labels: LabelsSchema.optional().describe('The complete new set of labels ({} removes them all).'),
    taints: TaintsSchema.optional().describe('The complete new list of taints ([] removes them all).'),
    deepHealthChecks: DeepHealthChecksSchema.optional().describe(DeepHealthChecksSchema.description!),
    lifecycleConfig: LifecycleConfigSchema.optional().describe(
      'New lifecycle scripts; they run on nodes created from now on.',
    ),
    scheduledUpdate: ScheduledUpdateSchema.nullable()
      .optional()
      .describe('Scheduled AMI updates; null removes the schedule.'),
    autoPatch: AutoPatchSchema.nullable().optional().describe('Automatic patching when idle; null turns it off.'),
    confirm: ShrinkConfirmSchema,
  })
  .catchall(z.unknown())
  .superRefine((req, ctx) => {
    for (const key of Object.keys(req)) {
      if (UPDATE_KEYS.has(key)) continue;
      const message = isImmutableGroupField(key)
        ? `cannot change: ${IMMUTABLE_GROUP_FIELDS[key]}`
        : 'is not a field of an instance group update';
      ctx.addIssue({ code: 'custom', path: [key], message });
    }
    if (
      !MUTABLE_GROUP_FIELDS.some((k) => req[k] !== undefined) &&
      Object.keys(req).every((k) => UPDATE_CONTROL_KEYS.includes(k))
    ) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `names nothing to change: send at least one of ${MUTABLE_GROUP_FIELDS.join(', ')}`,
      });
    }
    if (
      req.instanceCount !== undefined &&
      req.minInstanceCount !== undefined &&
      req.minInstanceCount > req.instanceCount
    ) {
      ctx.addIssue({ code: 'custom', path: ['minInstanceCount'], message: 'must not exceed instanceCount' });
    }
  })
  .describe(
    `Change a group: send only what changes (${MUTABLE_GROUP_FIELDS.join(', ')}). Fixed fields (${Object.keys(IMMUTABLE_GROUP_FIELDS).join(', ')}) are refused, naming the field and why; a request equal to the group's state changes nothing.`,
  );
export type UpdateInstanceGroupRequest = z.output<typeof UpdateInstanceGroupRequestSchema>;

export const ScaleInstanceGroupRequestSchema = z
  .object({
    region: RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region."),
    instanceCount: InstanceCountSchema.describe(
      'The new number of instances (0 allowed). The same count as now changes nothing.',
    ),
    confirm: ShrinkConfirmSchema,
  })
  .strict()
  .describe('Set the number of instances of a group.');
export type ScaleInstanceGroupRequest = z.output<typeof ScaleInstanceGroupRequestSchema>;

/** The answer of a scale preflight: the create's findings, about the growth from the group's target to the new count. */
export const ScalePreflightResultSchema = QuotaCheckResultSchema.extend({
  targetCount: z.number().int().describe('Instances the group works towards now.'),
  instanceCount: z.number().int().describe('The count asked for.'),
  adds: z
    .number()
    .int()
    .describe('Instances the scale adds against the quotas (0 when it shrinks or keeps the count: nothing to check).'),
  costChange: HourlyCostSchema.optional().describe(
    "What the scale changes per hour: the group's instance price (AWS Price List) × the change in count, negative when it shrinks; absent when the count stays.",
  ),
}).describe(
  'Whether scaling the group to instanceCount fits the quotas and its training plan; problems name the field, the numbers and the fix.',
);
export type ScalePreflightResult = z.infer<typeof ScalePreflightResultSchema>;

// ---- Operation inputs (what the journal stores; the service builds them from a request and the group's state)

/** The group an operation acts on. */
const GroupRefShape = { cluster: ClusterRefSchema, region: RegionSchema, name: InstanceGroupNameSchema };

/** add-instance-group: the request with its cluster and Region resolved. */
export const AddInstanceGroupInputSchema = AddInstanceGroupRequestSchema.safeExtend({
  cluster: ClusterRefSchema,
  region: RegionSchema,
});
export type AddInstanceGroupInput = z.output<typeof AddInstanceGroupInputSchema>;

/** scale-instance-group: the new count (absent when an update changes only settings). */
export const ScaleInstanceGroupInputSchema = z
  .object({ ...GroupRefShape, instanceCount: InstanceCountSchema.optional() })
  .strict();
export type ScaleInstanceGroupInput = z.output<typeof ScaleInstanceGroupInputSchema>;

/** The settings an update changes: only the fields that really differ from the group's state. */
const GroupSettingsChangesSchema = z
  .object({
    minInstanceCount: InstanceCountSchema.optional(),
    labels: LabelsSchema.optional(),
    taints: TaintsSchema.optional(),
    deepHealthChecks: DeepHealthChecksSchema.optional(),
    lifecycleConfig: LifecycleConfigSchema.optional(),
    scheduledUpdate: ScheduledUpdateSchema.nullable().optional(),
    autoPatch: AutoPatchSchema.nullable().optional(),
  })
  .strict();

/** update-instance-group: the changed settings, maybe with a new count. */
export const UpdateInstanceGroupInputSchema = z
  .object({ ...GroupRefShape, changes: GroupSettingsChangesSchema, instanceCount: InstanceCountSchema.optional() })
  .strict();
export type UpdateInstanceGroupInput = z.output<typeof UpdateInstanceGroupInputSchema>;

/** delete-instance-group. */
export const DeleteInstanceGroupInputSchema = z.object(GroupRefShape).strict();
export type DeleteInstanceGroupInput = z.output<typeof DeleteInstanceGroupInputSchema>;

export const InstanceGroupViewSchema = z
  .object({
    name: z.string().describe('Instance group name.'),
    instanceType: z.string().describe('SageMaker instance type, e.g. ml.p5.48xlarge.'),
    status: z.string().describe('HyperPod instance group status (InService, Creating, Updating, Deleting, Failed, …).'),
    currentCount: z.number().int().describe('Instances the group has now.'),
    targetCount: z.number().int().describe('Instances HyperPod works towards.'),
    minCount: z.number().int().optional().describe('Fewest instances for the group to count as created.'),
    capacityType: CapacityTypeSchema,
    trainingPlanArn: z
      .string()
      .optional()
      .describe('Training plan the capacity comes from (capacityType training-plan).'),
    networkInterface: z.enum(['efa', 'efa-only']).optional().describe('EFA mode; absent for ENA only.'),
    threadsPerCore: z.number().int().optional().describe('Threads per core (1 = no hyper-threading).'),
    deepHealthChecks: z.boolean().describe('Whether new nodes run deep health checks before they take work.'),
    subnetIds: z.array(z.string()).describe("The group's subnets (its OverrideVpcConfig, else the cluster's)."),
    labels: z.record(z.string(), z.string()).describe("Kubernetes labels HyperPod keeps on the group's nodes."),
    taints: z
      .array(z.object({ key: z.string(), value: z.string().optional(), effect: z.string() }))
      .describe("Kubernetes taints HyperPod keeps on the group's nodes."),
    lifecycleConfig: z
      .object({ sourceS3Uri: z.string(), onCreate: z.string(), onInitComplete: z.string().optional() })
      .optional()
      .describe("The group's lifecycle scripts."),
    scheduledUpdate: ScheduledUpdateSchema.optional().describe(
      'When HyperPod may roll AMI updates over the group; absent when no schedule is set.',
    ),
    autoPatch: AutoPatchSchema.optional().describe('Automatic security patching when nodes are idle; absent when off.'),
    activeOperation: z
      .object({ id: z.string(), kind: z.string(), status: z.string() })
      .optional()
      .describe('The operation now working on this group, if any.'),
    shortfall: GroupShortfallSchema.optional().describe(
      "Present when the group has fewer instances than its target: the unlaunched slots and why (AWS's words).",
    ),
  })
  .describe('An instance group as HyperPod describes it.');
export type InstanceGroupView = z.infer<typeof InstanceGroupViewSchema>;
