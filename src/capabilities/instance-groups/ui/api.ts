import { keys, usePollInterval } from '@kit/api/queries.js';
import { rest } from '@kit/api/rest.js';
import type { Accepted, AddInstanceGroupInput, InstanceGroupView, ScalePreflightResult } from '@kit/api/types.js';
import type { InstanceGroupPlan } from '@domain/schemas/plans.js';
import { useQuery } from '@tanstack/react-query';
import { GROUP_PATHS } from '../paths.js';

/** The instance-groups capability's REST calls and queries (its paths are the capability's paths.ts). */

// Under 'clusters' (keys.clusters): every operation change refreshes them.
export const groupKeys = {
  list: (cluster: string, region?: string) => [...keys.clusters, 'instance-groups', cluster, region ?? ''] as const,
};

/** What adding the group makes and adds per hour (reads only). */
export const planInstanceGroup = (cluster: string, body: AddInstanceGroupInput) =>
  rest(GROUP_PATHS.plan, { name: cluster }).post<InstanceGroupPlan>({ body });
export const listInstanceGroups = (cluster: string, region?: string) =>
  rest(GROUP_PATHS.list, { name: cluster })
    .get<{ instanceGroups: InstanceGroupView[] }>({ region })
    .then((r) => r.instanceGroups);
export const addInstanceGroup = (cluster: string, body: AddInstanceGroupInput, idempotencyKey: string) =>
  rest(GROUP_PATHS.list, { name: cluster }).post<Accepted>({ body, idempotencyKey });
/**
 * Sends only the count: the diff contract (never unchanged fields). `confirm` is the user's yes to a shrink (a lower
 * count terminates nodes; the API refuses it without).
 */
export const scaleInstanceGroup = (
  cluster: string,
  group: string,
  instanceCount: number,
  region?: string,
  confirm = false,
) =>
  rest(GROUP_PATHS.one, { name: cluster, group }).patch<Accepted>({
    body: { instanceCount, ...(region ? { region } : {}), ...(confirm ? { confirm: true } : {}) },
  });
/** Labels, taints, lifecycle scripts, AMI updates, patching: only the fields that change (PATCH, the diff contract). */
export const updateInstanceGroup = (cluster: string, group: string, body: Record<string, unknown>) =>
  rest(GROUP_PATHS.one, { name: cluster, group }).patch<Accepted>({ body });
/** The create's checks for what a new count adds (read-only; PATCH runs the same one). */
export const checkScaleInstanceGroup = (cluster: string, group: string, instanceCount: number, region?: string) =>
  rest(GROUP_PATHS.scalePreflight, { name: cluster, group }).post<ScalePreflightResult>({
    body: { instanceCount, ...(region ? { region } : {}) },
  });
export const deleteInstanceGroup = (cluster: string, group: string, region?: string) =>
  rest(GROUP_PATHS.one, { name: cluster, group }).delete<Accepted>({ query: { confirm: 'true', region } });

export function useInstanceGroups(cluster: string, region?: string) {
  const poll = usePollInterval();
  return useQuery({
    queryKey: groupKeys.list(cluster, region),
    queryFn: () => listInstanceGroups(cluster, region),
    // A panel that does not apply (the capacity retry panel on another kind of operation) passes no cluster: ask nothing.
    enabled: cluster !== '',
    refetchInterval: poll || 30_000,
  });
}
