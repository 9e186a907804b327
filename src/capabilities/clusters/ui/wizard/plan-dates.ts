import type { TrainingPlanView } from '@domain/schemas/preflight.js';

/**
 * A training plan's reserved dates, "5/1/2026 – 5/8/2026". They are the cloud's (SageMaker's), so on the sandbox
 * (`sandboxTime`) they say "sandbox time" like every cloud time (web/kit/hooks/cloud-clock.ts); '' without a start.
 */
export function planDates(plan: Pick<TrainingPlanView, 'startTime' | 'endTime'>, sandboxTime: boolean): string {
  if (!plan.startTime) return '';
  const end = plan.endTime ? new Date(plan.endTime).toLocaleDateString() : '…';
  return `${new Date(plan.startTime).toLocaleDateString()} – ${end}${sandboxTime ? ' (sandbox time)' : ''}`;
}
