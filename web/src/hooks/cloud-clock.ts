import { useConfig } from '../api/queries.js';

/**
 * A sentence for views that show the cloud's own times (events, launch times), when that clock runs
 * faster than the wall clock (the sandbox at `--sandbox-speed` N): those times run ahead of yours, and
 * without saying so a user reads "in 50 minutes" as a bug. Empty on AWS.
 */
export function useCloudClockNote(): string {
  const speed = useConfig().data?.clockSpeed ?? 1;
  if (speed === 1) return '';
  return `Times come from the sandbox's clock, which runs ${Number.isInteger(speed) ? speed : speed.toFixed(1)}× faster than real time, so they run ahead of yours.`;
}
