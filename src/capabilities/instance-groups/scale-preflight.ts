import { InputError, PreconditionError } from '../../domain/errors.js';
import type { InstanceGroupView, ScalePreflightResult } from '../../domain/schemas/instance-groups.js';
import type { PreflightService } from '../catalog/index.js';

/** Groups HyperPod no longer counts against the quotas: they give their instances back. */
const RELEASED_STATUSES = new Set(['Failed', 'Deleting']);

const holds = (g: InstanceGroupView) => (RELEASED_STATUSES.has(g.status) ? 0 : g.targetCount);

/**
 * The create wizard's checks for a scale: growing a group from its target to `instanceCount` must fit the
 * type's quota, the account's total, the per-cluster limit (counting what the cluster's other groups hold)
 * and the group's training plan. Shrinking or keeping the count adds nothing, so it passes without asking
 * AWS. One rule for every face: PATCH refuses with it, the UI's scale dialog shows it before submit.
 *
 * @example
 * const r = await checkScale(preflight, 'us-west-2', groups, 'workers', 12);
 * if (!r.ok) console.log(r.problems.map((p) => p.message));
 */
export async function checkScale(
  preflight: PreflightService,
  region: string,
  groups: InstanceGroupView[],
  name: string,
  instanceCount: number,
): Promise<ScalePreflightResult> {
  const group = groups.find((g) => g.name === name);
  if (!group) throw InputError.field('group', `has no instance group '${name}' in this cluster`);
  const targetCount = holds(group);
  const adds = Math.max(0, instanceCount - targetCount);
  const base = { targetCount: group.targetCount, instanceCount, adds };
  if (adds === 0) return { ok: true, quotas: [], problems: [], ...base };
  const result = await preflight.checkClusterGrowth({
    region,
    instanceType: group.instanceType,
    instanceCount: adds,
    capacityType: group.capacityType,
    ...(group.trainingPlanArn ? { trainingPlanArn: group.trainingPlanArn } : {}),
    clusterInUse: groups.reduce((sum, g) => sum + holds(g), 0),
  });
  return { ...result, ...base };
}

/** A failed scale preflight as the 422 every face shows: sentences, each problem on its field with its fix. */
export function scaleRefusal(name: string, result: ScalePreflightResult): PreconditionError {
  return new PreconditionError({
    message: `Instance group ${name} cannot grow from ${result.targetCount} to ${result.instanceCount} instances: ${result.problems.map((p) => p.message).join(' ')}`,
    problems: result.problems.map((p) => ({ path: p.field, message: `${p.message}${p.remedy ? ` ${p.remedy}` : ''}` })),
    remedy:
      result.problems
        .map((p) => p.remedy)
        .filter(Boolean)
        .join(' ') || undefined,
  });
}
