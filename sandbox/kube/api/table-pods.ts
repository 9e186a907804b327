import type { KubeObject } from '../types.js';
import { humanDuration } from './durations.js';

/**
 * The pod row of `kubectl get pods`, worked out as kube-apiserver's pod printer does: READY counts
 * ready containers (restartable init containers included), STATUS is the most telling container
 * state (`ContainerCreating`, `CrashLoopBackOff`, `Completed`, `Init:0/1`, `Terminating`, …),
 * RESTARTS adds "(5m ago)" after the last restart.
 */
type Any = Record<string, any>;

export interface PodRow {
  ready: string;
  status: string;
  restarts: string;
  readinessGates: string;
}

const latest = (a: number | undefined, b: string | undefined) => {
  const t = b ? Date.parse(b) : NaN;
  return Number.isNaN(t) ? a : a === undefined || t > a ? t : a;
};

export function podRow(pod: KubeObject, now: number): PodRow {
  const spec = (pod.spec ?? {}) as Any;
  const st = (pod.status ?? {}) as Any;
  const conditions = (st.conditions ?? []) as Any[];
  const initSpecs = (spec.initContainers ?? []) as Any[];
  const restartable = new Set(initSpecs.filter((c) => c.restartPolicy === 'Always').map((c) => c.name as string));
  const total = ((spec.containers ?? []) as Any[]).length + restartable.size;
  let ready = 0;
  let restarts = 0;
  let lastRestart: number | undefined;
  let reason: string = st.reason || st.phase || '';
  if (conditions.some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';

  let initializing = false;
  const initStatuses = (st.initContainerStatuses ?? []) as Any[];
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i]!;
    restarts += c.restartCount ?? 0;
    if (c.lastState?.terminated) lastRestart = latest(lastRestart, c.lastState.terminated.finishedAt);
    const term = c.state?.terminated;
    const waiting = c.state?.waiting;
    if (term && term.exitCode === 0) continue;
    if (restartable.has(c.name) && c.started) {
      if (c.ready) ready++;
      continue;
    }
    if (term)
      reason = term.reason
        ? `Init:${term.reason}`
        : term.signal
          ? `Init:Signal:${term.signal}`
          : `Init:ExitCode:${term.exitCode}`;
    else if (waiting?.reason && waiting.reason !== 'PodInitializing') reason = `Init:${waiting.reason}`;
    else reason = `Init:${i}/${initSpecs.length}`;
    initializing = true;
    break;
  }

  if (!initializing || conditions.some((c) => c.type === 'Initialized' && c.status === 'True')) {
    let hasRunning = false;
    let errorReason = '';
    for (const c of [...((st.containerStatuses ?? []) as Any[])].reverse()) {
      restarts += c.restartCount ?? 0;
      if (c.lastState?.terminated) lastRestart = latest(lastRestart, c.lastState.terminated.finishedAt);
      const waiting = c.state?.waiting;
      const term = c.state?.terminated;
      if (waiting?.reason) reason = waiting.reason;
      else if (term) {
        reason = term.reason || (term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode}`);
        if (term.exitCode) errorReason = reason;
      } else if (c.ready && c.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed') {
      if (hasRunning)
        reason = conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
      else if (errorReason) reason = errorReason;
    }
  }

  if (pod.metadata.deletionTimestamp && st.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && st.phase !== 'Failed' && st.phase !== 'Succeeded') reason = 'Terminating';

  const gates = (spec.readinessGates ?? []) as Any[];
  const gatesTrue = gates.filter((g) =>
    conditions.some((c) => c.type === g.conditionType && c.status === 'True'),
  ).length;
  return {
    ready: `${ready}/${total}`,
    status: reason,
    restarts:
      restarts !== 0 && lastRestart !== undefined
        ? `${restarts} (${humanDuration(now - lastRestart)} ago)`
        : String(restarts),
    readinessGates: gates.length ? `${gatesTrue}/${gates.length}` : '<none>',
  };
}
