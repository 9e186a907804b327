import type { CloudPort } from '../cloud/ports.js';
import { CloudError } from '../domain/errors.js';

/**
 * With Continuous provisioning HyperPod never gives up on capacity: the cluster stays InService and
 * retries with growing pauses, saying so only in ListClusterEvents. An operation waiting for nodes
 * reads those events so its progress says why nodes are missing, and after this many failed launch
 * rounds it fails with the reason and what to do, instead of waiting forever.
 */
export const CAPACITY_ROUNDS_BEFORE_FAILING = 3;

const CAPACITY_TROUBLE = /could not launch|insufficient capacity|sufficient capacity/i;

/**
 * The time of the cluster's newest event, in the cloud's own clock (the sandbox's runs fast): the
 * mark after which an operation counts capacity trouble as its own. 0 when there are none.
 */
export async function eventMark(cloud: CloudPort, region: string, cluster: string): Promise<number> {
  try {
    const { events } = await cloud.hyperpodNodes.events(region, cluster, { maxResults: 1 });
    return events[0]?.EventTime?.getTime() ?? 0;
  } catch {
    return 0;
  }
}

/** The capacity warnings about `group` after `sinceMs` (newest first), as one line, or undefined. */
export async function capacityTrouble(
  cloud: CloudPort,
  region: string,
  cluster: string,
  group: string,
  sinceMs: number,
): Promise<{ rounds: number; latest: string } | undefined> {
  let events;
  try {
    ({ events } = await cloud.hyperpodNodes.events(region, cluster, { groupName: group, maxResults: 50 }));
  } catch {
    return undefined; // clusters without Continuous provisioning have no event list: nothing to add
  }
  const trouble = events.filter(
    (e) =>
      (e.EventTime?.getTime() ?? 0) > sinceMs &&
      (e.EventLevel === 'Warn' || e.EventLevel === 'Error') &&
      CAPACITY_TROUBLE.test(e.Description ?? ''),
  );
  return trouble.length ? { rounds: trouble.length, latest: trouble[0]!.Description ?? '' } : undefined;
}

/**
 * Fails with InsufficientCapacity once HyperPod has tried often enough; otherwise returns a progress
 * suffix naming the wait (empty when all is well). `giveUp` undoes what the operation asked for (so
 * nothing is left half-made) and returns what the user can do next; without it the advice is to
 * scale down, move, or retry the phase.
 */
export async function checkCapacity(
  cloud: CloudPort,
  region: string,
  cluster: string,
  group: string,
  sinceMs: number,
  operation: string,
  giveUp?: () => Promise<string>,
): Promise<string> {
  const trouble = await capacityTrouble(cloud, region, cluster, group, sinceMs);
  if (!trouble) return '';
  if (trouble.rounds >= CAPACITY_ROUNDS_BEFORE_FAILING) {
    const advice = giveUp
      ? await giveUp()
      : 'HyperPod keeps retrying in the background: scale the group down (or delete it) to stop, or add a group in another Availability Zone, with another instance type or on a training plan; retry this phase to keep waiting.';
    throw new CloudError({
      service: 'sagemaker',
      operation,
      code: 'InsufficientCapacity',
      message: `${trouble.latest} After ${trouble.rounds} attempts the nodes of '${group}' are still missing. ${advice}`,
    });
  }
  return ` — waiting for capacity: ${trouble.latest}`;
}
