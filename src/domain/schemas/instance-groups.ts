import { z } from 'zod';
import { AvailabilityZoneSchema, CapacityTypeSchema, InstanceTypeSchema, RegionSchema, TrainingPlanArnSchema } from './common.js';

/**
 * Instance groups: what a user decides when adding one (zone, type, capacity type, count, network
 * interface mode) and the few things they may change later. Everything else is fixed for the
 * group's lifetime — HyperPod's rules, enforced here before AWS is called.
 */
export const InstanceGroupNameSchema = z
  .string()
  .regex(/^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/, 'must be 1–63 letters, digits and hyphens, starting and ending with a letter or digit')
  .describe('Instance group name, unique in the cluster (fixed for the group\'s lifetime).');

const LabelKey = z.string().regex(/^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/, 'must be a Kubernetes label key');
const LabelValue = z.string().regex(/^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/, 'must be a Kubernetes label value (≤ 63 characters)');

export const TaintSchema = z
  .object({
    key: LabelKey,
    value: LabelValue.optional(),
    effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
  })
  .strict();

export const AddInstanceGroupRequestSchema = z
  .object({
    name: InstanceGroupNameSchema,
    region: RegionSchema.optional(),
    availabilityZone: AvailabilityZoneSchema.describe('Zone of the group; its /20 compute subnet is reused or created there.'),
    instanceType: InstanceTypeSchema,
    instanceCount: z.number().int().min(0, 'must be at least 0').max(1000).describe('Number of instances (0 for a group that managed autoscaling grows from zero).'),
    minInstanceCount: z.number().int().min(0).max(1000).optional().describe('Fewest instances HyperPod must get for the group to count as created.'),
    capacityType: CapacityTypeSchema.default('on-demand'),
    trainingPlanArn: TrainingPlanArnSchema.optional(),
    networkInterface: z
      .enum(['efa', 'efa-only'])
      .optional()
      .describe('EFA network interfaces (EFA-capable types only): "efa" adds EFA to the ENA interface, "efa-only" uses EFA-only interfaces. Fixed for the group\'s lifetime.'),
    deepHealthChecks: z.boolean().default(false).describe('Run deep health checks (GPU stress, EFA connectivity) on new nodes before they take work.'),
    threadsPerCore: z.union([z.literal(1), z.literal(2)]).optional().describe('1 disables hyper-threading. Fixed for the group\'s lifetime.'),
    labels: z.record(LabelKey, LabelValue).optional().describe('Kubernetes labels for the group\'s nodes.'),
    taints: z.array(TaintSchema).max(50).optional().describe('Kubernetes taints for the group\'s nodes.'),
  })
  .strict()
  .superRefine((req, ctx) => {
    if (req.capacityType === 'training-plan' && !req.trainingPlanArn) ctx.addIssue({ code: 'custom', path: ['trainingPlanArn'], message: 'is required when capacityType is training-plan' });
    if (req.capacityType !== 'training-plan' && req.trainingPlanArn) ctx.addIssue({ code: 'custom', path: ['trainingPlanArn'], message: 'is only allowed when capacityType is training-plan' });
    if (req.minInstanceCount !== undefined && req.minInstanceCount > req.instanceCount) ctx.addIssue({ code: 'custom', path: ['minInstanceCount'], message: 'must not exceed instanceCount' });
    if (req.region && !req.availabilityZone.startsWith(req.region)) ctx.addIssue({ code: 'custom', path: ['availabilityZone'], message: `is not in region ${req.region}` });
  })
  .describe('Add an instance group to a cluster: capacity type, network interface mode and subnet placement are fixed in this one create.');
export type AddInstanceGroupRequest = z.output<typeof AddInstanceGroupRequestSchema>;

/** Fields fixed for a group's lifetime, and why — the message a refused change carries. */
export const IMMUTABLE_GROUP_FIELDS: Record<string, string> = {
  name: 'the group name identifies it for its lifetime; add a new group instead',
  instanceType: 'HyperPod cannot change a group\'s instance type; add a group with the new type and scale this one down',
  capacityType: 'the capacity type (on-demand, spot, training plan) is fixed when the group is created',
  trainingPlanArn: 'the training plan is part of the capacity type, fixed when the group is created',
  networkInterface: 'the EFA / EFA-only network interface mode is fixed when the group is created',
  availabilityZone: 'the group\'s subnet placement (its zone) is fixed when the group is created',
  threadsPerCore: 'threads per core are fixed when the group is created',
  executionRole: 'the execution role is fixed when the group is created',
  overrideVpcConfig: 'the VPC override is fixed when the group is created',
};

export const UpdateInstanceGroupRequestSchema = z
  .object({
    region: RegionSchema.optional(),
    instanceCount: z.number().int().min(0, 'must be at least 0').max(1000).optional().describe('New number of instances. Send only the fields you change.'),
  })
  .catchall(z.unknown())
  .superRefine((req, ctx) => {
    for (const key of Object.keys(req)) {
      if (key === 'region' || key === 'instanceCount') continue;
      const why = IMMUTABLE_GROUP_FIELDS[key];
      ctx.addIssue({ code: 'custom', path: [key], message: why ? `cannot change: ${why}` : 'is not a field of an instance group update' });
    }
    if (req.instanceCount === undefined && Object.keys(req).every((k) => k === 'region')) {
      ctx.addIssue({ code: 'custom', path: ['instanceCount'], message: 'is required: there is nothing else to change yet' });
    }
  })
  .describe('Change a group. Only the count can change here; fixed fields are refused, naming the field and why.');
export type UpdateInstanceGroupRequest = z.output<typeof UpdateInstanceGroupRequestSchema>;

export const InstanceGroupViewSchema = z.object({
  name: z.string(),
  instanceType: z.string(),
  status: z.string().describe('HyperPod instance group status (InService, Creating, Updating, Deleting, Failed, …).'),
  currentCount: z.number().int(),
  targetCount: z.number().int(),
  minCount: z.number().int().optional(),
  capacityType: CapacityTypeSchema,
  trainingPlanArn: z.string().optional(),
  networkInterface: z.enum(['efa', 'efa-only']).optional(),
  threadsPerCore: z.number().int().optional(),
  deepHealthChecks: z.boolean(),
  subnetIds: z.array(z.string()).describe('The group\'s subnets (its OverrideVpcConfig, else the cluster\'s).'),
  labels: z.record(z.string(), z.string()),
  taints: z.array(z.object({ key: z.string(), value: z.string().optional(), effect: z.string() })),
  activeOperation: z.object({ id: z.string(), kind: z.string(), status: z.string() }).optional(),
});
export type InstanceGroupView = z.infer<typeof InstanceGroupViewSchema>;
