import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from './common.js';
import { InstanceGroupNameSchema } from './instance-groups.js';

/** HyperpodNodeClass accepts at most ten instance groups (its CRD's maxItems). */
export const AUTOSCALING_MAX_GROUPS = 10;

/** Shown wherever autoscaling is offered: what HyperPod-managed Karpenter does and does not scale. */
export const AUTOSCALING_SCOPE =
  'Managed autoscaling scales HyperPod instance groups only (HyperPod-managed Karpenter adds and removes their nodes through BatchAddClusterNodes and BatchDeleteClusterNodes). ' +
  'It does not scale EKS managed node groups, self-managed nodes or other EC2 capacity, and it leaves out groups on training plans and groups that run deep health checks.';

export const SetAutoscalingRequestSchema = z
  .object({
    region: RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region."),
    enabled: z.boolean('must be true or false').describe('Managed node autoscaling on or off. Karpenter, run by AWS.'),
    instanceGroups: z
      .array(InstanceGroupNameSchema)
      .min(1, 'must name at least one instance group')
      .max(AUTOSCALING_MAX_GROUPS, `must name at most ${AUTOSCALING_MAX_GROUPS} instance groups`)
      .refine((names) => new Set(names).size === names.length, 'must not name a group twice')
      .optional()
      .describe(
        `Groups Karpenter may scale (enabled: true). 1–${AUTOSCALING_MAX_GROUPS} groups; they may start at 0 nodes.`,
      ),
  })
  .strict()
  .superRefine((req, ctx) => {
    if (req.enabled && !req.instanceGroups)
      ctx.addIssue({
        code: 'custom',
        path: ['instanceGroups'],
        message: 'is required when enabled is true: name the instance groups Karpenter may scale',
      });
    if (!req.enabled && req.instanceGroups)
      ctx.addIssue({
        code: 'custom',
        path: ['instanceGroups'],
        message: 'only goes with enabled: true (turning autoscaling off covers every group)',
      });
  })
  .describe(
    `Managed node autoscaling: HyperPod-managed Karpenter launches nodes from HyperPod instance groups (they can scale from zero). ${AUTOSCALING_SCOPE}`,
  );
export type SetAutoscalingRequest = z.output<typeof SetAutoscalingRequestSchema>;

/** The set-autoscaling operation's input: the request with its cluster and Region resolved. */
export const SetAutoscalingInputSchema = SetAutoscalingRequestSchema.safeExtend({
  cluster: ClusterRefSchema,
  region: RegionSchema,
});
export type SetAutoscalingInput = z.output<typeof SetAutoscalingInputSchema>;

const ConditionSchema = z.object({ ready: z.boolean(), reason: z.string().optional(), message: z.string().optional() });

export const AutoscalingViewSchema = z
  .object({
    cluster: z.string(),
    region: z.string(),
    mode: z
      .enum(['Enable', 'Disable'])
      .describe('HyperPod AutoScaling Mode (Disable when the cluster has never had autoscaling).'),
    status: z.string().optional().describe('HyperPod AutoScaling Status (InService, Creating, Updating, Failed, …).'),
    failureMessage: z.string().optional().describe('Why HyperPod could not run the autoscaler, when it says.'),
    autoScalerType: z.string().optional().describe('Karpenter.'),
    clusterRoleArn: z.string().optional().describe('The role HyperPod assumes to add and remove nodes (ClusterRole).'),
    continuous: z
      .boolean()
      .describe('Whether the cluster provisions nodes continuously, which managed autoscaling requires.'),
    instanceGroups: z
      .array(z.string())
      .describe('Instance groups Karpenter may scale (from the InstantStart HyperpodNodeClass).'),
    nodeClass: ConditionSchema.optional().describe(
      'Readiness of the HyperpodNodeClass (absent until autoscaling was first enabled).',
    ),
    nodePool: ConditionSchema.extend({ nodes: z.number().int().optional() })
      .optional()
      .describe('Readiness of the NodePool and the nodes it has launched.'),
    scope: z.string().describe('What managed autoscaling covers and what it does not.'),
    activeOperation: z
      .object({ id: z.string(), kind: z.string(), status: z.string() })
      .optional()
      .describe('The set-autoscaling operation now running, if any.'),
  })
  .describe(
    "HyperPod-managed node autoscaling of a cluster, as HyperPod and the cluster's Karpenter objects report it.",
  );
export type AutoscalingView = z.infer<typeof AutoscalingViewSchema>;
