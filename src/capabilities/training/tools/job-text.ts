import type { Budget, TrainingJobView } from '../../../domain/schemas/training.js';

/**
 * How the training tools word a job: phase (and why), the recovery budget — restarts used of
 * allowed, process-level vs full-job, the last fault — the ranks, and the next step. One wording
 * for list_jobs, get_job and submit_training_job.
 */

const budget = (b: Budget | undefined) => (b ? `${b.used}/${b.allowed ?? '∞'}` : undefined);

export function recoveryText(job: TrainingJobView): string {
  const r = job.recovery;
  const parts = [
    budget(r.processRestarts) ? `restarts ${budget(r.processRestarts)}` : undefined,
    budget(r.fullJobRestarts) ? `full-job restarts ${budget(r.fullJobRestarts)}` : undefined,
    r.window
      ? `process restarts in window ${r.window.restarts}${r.window.beforeFullJobRestart !== undefined ? `/${r.window.beforeFullJobRestart} before a full-job restart` : ''}`
      : undefined,
    budget(r.jobRetries) ? `job retries ${budget(r.jobRetries)}` : undefined,
  ].filter(Boolean);
  const fault = r.lastFault
    ? `; last fault: ${r.lastFault.level === 'process' ? 'process-level restart' : r.lastFault.level === 'job' ? 'full-job restart' : 'restart'} (${r.lastFault.restartType})${r.lastFault.ranks.length ? ` of rank ${r.lastFault.ranks.join(', ')}` : ''}${r.lastFault.instances.length ? ` on ${r.lastFault.instances.join(', ')}` : ''}`
    : '';
  return `Recovery budget: ${parts.length ? parts.join(', ') : 'nothing spent'}${r.exhausted ? ' — EXHAUSTED: the next fault fails the job' : ''}${fault}`;
}

/** One line per job for lists. */
export function jobLine(job: TrainingJobView): string {
  const r = job.recovery.processRestarts ?? job.recovery.jobRetries;
  return `- ${job.namespace}/${job.name} (${job.kind}${job.recipe ? `, ${job.recipe}` : ''}, ${job.nodes} node${job.nodes === 1 ? '' : 's'}${job.instanceGroup ? ` on ${job.instanceGroup}` : ''}): ${job.phase}${job.reason ? ` (${job.reason})` : ''}${r ? `, restarts ${budget(r)}` : ''}`;
}

function nextStep(job: TrainingJobView): string {
  switch (job.phase) {
    case 'Pending':
    case 'Restarting':
      return 'Next: wait_for_job until it is Running (or ends), then get_job_logs.';
    case 'Running':
      return `Next: follow it with get_job (ranks, recovery) and get_job_logs; metrics with get_job_metrics${job.mlflow ? '' : ' (needs mlflow on the submit)'}; wait_for_job with until ["Succeeded", "Failed"] waits for the end.`;
    case 'Hanging':
    case 'Slow':
      return "Next: read the ranks' last lines with get_job_logs; the operator restarts the job within its recovery budget.";
    case 'Failed':
      return "Next: read why in the reason and events, and the failing rank's logs with get_job_logs (previous: true for a crashed container); fix, then submit again under a new name.";
    case 'Succeeded':
      return `Next: the results are under ${job.paths.outputs}${job.mlflow ? '; the metrics with get_job_metrics' : ''}.`;
    default:
      return 'Next: get_job to follow it.';
  }
}

/** The whole story of one job. */
export function jobText(job: TrainingJobView): string {
  const lines = [
    `${job.kind} ${job.namespace}/${job.name}${job.recipe ? ` (recipe ${job.recipe})` : ''}: ${job.phase}${job.reason ? ` — ${job.reason}` : ''}${job.message ? `: ${job.message}` : ''}`,
    `Health: ${job.health.state} (${job.health.code}) — ${job.health.reason}`,
    recoveryText(job),
  ];
  if (job.pending) lines.push(`Waiting for nodes: ${job.pending}`);
  if (job.instanceGroup || job.storage)
    lines.push(
      `Placement: ${job.nodes} node(s)${job.instanceGroup ? ` on group ${job.instanceGroup}` : ''}${job.storage ? `, storage ${job.storage} at /data` : ''}; checkpoints ${job.paths.checkpoints}, outputs ${job.paths.outputs}`,
    );
  if (job.mlflow)
    lines.push(
      `MLflow: run ${job.mlflow.runName} in experiment ${job.mlflow.experimentName} on ${job.mlflow.trackingServerArn}`,
    );
  for (const r of job.ranks)
    lines.push(
      `- rank ${r.rank}${r.role === 'submitter' ? " (submitter: the driver's output)" : ''} ${r.pod}: ${r.phase}${r.node ? ` on ${r.node}` : ''}${r.instanceId ? ` (${r.instanceId})` : ''}, ${r.restarts} container restart(s), ${r.health.state}${r.health.state === 'healthy' ? '' : ` — ${r.health.reason}`}`,
    );
  for (const e of (job.events ?? []).slice(0, 5))
    lines.push(`  event ${e.type} ${e.reason} on ${e.object}: ${e.message}`);
  lines.push(nextStep(job));
  return lines.join('\n');
}
