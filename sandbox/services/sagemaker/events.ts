import { uuid } from '../../core/ids.js';
import type { EventLevel, EventResourceType, StoredCluster } from './state.js';

/** Events a cluster keeps: enough for a long demo, bounded so the state file stays small. */
const MAX_EVENTS_PER_CLUSTER = 5_000;

/**
 * Records a cluster event (ListClusterEvents / DescribeClusterEvent). Every cluster records them;
 * only Continuous-mode clusters let callers list them, as on AWS.
 */
export function recordEvent(
  cluster: StoredCluster,
  at: number,
  level: EventLevel,
  resourceType: EventResourceType,
  description: string,
  scope: { instanceGroupName?: string; instanceId?: string } = {},
): void {
  cluster.events.push({
    eventId: uuid(),
    time: at,
    resourceType,
    level,
    description,
    ...(scope.instanceGroupName ? { instanceGroupName: scope.instanceGroupName } : {}),
    ...(scope.instanceId ? { instanceId: scope.instanceId } : {}),
  });
  if (cluster.events.length > MAX_EVENTS_PER_CLUSTER)
    cluster.events.splice(0, cluster.events.length - MAX_EVENTS_PER_CLUSTER);
}
