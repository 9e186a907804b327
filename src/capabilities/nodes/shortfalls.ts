import type { CloudPort, HyperPodCluster, HyperPodNode } from '../../cloud/ports.js';
import { mapLimited } from '../../cloud/aws/catalog/paginate.js';
import { groupShortfall, type GroupFacts, type GroupShortfall } from '../../domain/cluster-health.js';

/** Events read per short group: the newest group-level one decides; a few more cover Instance-level noise. */
const EVENTS_PER_GROUP = 10;
/** ListClusterEvents calls at once when several groups are short. */
const EVENT_READS_AT_ONCE = 4;

const iso = (t: unknown): string =>
  t instanceof Date ? t.toISOString() : typeof t === 'string' ? t : new Date(0).toISOString();

/**
 * The groups of a cluster short of their target count, from what the node snapshot already read
 * (DescribeCluster's groups, ListClusterNodes with the slots that have no instance yet) plus, only
 * for a short group of a Continuous-provisioning cluster, its newest events (one ListClusterEvents
 * call each): HyperPod records a warning there for every launch round that found no capacity.
 */
export async function readShortfalls(
  cloud: CloudPort,
  region: string,
  cluster: string,
  hp: HyperPodCluster,
  summaries: readonly HyperPodNode[],
): Promise<GroupShortfall[]> {
  const facts: GroupFacts[] = (hp.InstanceGroups ?? []).map((g) => {
    const mine = summaries.filter((s) => s.InstanceGroupName === g.InstanceGroupName);
    return {
      name: g.InstanceGroupName ?? 'unknown',
      instanceType: g.InstanceType ?? 'unknown',
      targetCount: g.TargetCount ?? 0,
      ...(g.Status ? { status: g.Status } : {}),
      launched: mine.filter((s) => s.InstanceId).length,
      unlaunched: mine
        .filter((s) => !s.InstanceId)
        .map((s) => ({
          nodeLogicalId: s.NodeLogicalId ?? 'unknown',
          status: s.InstanceStatus?.Status ?? 'Pending',
          ...(s.InstanceStatus?.Message ? { message: s.InstanceStatus.Message } : {}),
        })),
    };
  });
  const short = facts.filter((f) => f.targetCount > f.launched);
  if (short.length > 0 && hp.NodeProvisioningMode === 'Continuous') {
    await mapLimited(short, EVENT_READS_AT_ONCE, async (f) => {
      try {
        const { events } = await cloud.hyperpodNodes.events(region, cluster, {
          groupName: f.name,
          maxResults: EVENTS_PER_GROUP,
        });
        f.events = events.map((e) => ({
          time: iso(e.EventTime),
          level: e.EventLevel ?? 'Info',
          ...(e.ResourceType ? { resourceType: e.ResourceType } : {}),
          description: e.Description ?? '',
        }));
      } catch {
        // Without events the slots' own status messages still say why; the verdict is then "launching".
      }
    });
  }
  return short.map((f) => groupShortfall(f, hp.FailureMessage)).filter((s): s is GroupShortfall => s !== undefined);
}
