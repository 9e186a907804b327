import { z } from 'zod';
import type { NodeHealthState } from './node-health-terms.js';

/**
 * A cluster's health in one verdict, rolled up from what the node views already judge: each node's
 * health (node-health.ts) and each instance group's capacity — how many of its target instances
 * HyperPod has launched, the slots it has not, and why, in AWS's own words (the slot's
 * InstanceStatus message from ListClusterNodes, the group's newest warning in ListClusterEvents, or
 * the cluster's FailureMessage). Pure: the caller reads the cloud, this decides. Every face shows
 * this verdict (cluster header, overview and list, list_nodes, the instance-group view).
 */

/** Unlaunched slots shown per group: enough to see what is missing, bounded for a 5,000-node group. */
export const UNLAUNCHED_SLOTS_SHOWN = 20;

export const UnlaunchedSlotSchema = z
  .object({
    nodeLogicalId: z
      .string()
      .describe("HyperPod's id of the slot (ListClusterNodes with IncludeNodeLogicalIds); it has no instance yet."),
    status: z.string().describe('SageMaker ClusterInstanceStatus of the slot, e.g. Pending.'),
    message: z.string().optional().describe("SageMaker's InstanceStatus message, e.g. why the instance cannot launch."),
  })
  .describe('A slot of the group HyperPod has not launched an instance for (yet).');
export type UnlaunchedSlot = z.infer<typeof UnlaunchedSlotSchema>;

export const GroupShortfallSchema = z
  .object({
    instanceGroupName: z.string(),
    instanceType: z.string(),
    targetCount: z.number().int().describe('Instances HyperPod works towards (DescribeCluster TargetCount).'),
    launched: z
      .number()
      .int()
      .describe('Instances the group has (ListClusterNodes entries with an instance id, booting ones included).'),
    missing: z.number().int().describe('targetCount − launched: instances not launched.'),
    state: z
      .enum(['launching', 'waiting'])
      .describe(
        'launching: HyperPod is launching them (a scale-up or a replacement under way); waiting: HyperPod reports it cannot launch them now (e.g. InsufficientCapacity) and retries on its own.',
      ),
    reason: z
      .string()
      .optional()
      .describe(
        "Why, in AWS's words: the group's newest warning event (ListClusterEvents), else the slots' InstanceStatus message, else the cluster's FailureMessage. Absent when AWS gives none.",
      ),
    reasonSource: z
      .enum(['cluster-event', 'instance-status', 'cluster-failure'])
      .optional()
      .describe('Where the reason comes from.'),
    reasonTime: z.string().optional().describe('ISO-8601 time of the event the reason comes from.'),
    unlaunched: z
      .array(UnlaunchedSlotSchema)
      .describe(`The slots without an instance (at most ${UNLAUNCHED_SLOTS_SHOWN}).`),
  })
  .describe('An instance group short of its target count: how many instances are missing and why.');
export type GroupShortfall = z.infer<typeof GroupShortfallSchema>;

export const ClusterHealthSchema = z
  .object({
    state: z
      .enum(['healthy', 'degraded', 'failed', 'transitional'])
      .describe(
        'failed: a node cannot take work; degraded: a node needs a look, or a group is short of its target and HyperPod cannot launch the rest now; transitional: nodes or instances are changing on their own; healthy: every node takes work and every group has its target.',
      ),
    summary: z
      .string()
      .describe(
        'One sentence for a person, e.g. "1 node failed; group workers has 1 of 2 instances: insufficient capacity …".',
      ),
    nodes: z
      .object({
        total: z.number().int(),
        healthy: z.number().int(),
        degraded: z.number().int(),
        failed: z.number().int(),
        transitional: z.number().int(),
      })
      .describe('Nodes per health state.'),
    shortfalls: z.array(GroupShortfallSchema).describe('Groups short of their target count.'),
  })
  .describe("The cluster's health rolled up from its nodes and instance groups.");
export type ClusterHealth = z.infer<typeof ClusterHealthSchema>;

/** What HyperPod says of one group (DescribeCluster), its slots without an instance, and its newest events. */
export interface GroupFacts {
  name: string;
  instanceType: string;
  targetCount: number;
  /** DescribeCluster's group Status (InService, Failed, Degraded, …). */
  status?: string;
  /** ListClusterNodes entries of the group that have an instance id. */
  launched: number;
  unlaunched: UnlaunchedSlot[];
  /** The group's newest events, newest first (ListClusterEvents; empty when the cluster lists none). */
  events?: ReadonlyArray<{ time: string; level: string; resourceType?: string; description: string }>;
}

const TROUBLE_LEVELS = new Set(['Warn', 'Error']);
const TROUBLED_STATUS = new Set(['Failed', 'Degraded']);

/**
 * The group's shortfall, or undefined when it has its target. `waiting` when AWS reports trouble:
 * the group's newest group-level event is a warning or an error (HyperPod records one per failed
 * launch round), or its status is Failed/Degraded. Without such a report the missing instances are
 * being launched — a scale-up or a replacement under way.
 *
 * @example
 * groupShortfall({ name: 'workers', instanceType: 'ml.c5.xlarge', targetCount: 2, launched: 1,
 *   unlaunched: [{ nodeLogicalId: 'n-1', status: 'Pending', message: 'Waiting for capacity: …' }] });
 * // { missing: 1, state: 'launching', reason: 'Waiting for capacity: …', reasonSource: 'instance-status', … }
 */
export function groupShortfall(g: GroupFacts, clusterFailure?: string): GroupShortfall | undefined {
  const missing = g.targetCount - g.launched;
  if (missing <= 0) return undefined;
  const newestGroupEvent = g.events?.find((e) => e.resourceType === undefined || e.resourceType === 'InstanceGroup');
  const warning = newestGroupEvent && TROUBLE_LEVELS.has(newestGroupEvent.level) ? newestGroupEvent : undefined;
  const slotMessage = g.unlaunched.find((s) => s.message)?.message;
  const troubledStatus = g.status !== undefined && TROUBLED_STATUS.has(g.status);
  const reason = warning
    ? { reason: warning.description, reasonSource: 'cluster-event' as const, reasonTime: warning.time }
    : slotMessage
      ? { reason: slotMessage, reasonSource: 'instance-status' as const }
      : troubledStatus && clusterFailure
        ? { reason: clusterFailure, reasonSource: 'cluster-failure' as const }
        : {};
  return {
    instanceGroupName: g.name,
    instanceType: g.instanceType,
    targetCount: g.targetCount,
    launched: g.launched,
    missing,
    state: warning || troubledStatus ? 'waiting' : 'launching',
    ...reason,
    unlaunched: g.unlaunched.slice(0, UNLAUNCHED_SLOTS_SHOWN),
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The rolled-up verdict: failed nodes first, then degraded nodes and groups HyperPod cannot fill,
 * then anything still changing.
 *
 * @example
 * clusterHealth({ healthy: 1, degraded: 0, failed: 1, transitional: 0 }, []);
 * // { state: 'failed', summary: '1 node failed (1 of 2 nodes healthy).', … }
 */
export function clusterHealth(counts: Record<NodeHealthState, number>, shortfalls: GroupShortfall[]): ClusterHealth {
  const total = counts.healthy + counts.degraded + counts.failed + counts.transitional;
  const waiting = shortfalls.filter((s) => s.state === 'waiting');
  const launching = shortfalls.filter((s) => s.state === 'launching');
  const state: ClusterHealth['state'] =
    counts.failed > 0
      ? 'failed'
      : counts.degraded > 0 || waiting.length > 0
        ? 'degraded'
        : counts.transitional > 0 || launching.length > 0
          ? 'transitional'
          : 'healthy';
  const parts: string[] = [];
  if (counts.failed) parts.push(`${plural(counts.failed, 'node')} failed`);
  if (counts.degraded) parts.push(`${plural(counts.degraded, 'node')} degraded`);
  for (const s of waiting)
    parts.push(
      `group ${s.instanceGroupName} has ${s.launched} of ${s.targetCount} instances${s.reason ? `: ${s.reason}` : ''}`,
    );
  for (const s of launching) parts.push(`group ${s.instanceGroupName} is launching ${plural(s.missing, 'instance')}`);
  if (counts.transitional) parts.push(`${plural(counts.transitional, 'node')} changing`);
  const summary = parts.length
    ? `${capitalize(parts.join('; '))} (${counts.healthy} of ${plural(total, 'node')} healthy).`
    : total
      ? `${plural(total, 'node')} healthy.`
      : 'No nodes.';
  return { state, summary, nodes: { total, ...counts }, shortfalls };
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
