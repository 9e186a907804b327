import type { Any } from './util.js';

/**
 * The training operator's recovery budget, as `runPolicy` sets it:
 * - `jobMaxRetryCount`: every restart, process-level or full, counts against it (status.restartCount);
 *   unset, it is unlimited when a `restartPolicy` is given and 0 otherwise — a job without a
 *   runPolicy fails on its first fault;
 * - `restartPolicy.numRestartBeforeFullJobRestart`: process-level restarts (PLR) in the current
 *   window since the last full job restart before the next fault restarts the whole job (JLR);
 * - `restartPolicy.maxFullJobRestarts`: full job restarts allowed per window;
 * - `restartPolicy.evalPeriodSeconds`: the window (status.restartStatus.currentEvalPeriod counts
 *   them from the job's start); a new window starts both per-window counts afresh.
 * A fault that needs new pods (a node fault, a failed pod) is always a full job restart.
 */

export interface RecoveryBudget {
  jobMaxRetryCount: number;
  numRestartBeforeFullJobRestart?: number;
  maxFullJobRestarts?: number;
  evalPeriodSeconds?: number;
}

export type Decision =
  | { action: 'PLR' | 'JLR'; message: string }
  | {
      action: 'fail';
      reason: 'JobMaxRetryCountExceeded' | 'MaxFullJobRestartsExceeded';
      restartType: 'PLR' | 'JLR';
      message: string;
    };

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;

export function budgetOf(spec: Any): RecoveryBudget {
  const run = (spec?.runPolicy ?? {}) as Any;
  const restart = run.restartPolicy as Any | undefined;
  const budget: RecoveryBudget = { jobMaxRetryCount: count(run.jobMaxRetryCount) ?? (restart ? Infinity : 0) };
  if (restart) {
    const before = count(restart.numRestartBeforeFullJobRestart);
    const full = count(restart.maxFullJobRestarts);
    const period = count(restart.evalPeriodSeconds);
    if (before !== undefined) budget.numRestartBeforeFullJobRestart = before;
    if (full !== undefined) budget.maxFullJobRestarts = full;
    if (period !== undefined && period > 0) budget.evalPeriodSeconds = period;
  }
  return budget;
}

export interface RestartStatus {
  currentEvalPeriod: number;
  fullJobRestartCount: number;
  restartCount: number;
}

/** The restart counts of the window `now` falls in (a new window starts them at 0). */
export function restartStatusAt(
  previous: Any | undefined,
  budget: RecoveryBudget,
  startMs: number,
  now: number,
): RestartStatus {
  const period = budget.evalPeriodSeconds
    ? Math.max(0, Math.floor((now - startMs) / (budget.evalPeriodSeconds * 1000)))
    : 0;
  if (!previous || Number(previous.currentEvalPeriod ?? 0) !== period)
    return { currentEvalPeriod: period, fullJobRestartCount: 0, restartCount: 0 };
  return {
    currentEvalPeriod: period,
    fullJobRestartCount: Number(previous.fullJobRestartCount ?? 0),
    restartCount: Number(previous.restartCount ?? 0),
  };
}

const limit = (n: number) => (Number.isFinite(n) ? String(n) : 'unlimited');

/** What one more fault leads to, given the restarts already used. */
export function decide(
  budget: RecoveryBudget,
  used: { total: number; window: RestartStatus },
  needsNewPods: boolean,
): Decision {
  const wantsFull =
    needsNewPods ||
    (budget.numRestartBeforeFullJobRestart !== undefined &&
      used.window.restartCount >= budget.numRestartBeforeFullJobRestart);
  const restartType = wantsFull ? 'JLR' : 'PLR';
  if (used.total >= budget.jobMaxRetryCount) {
    const message =
      budget.jobMaxRetryCount === 0
        ? 'no restarts allowed: runPolicy.jobMaxRetryCount is 0 or not set (and no restartPolicy)'
        : `the retry budget is spent: ${used.total} restarts used of runPolicy.jobMaxRetryCount ${limit(budget.jobMaxRetryCount)}`;
    return { action: 'fail', reason: 'JobMaxRetryCountExceeded', restartType, message };
  }
  if (
    wantsFull &&
    budget.maxFullJobRestarts !== undefined &&
    used.window.fullJobRestartCount >= budget.maxFullJobRestarts
  ) {
    const window = budget.evalPeriodSeconds
      ? ` in eval period ${used.window.currentEvalPeriod} (evalPeriodSeconds ${budget.evalPeriodSeconds})`
      : '';
    return {
      action: 'fail',
      reason: 'MaxFullJobRestartsExceeded',
      restartType,
      message: `the full job restart budget is spent: ${used.window.fullJobRestartCount} full job restarts used of restartPolicy.maxFullJobRestarts ${budget.maxFullJobRestarts}${window}`,
    };
  }
  const total = `restart ${used.total + 1} of jobMaxRetryCount ${limit(budget.jobMaxRetryCount)}`;
  if (wantsFull) {
    const why = needsNewPods
      ? 'the faulty pods need replacing'
      : `${used.window.restartCount} process-level restarts reached numRestartBeforeFullJobRestart ${budget.numRestartBeforeFullJobRestart}`;
    return {
      action: 'JLR',
      message: `full job restart ${used.window.fullJobRestartCount + 1}${budget.maxFullJobRestarts !== undefined ? ` of maxFullJobRestarts ${budget.maxFullJobRestarts}` : ''} (${why}); ${total}`,
    };
  }
  return {
    action: 'PLR',
    message: `process-level restart ${used.window.restartCount + 1}${budget.numRestartBeforeFullJobRestart !== undefined ? ` of ${budget.numRestartBeforeFullJobRestart} before a full job restart` : ''}; ${total}`,
  };
}

/** The counts after a restart of this type. */
export function counted(
  used: { total: number; window: RestartStatus },
  action: 'PLR' | 'JLR',
): { total: number; window: RestartStatus } {
  const window =
    action === 'JLR'
      ? { ...used.window, fullJobRestartCount: used.window.fullJobRestartCount + 1, restartCount: 0 }
      : { ...used.window, restartCount: used.window.restartCount + 1 };
  return { total: used.total + 1, window };
}
