import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import type { Budget, RecoveryBudget, TrainingJobView, TrainingPhase } from '@domain/schemas/training.js';
import { clusterPath } from '@kit/lib/format.js';

/** How a job's phase, health and recovery budget read everywhere in the training UI. */

const PHASE: Record<TrainingPhase, StatusIndicatorProps.Type> = {
  Pending: 'pending',
  Running: 'in-progress',
  Restarting: 'loading',
  Hanging: 'warning',
  Slow: 'warning',
  Suspended: 'stopped',
  Succeeded: 'success',
  Failed: 'error',
};

export function PhaseIndicator({ job }: { job: Pick<TrainingJobView, 'phase' | 'reason'> }) {
  return (
    <span data-testid="training-job-phase" data-phase={job.phase}>
      <StatusIndicator type={PHASE[job.phase] ?? 'info'}>
        {job.phase}
        {job.reason ? ` · ${job.reason}` : ''}
      </StatusIndicator>
    </span>
  );
}

const HEALTH: Record<string, StatusIndicatorProps.Type> = {
  healthy: 'success',
  transitional: 'in-progress',
  degraded: 'warning',
  failed: 'error',
};

export function HealthIndicator({ health }: { health: { state: string; reason: string } }) {
  return (
    <span title={health.reason}>
      <StatusIndicator type={HEALTH[health.state] ?? 'info'}>{health.state}</StatusIndicator>
    </span>
  );
}

const part = (b: Budget | undefined, noun: string) =>
  b ? `${b.used}${b.allowed !== undefined ? `/${b.allowed}` : ''} ${noun}` : undefined;

/** "3/10 restarts, 0/1 full-job" (HyperPodPyTorchJob) or "1/3 retries" (RayJob). */
export function budgetText(r: RecoveryBudget): string {
  return (
    [part(r.processRestarts, 'restarts'), part(r.fullJobRestarts, 'full-job'), part(r.jobRetries, 'retries')]
      .filter(Boolean)
      .join(', ') || '—'
  );
}

/** Seconds as "6 h", "10 min", "45 s". */
export function formatSeconds(s: number | undefined): string {
  if (s === undefined) return '—';
  if (s >= 3600 && s % 3600 === 0) return `${s / 3600} h`;
  if (s >= 60 && s % 60 === 0) return `${s / 60} min`;
  return `${s} s`;
}

/** A job's detail, on the cluster page's Jobs tab: /clusters/:name/jobs/<namespace>/<job>. */
export function jobPath(cluster: string, region: string | undefined, ref: { namespace: string; name: string }): string {
  return clusterPath(cluster, region, `jobs/${encodeURIComponent(ref.namespace)}/${encodeURIComponent(ref.name)}`);
}
