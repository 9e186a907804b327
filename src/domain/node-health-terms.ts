import { z } from 'zod';

// What a node's health is said in (node-health.ts judges it): the labels HyperPod's agents write on a
// Kubernetes Node, SageMaker's instance statuses, the escalation order, the verdict's schema (REST, MCP and
// the UI show it) and the facts a verdict is made from. A file of its own because the node schemas, the
// node capability and the feature reconciler use these words without judging anything.

export const NODE_HEALTH_LABEL = 'sagemaker.amazonaws.com/node-health-status';
export const DEEP_HEALTH_CHECK_LABEL = 'sagemaker.amazonaws.com/deep-health-check-status';
export const FAULT_TYPE_LABEL = 'sagemaker.amazonaws.com/fault-type';
export const FAULT_REASON_LABEL = 'sagemaker.amazonaws.com/fault-reason';
export const INSTANCE_GROUP_LABEL = 'sagemaker.amazonaws.com/instance-group-name';
/**
 * Every HyperPod node carries `sagemaker.amazonaws.com/compute-type: hyperpod` — lower case. AWS's
 * docs do not print the value; the code bases written against real clusters that select on it all
 * use `hyperpod` (shared/reference/real-account-facts.md, fact 2).
 */
export const COMPUTE_TYPE_LABEL = 'sagemaker.amazonaws.com/compute-type';
export const HYPERPOD_COMPUTE_TYPE = 'hyperpod';
/** The EC2 type (`ml.p5.48xlarge`) the kubelet labels every node with. */
export const INSTANCE_TYPE_LABEL = 'node.kubernetes.io/instance-type';

/** Values HyperPod writes to `node-health-status`; others may appear later and are reported as unknown. */
export const NODE_HEALTH_STATUSES = [
  'Schedulable',
  'Unschedulable',
  'UnschedulablePendingReboot',
  'UnschedulablePendingReplacement',
] as const;

/** SageMaker's `ClusterInstanceStatus` (ListClusterNodes / DescribeClusterNode). */
export const CLUSTER_INSTANCE_STATUSES = [
  'Running',
  'Failure',
  'Pending',
  'ShuttingDown',
  'SystemUpdating',
  'DeepHealthCheckInProgress',
  'NotFound',
] as const;

/** The escalation order of SPEC "Node health": never reboot before looking, never replace before rebooting. */
export const ESCALATION_ORDER = ['investigate', 'reboot', 'replace'] as const;

/**
 * The step after `action` in the escalation order, or undefined after replace (nothing is left).
 *
 * @example
 * nextEscalation('investigate'); // 'reboot'
 */
export function nextEscalation(action: 'investigate' | 'reboot' | 'replace'): 'reboot' | 'replace' | undefined {
  const i = ESCALATION_ORDER.indexOf(action);
  return ESCALATION_ORDER[i + 1] as 'reboot' | 'replace' | undefined;
}

export const NodeHealthStateSchema = z
  .enum(['healthy', 'degraded', 'failed', 'transitional'])
  .describe(
    'healthy: takes work; transitional: changing on its own (launching, checks, reboot, replacement, shutdown); degraded: works but something needs a look; failed: cannot take work until someone (or HyperPod) acts.',
  );
export type NodeHealthState = z.infer<typeof NodeHealthStateSchema>;

export const SuggestedActionSchema = z
  .enum(['investigate', 'reboot', 'replace', 'none'])
  .describe(
    'Next step of the escalation investigate → reboot → replace; none when nothing is needed or HyperPod already acts.',
  );
export type SuggestedAction = z.infer<typeof SuggestedActionSchema>;

export const NodeHealthSchema = z
  .object({
    state: NodeHealthStateSchema,
    code: z
      .string()
      .describe(
        'Stable machine-readable cause, e.g. pending-reboot, not-ready, deep-health-check-failed; filter or branch on this, not on the sentence.',
      ),
    reason: z.string().describe('One sentence saying what is going on, for a person.'),
    suggestedAction: SuggestedActionSchema,
  })
  .describe("The node's health verdict from its SageMaker instance status and its Kubernetes labels and conditions.");
export type NodeHealth = z.infer<typeof NodeHealthSchema>;

export type Timestamp = Date | string | number;

/** What SageMaker says of the node (ClusterNodeSummary / DescribeClusterNode fields). */
export interface SageMakerNodeFacts {
  instanceId: string;
  instanceGroupName?: string;
  instanceType?: string;
  launchTime?: Timestamp;
  instanceStatus: { status: string; message?: string };
}

export interface NodeCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: Timestamp;
}

/** What Kubernetes says of the node (the Node object's labels, spec and status). */
export interface KubeNodeFacts {
  name: string;
  labels?: Record<string, string>;
  unschedulable?: boolean;
  taints?: ReadonlyArray<{ key: string; value?: string; effect: string }>;
  conditions?: readonly NodeCondition[];
}

export interface NodeHealthInput {
  /** Absent for a Node that HyperPod does not list (a stale object, or not a HyperPod node). */
  sagemaker?: SageMakerNodeFacts;
  /** Absent while the instance has not joined Kubernetes (or after it left). */
  kube?: KubeNodeFacts;
  /** The cluster's NodeRecovery: with Automatic HyperPod reboots/replaces labelled nodes itself. */
  nodeRecovery?: 'Automatic' | 'None';
  /** SageMaker was not asked (a Kubernetes-only view): its absence then says nothing about the instance. */
  kubernetesOnly?: boolean;
  now: Timestamp;
}
