import { z } from 'zod';
import {
  BATCH_DELETE_LIMIT,
  BATCH_REBOOT_LIMIT,
  BATCH_REPLACE_LIMIT,
  DEEP_HEALTH_CHECK_INSTANCE_LIMIT,
  type NodeAction,
} from '../instance-groups.js';
import { GroupShortfallSchema } from '../cluster-health.js';
import { NodeHealthSchema, NodeHealthStateSchema } from '../node-health-terms.js';
import { AvailabilityZoneSchema, ClusterRefSchema, PageLimitSchema, PageTokenSchema, RegionSchema } from './common.js';
import { InstanceGroupNameSchema } from './instance-groups.js';

/**
 * Nodes of a HyperPod cluster: SageMaker's node joined with its Kubernetes Node, judged once by
 * `nodeHealth`, and the actions of the escalation (reboot, replace, delete) with their guards.
 */

/**
 * AWS's ClusterNodeId (the SageMaker API model): `i-` and 8 or 17 lower-case hex digits, nothing in
 * between — `i-0123456789` (10 digits) is no id AWS gives out, so it is refused here, not by AWS.
 */
export const NODE_ID_PATTERN = /^i-[a-f0-9]{8}(?:[a-f0-9]{9})?$/;

export const NodeIdSchema = z
  .string()
  .regex(
    NODE_ID_PATTERN,
    'must be an EC2 instance id: i- and 8 or 17 hex digits, such as i-0123456789abcdef0 (the instanceId list_nodes shows)',
  )
  .describe('EC2 instance id of a HyperPod node, e.g. i-0123456789abcdef0.');

/** Why `id` is not a node id (NodeIdSchema's own message), or undefined when it is one. */
export function nodeIdProblem(id: string): string | undefined {
  const r = NodeIdSchema.safeParse(id);
  return r.success ? undefined : r.error.issues[0]!.message;
}

/** The most nodes one request may name: a page of list_nodes. The server batches them to AWS's limits. */
export const MAX_NODES_PER_REQUEST = 500;

export const ListNodesQuerySchema = z
  .object({
    region: RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region."),
    group: InstanceGroupNameSchema.optional().describe('Only nodes of this instance group.'),
    health: NodeHealthStateSchema.optional().describe('Only nodes in this health state.'),
    availabilityZone: AvailabilityZoneSchema.optional().describe('Only nodes in this Availability Zone.'),
    limit: PageLimitSchema,
    nextToken: PageTokenSchema,
  })
  .strict()
  .describe('Filter and page the nodes of a cluster.');
export type ListNodesQuery = z.output<typeof ListNodesQuerySchema>;

export const NodeViewSchema = z
  .object({
    instanceId: z.string().describe('EC2 instance id; the id node actions take.'),
    nodeLogicalId: z
      .string()
      .optional()
      .describe("HyperPod's id for the node slot; stays while the instance is replaced."),
    nodeName: z
      .string()
      .optional()
      .describe('Kubernetes Node name (hyperpod-i-…); absent until the instance joins Kubernetes.'),
    instanceGroupName: z.string().describe('Instance group the node belongs to.'),
    instanceType: z.string().describe('SageMaker instance type, e.g. ml.p5.48xlarge.'),
    availabilityZone: z.string().optional().describe('Availability Zone of the instance.'),
    privateIp: z.string().optional().describe('Primary private IPv4 address.'),
    launchTime: z.string().optional().describe('ISO-8601 time the instance launched.'),
    capacityType: z
      .enum(['on-demand', 'spot'])
      .optional()
      .describe('How the instance is paid for (DescribeClusterNode CapacityType).'),
    instanceStatus: z
      .object({
        status: z
          .string()
          .describe(
            'SageMaker ClusterInstanceStatus: Running, Pending, Failure, ShuttingDown, SystemUpdating, DeepHealthCheckInProgress or NotFound.',
          ),
        message: z.string().optional().describe("SageMaker's message, if any."),
      })
      .describe('What SageMaker says of the instance.'),
    labels: z
      .object({
        healthStatus: z
          .string()
          .optional()
          .describe(
            'sagemaker.amazonaws.com/node-health-status: Schedulable, Unschedulable, UnschedulablePendingReboot or UnschedulablePendingReplacement.',
          ),
        deepHealthCheckStatus: z
          .string()
          .optional()
          .describe('sagemaker.amazonaws.com/deep-health-check-status: InProgress, Passed or Failed.'),
        faultType: z
          .string()
          .optional()
          .describe('sagemaker.amazonaws.com/fault-type, set by the health-monitoring agent.'),
        faultReason: z
          .string()
          .optional()
          .describe('sagemaker.amazonaws.com/fault-reason, set by the health-monitoring agent.'),
      })
      .describe("HyperPod's health labels on the Kubernetes Node, as they are."),
    kubernetes: z
      .object({
        ready: z
          .enum(['True', 'False', 'Unknown'])
          .optional()
          .describe("The Node's Ready condition; absent before the kubelet first reports."),
        unschedulable: z.boolean().describe('Whether the Node is cordoned.'),
        taints: z
          .array(z.object({ key: z.string(), value: z.string().optional(), effect: z.string() }))
          .describe("The Node's taints."),
      })
      .optional()
      .describe("The Kubernetes Node's state; absent while the instance is not in Kubernetes."),
    health: NodeHealthSchema,
    allocatable: z
      .object({
        gpus: z.number().int().describe('NVIDIA GPUs pods can request (nvidia.com/gpu).'),
        neuronDevices: z.number().int().describe('AWS Neuron devices pods can request (aws.amazon.com/neurondevice).'),
        efa: z.number().int().describe('EFA interfaces pods can request (vpc.amazonaws.com/efa).'),
      })
      .describe('Accelerators and EFA interfaces the Node offers to pods (0 when not in Kubernetes).'),
    podCount: z.number().int().describe('Pods bound to the node that are not finished.'),
  })
  .describe("One HyperPod node: SageMaker's view joined with its Kubernetes Node, with one health verdict.");
export type NodeView = z.infer<typeof NodeViewSchema>;

/** Kubernetes extended-resource quantities are whole numbers; anything else counts as none. */
const count = (q: string | undefined) => (q !== undefined && /^\d+$/.test(q) ? Number(q) : 0);

/**
 * The accelerator part of a Node's `status.allocatable`.
 *
 * @example
 * allocatableAccelerators({ 'nvidia.com/gpu': '8', 'vpc.amazonaws.com/efa': '32', cpu: '192' });
 * // { gpus: 8, neuronDevices: 0, efa: 32 }
 */
export function allocatableAccelerators(allocatable: Record<string, string> | undefined): NodeView['allocatable'] {
  return {
    gpus: count(allocatable?.['nvidia.com/gpu']),
    neuronDevices: count(allocatable?.['aws.amazon.com/neurondevice']),
    efa: count(allocatable?.['vpc.amazonaws.com/efa']),
  };
}

const CONFIRM_WHY: Record<Exclude<NodeAction, 'reboot'>, string> = {
  replace:
    'replacing terminates the instance and destroys its root and secondary volumes (local data is lost); a new instance takes its place',
  delete: 'deleting terminates the instances and removes them from their group, which shrinks by as many',
};

const upperFirst = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;

const PER_CALL: Record<NodeAction, number> = {
  reboot: BATCH_REBOOT_LIMIT,
  replace: BATCH_REPLACE_LIMIT,
  delete: BATCH_DELETE_LIMIT,
};

/**
 * The node ids of a batch. Like AWS's Batch* APIs, one bad id does not fail the batch: an entry
 * that is not a node id (NodeIdSchema) is refused for that node alone (InvalidNodeId in the
 * operation's per-node results) and the valid ones go ahead. What fails the whole request is what
 * no node can fix: no entry, too many, a repeated id, an entry longer than AWS's 256 characters,
 * or not one valid id among them.
 */
const NodeIdsSchema = z
  .array(z.string().min(1, 'must not be empty').max(256, "must be at most 256 characters (AWS's ClusterNodeId)"))
  .min(1, 'must name at least one node')
  .max(MAX_NODES_PER_REQUEST, `must name at most ${MAX_NODES_PER_REQUEST} nodes`)
  .superRefine((ids, ctx) => {
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i], message: `names ${id} twice` });
      seen.add(id);
    });
    if (ids.length > 0 && ids.every((id) => nodeIdProblem(id) !== undefined)) {
      ctx.addIssue({ code: 'custom', message: `names no node: every entry ${nodeIdProblem(ids[0]!)}` });
    }
  });

const REGION = RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region.");

/**
 * The request of one node action. Replace and delete need `confirm: true` because they lose data
 * or capacity; reboot, the first step after investigating, has no confirm field at all.
 *
 * @example
 * nodeActionRequestSchema('replace').parse({ nodeIds: ['i-0123456789abcdef0'], confirm: true });
 */
export function nodeActionRequestSchema(action: NodeAction) {
  const nodeIds = NodeIdsSchema.describe(
    `Instance ids of the nodes to ${action} (from list_nodes). An entry that is not a node id is refused for that node alone (its per-node result says why); the others go ahead. The server sends them to AWS ${PER_CALL[action]} at a time.`,
  );
  const description = `${action[0]!.toUpperCase()}${action.slice(1)} nodes. Escalate in order: investigate, then reboot, then replace${action === 'delete' ? '; delete only to give capacity back' : ''}.`;
  if (action === 'reboot') return z.object({ region: REGION, nodeIds }).strict().describe(description);
  const why = CONFIRM_WHY[action];
  return z
    .object({
      region: REGION,
      nodeIds,
      confirm: z.literal(true, `must be true: ${why}`).describe(`true, after the user's yes. ${upperFirst(why)}.`),
    })
    .strict()
    .describe(description);
}

export const RebootNodesRequestSchema = nodeActionRequestSchema('reboot');
export const ReplaceNodesRequestSchema = nodeActionRequestSchema('replace');
export const DeleteNodesRequestSchema = nodeActionRequestSchema('delete');
export type NodeActionRequest = z.output<typeof RebootNodesRequestSchema>;

export const DeepHealthCheckSchema = z
  .enum(['InstanceStress', 'InstanceConnectivity'])
  .describe(
    'InstanceStress: GPU/Neuron stress, DCGM diagnostics, EFA loopback on each instance; InstanceConnectivity: NCCL/NCCOM tests across instances.',
  );

export const StartDeepHealthCheckRequestSchema = z
  .object({
    region: REGION,
    instanceGroupName: InstanceGroupNameSchema.describe('Instance group whose nodes are checked.'),
    nodeIds: NodeIdsSchema.max(
      DEEP_HEALTH_CHECK_INSTANCE_LIMIT,
      `must name at most ${DEEP_HEALTH_CHECK_INSTANCE_LIMIT} nodes (StartClusterHealthCheck's limit)`,
    )
      .optional()
      .describe(
        'Only these nodes of the group; left out, every node of the group. An entry that is not a node id is refused for that node alone.',
      ),
    checks: z
      .array(DeepHealthCheckSchema)
      .min(1, 'must name at least one check')
      .max(2)
      .refine((c) => new Set(c).size === c.length, 'must not repeat a check')
      .default(['InstanceStress', 'InstanceConnectivity'])
      .describe('Which deep health checks to run; both by default.'),
  })
  .strict()
  .describe(
    'Run deep health checks on demand. The checked nodes take no new work until the checks end; the operation ends when every checked node passed or failed.',
  );
export type StartDeepHealthCheckRequest = z.output<typeof StartDeepHealthCheckRequestSchema>;

// ── responses ────────────────────────────────────────────────────────────────────────────────────

export const NodeHealthCountsSchema = z
  .object({
    healthy: z.number().int(),
    degraded: z.number().int(),
    failed: z.number().int(),
    transitional: z.number().int(),
  })
  .describe(
    'How many nodes of the cluster (after the group and zone filters, before the health filter) are in each health state.',
  );

export const NodeListSchema = z
  .object({
    cluster: z.string(),
    region: z.string(),
    nodes: z.array(NodeViewSchema).describe('This page of nodes, ordered by instance group, then instance id.'),
    total: z.number().int().describe('Nodes matching every filter, over all pages.'),
    counts: NodeHealthCountsSchema,
    shortfalls: z
      .array(GroupShortfallSchema)
      .describe(
        "Instance groups (of the group filter) short of their target count: the slots HyperPod has not launched an instance for, and why in AWS's words. Such slots are not in `nodes` (they have no instance id).",
      ),
    nextToken: z.string().optional().describe('Pass as nextToken for the next page; absent on the last page.'),
  })
  .describe("One page of a cluster's nodes.");
export type NodeList = z.infer<typeof NodeListSchema>;

export const ClusterEventSchema = z
  .object({
    time: z.string().describe('ISO-8601 time of the event.'),
    source: z
      .enum(['hyperpod', 'kubernetes'])
      .describe("hyperpod: ListClusterEvents; kubernetes: an Event about one of the cluster's nodes."),
    level: z.enum(['info', 'warning', 'error']).describe('Severity.'),
    kind: z
      .string()
      .describe('HyperPod ResourceType (Cluster, InstanceGroup, Instance) or the Kubernetes event reason.'),
    instanceGroupName: z.string().optional().describe('Instance group the event is about, when known.'),
    instanceId: z.string().optional().describe('Node (EC2 instance id) the event is about, when known.'),
    message: z.string().describe('What happened.'),
    count: z.number().int().optional().describe('Kubernetes: how many times the event repeated.'),
  })
  .describe('One event of the cluster timeline.');
export type ClusterEvent = z.infer<typeof ClusterEventSchema>;

export const ListClusterEventsQuerySchema = z
  .object({
    region: RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region."),
    group: InstanceGroupNameSchema.optional().describe('Only events of this instance group.'),
    nodeId: NodeIdSchema.optional().describe('Only events of this node.'),
    limit: z.coerce.number().int().min(1).max(200).default(50).describe('Most events to return (1–200), newest first.'),
  })
  .strict()
  .describe(
    "The newest events of a cluster: HyperPod's (ListClusterEvents) and Kubernetes' for its nodes, merged newest first.",
  );
export type ListClusterEventsQuery = z.output<typeof ListClusterEventsQuerySchema>;

export const ClusterEventsSchema = z
  .object({
    cluster: z.string(),
    region: z.string(),
    events: z.array(ClusterEventSchema).describe('Newest first.'),
    notes: z
      .array(z.string())
      .describe('What could not be read (e.g. HyperPod lists events only for Continuous-provisioning clusters).'),
  })
  .describe("The cluster's event timeline.");

export const NodeDetailSchema = z
  .object({
    cluster: z.string(),
    region: z.string(),
    node: NodeViewSchema,
    conditions: z
      .array(
        z.object({
          type: z.string(),
          status: z.string(),
          reason: z.string().optional(),
          message: z.string().optional(),
          lastTransitionTime: z.string().optional(),
        }),
      )
      .describe("The Kubernetes Node's conditions (empty when not in Kubernetes)."),
    labels: z.record(z.string(), z.string()).describe('Every label of the Kubernetes Node.'),
    pods: z
      .array(z.object({ namespace: z.string(), name: z.string(), phase: z.string() }))
      .describe('Unfinished pods bound to the node.'),
    events: z.array(ClusterEventSchema).describe("The node's recent events, HyperPod's and Kubernetes', newest first."),
  })
  .describe('Everything about one node.');
export type NodeDetail = z.infer<typeof NodeDetailSchema>;

// ── node-action operations ───────────────────────────────────────────────────────────────────────

/** The operation kinds of node actions, one per action: each is listed, filtered and locked on its own. */
export const NODE_ACTION_KINDS = {
  reboot: 'reboot-nodes',
  replace: 'replace-nodes',
  delete: 'delete-nodes',
  'deep-health-check': 'deep-health-check',
} as const;
export type NodeActionName = keyof typeof NODE_ACTION_KINDS;

const NodesRefShape = {
  cluster: ClusterRefSchema,
  region: RegionSchema,
  nodeIds: z
    .array(z.string().min(1).max(256))
    .min(1)
    .max(MAX_NODES_PER_REQUEST)
    .describe('The ids as asked, in order; those that are not node ids are refused per node.'),
};

/** reboot-nodes, replace-nodes, delete-nodes: the nodes as asked, with the cluster and Region resolved. */
export const NodeActionInputSchema = z.object(NodesRefShape).strict();
export type NodeActionInput = z.output<typeof NodeActionInputSchema>;

/** deep-health-check: the group, its nodes (the service names them all when the request named none) and the checks. */
export const DeepHealthCheckInputSchema = z
  .object({
    ...NodesRefShape,
    instanceGroupName: InstanceGroupNameSchema,
    checks: z.array(DeepHealthCheckSchema).min(1).max(2),
  })
  .strict();
export type DeepHealthCheckInput = z.output<typeof DeepHealthCheckInputSchema>;

export const NodeOutcomeSchema = z
  .object({
    nodeId: z.string().describe('The id as asked.'),
    outcome: z
      .enum(['succeeded', 'failed'])
      .describe(
        'succeeded: the node reached the end of the action (rebooted and Running, replaced and Running, gone, checks passed); failed: refused or ended badly.',
      ),
    code: z
      .string()
      .optional()
      .describe(
        "Why it failed: AWS's per-node error code (e.g. InstanceIdNotFound), InvalidNodeId, or the node's end state (e.g. Failure).",
      ),
    message: z.string().optional().describe('Why it failed, in words.'),
    newInstanceId: z.string().optional().describe('replace: the instance id of the replacement (same logical node).'),
  })
  .describe("One node's result of a node action.");
export type NodeOutcome = z.infer<typeof NodeOutcomeSchema>;

export const NodeActionResultSchema = z
  .object({
    cluster: z.string(),
    region: z.string(),
    action: z.enum(['reboot', 'replace', 'delete', 'deep-health-check']),
    results: z.array(NodeOutcomeSchema).describe('One entry per node asked for, in the order asked.'),
    succeeded: z.number().int(),
    failed: z.number().int(),
  })
  .describe(
    'The result of a node-action operation: it ends when every node reached a terminal state for the action; one result per node.',
  );
export type NodeActionResult = z.infer<typeof NodeActionResultSchema>;
