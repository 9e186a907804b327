import { keyed } from '../../../core/keyed.js';
import type { TickContext } from '../../../core/service.js';
import { peekPlanRegions, type PlanStatus, type StoredPlan } from './state.js';

/**
 * A plan's life on the sandbox clock: Pending while payment is processed (a couple of minutes),
 * Scheduled until its reserved capacity starts, Active until it ends, then Expired.
 */
export function statusAt(plan: StoredPlan, now: number): PlanStatus {
  if (plan.status === 'Failed') return 'Failed';
  if (now < plan.scheduledAt) return 'Pending';
  if (now < plan.startTime) return 'Scheduled';
  if (now < plan.endTime) return 'Active';
  return 'Expired';
}

/** Reserved capacities follow the same clock, each by its own window. */
export function capacityStatusAt(
  plan: StoredPlan,
  cap: { startTime: number; endTime: number },
  now: number,
): PlanStatus {
  const planStatus = statusAt(plan, now);
  if (planStatus === 'Pending' || planStatus === 'Failed') return planStatus;
  if (now < cap.startTime) return 'Scheduled';
  if (now < cap.endTime) return 'Active';
  return 'Expired';
}

export function trainingPlanTick(ctx: TickContext): boolean {
  let changed = false;
  for (const region of keyed.values(peekPlanRegions(ctx.state))) {
    for (const plan of keyed.values(region.plans)) {
      const next = statusAt(plan, ctx.now);
      if (next === plan.status) continue;
      plan.status = next;
      if (next === 'Expired') plan.inUse = 0;
      changed = true;
    }
  }
  return changed;
}
