import type { KubeCluster } from '../cluster.js';
import { badRequest } from '../errors.js';
import type { KubeObject } from '../types.js';
import { programOf } from './log-programs.js';
import { nodeNameOf, T, type Any } from './util.js';

export interface LogOptions {
  container?: string;
  tailLines?: number;
  sinceSeconds?: number;
  sinceTime?: string;
  limitBytes?: number;
  previous?: boolean;
  timestamps?: boolean;
  /**
   * The sandbox time the read stops at (default: now). A follow passes the same time to its first read
   * and to followLogs, so no line falls between the two (the clock runs fast: even microseconds count).
   */
  at?: number;
}

/**
 * Pod logs, computed from what each container runs (log-programs.ts) and when it ran, so nothing is
 * stored: the current run (or, for a container waiting in CrashLoopBackOff, the run that just
 * ended), or with `previous` the run before the last restart. The errors are the API server's and
 * the kubelet's own words.
 */

interface Run {
  container: Any;
  start: number;
  /** When the run ended; undefined while it runs. */
  end: number | undefined;
  /** Which run of the container (its restart count then). */
  index: number;
}

type Line = { at: number; text: string };

function containerOf(pod: KubeObject, options: LogOptions): { container: Any; status: Any | undefined } {
  const spec = (pod.spec ?? {}) as Any;
  const containers = (spec.containers ?? []) as Any[];
  const inits = (spec.initContainers ?? []) as Any[];
  const name = options.container ?? (containers.length === 1 ? containers[0].name : undefined);
  if (!name)
    throw badRequest(
      `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${containers.map((c) => c.name).join(' ')}]${inits.length ? ` or one of the init containers: [${inits.map((c) => c.name).join(' ')}]` : ''}`,
    );
  const container = containers.find((c) => c.name === name) ?? inits.find((c) => c.name === name);
  if (!container) throw badRequest(`container ${name} is not valid for pod ${pod.metadata.name}`);
  const st = (pod.status ?? {}) as Any;
  const status = [...((st.containerStatuses ?? []) as Any[]), ...((st.initContainerStatuses ?? []) as Any[])].find(
    (c) => c.name === name,
  );
  return { container, status };
}

/** The run logs are read from; undefined for a pod no node has taken yet (the API answers with nothing). */
function runOf(cluster: KubeCluster, pod: KubeObject, options: LogOptions): Run | undefined {
  const { container, status: found } = containerOf(pod, options);
  const status = (found ?? { restartCount: 0, state: {} }) as Any;
  if (!nodeNameOf(pod)) return undefined;
  const where = `container "${container.name}" in pod "${pod.metadata.name}"`;
  const last = status?.lastState?.terminated as Any | undefined;
  const ofTerminated = (t: Any, index: number): Run => ({
    container,
    start: Date.parse(t.startedAt),
    end: terminatedEnd(cluster, pod, container, index, t),
    index,
  });
  if (options.previous) {
    if (!last) throw badRequest(`previous terminated ${where} not found`);
    return ofTerminated(last, status.restartCount - 1);
  }
  const state = (status?.state ?? {}) as Any;
  if (state.running)
    return { container, start: Date.parse(state.running.startedAt), end: undefined, index: status.restartCount };
  if (state.terminated) return ofTerminated(state.terminated, status.restartCount);
  if (last) return ofTerminated(last, status.restartCount - 1);
  throw badRequest(`${where} is waiting to start: ${state.waiting?.reason ?? 'ContainerCreating'}`);
}

/**
 * When a terminated run really ended. Its finishedAt has whole seconds (metav1.Time, as the API sends it), its
 * program's exit has milliseconds: a run that ended by its program's exit (container-runs.ts) is read to that moment,
 * so the lines of its last second (a job's closing lines) are kept as the kubelet's log file keeps them; a run ended
 * otherwise (its pod deleted, its node rebooted) ends at its finishedAt.
 */
function terminatedEnd(cluster: KubeCluster, pod: KubeObject, container: Any, index: number, t: Any): number {
  const finished = Date.parse(t.finishedAt);
  const exitAfter = programOf(pod, container, index, cluster).exitAfterMs;
  const exact = exitAfter === undefined ? undefined : Date.parse(t.startedAt) + exitAfter;
  return exact !== undefined && exact >= finished && exact < finished + 1000 ? exact : finished;
}

/** RFC3339Nano with fixed nine digits, as the kubelet prefixes lines with `timestamps=true`. */
const stamp = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
const format = (lines: Line[], timestamps?: boolean) =>
  lines.map((l) => `${timestamps ? `${stamp(l.at)} ` : ''}${l.text}\n`).join('');

function linesOf(cluster: KubeCluster, pod: KubeObject, run: Run, from: number, until: number): Line[] {
  return programOf(pod, run.container, run.index, cluster).lines(run.start, from, Math.min(until, run.end ?? until));
}

/**
 * The last `count` lines in [from, until], computed over a look-back that widens until it holds them:
 * as the kubelet reads a log file from its end, a tail of a long run costs the tail, not the run.
 */
function tailOf(cluster: KubeCluster, pod: KubeObject, run: Run, from: number, until: number, count: number): Line[] {
  for (let window = 10_000; ; window *= 4) {
    const start = Math.max(from, until - window);
    const lines = linesOf(cluster, pod, run, start, until);
    if (lines.length >= count || start <= from) return lines;
  }
}

export function readLogs(cluster: KubeCluster, pod: KubeObject, options: LogOptions): string {
  const run = runOf(cluster, pod, options);
  if (!run) return '';
  const now = options.at ?? cluster.now();
  const since = options.sinceTime
    ? Date.parse(options.sinceTime)
    : options.sinceSeconds !== undefined
      ? now - options.sinceSeconds * 1000
      : run.start;
  const from = Math.max(run.start, since);
  let lines =
    options.tailLines !== undefined && options.tailLines >= 0
      ? tailOf(cluster, pod, run, from, now, options.tailLines)
      : linesOf(cluster, pod, run, from, now);
  if (options.tailLines !== undefined && options.tailLines >= 0)
    lines = lines.slice(Math.max(0, lines.length - options.tailLines));
  const text = format(lines, options.timestamps);
  if (options.limitBytes === undefined || options.limitBytes < 0) return text;
  return Buffer.from(text).subarray(0, options.limitBytes).toString('utf8');
}

/** Sandbox milliseconds of log one follow chunk covers at most. */
const FOLLOW_STEP_MS = 10_000;

/** Streams the lines produced after now as sandbox time passes; ends when the run ends, the container restarts or the pod goes. */
export function followLogs(
  cluster: KubeCluster,
  pod: KubeObject,
  options: LogOptions,
  onChunk: (text: string) => void,
  onEnd: () => void,
  ready: () => boolean = () => true,
): () => void {
  const run = runOf(cluster, pod, options);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  if (!run || run.end !== undefined) {
    // Nothing more will come: a finished run (or `previous`) ends the stream at once.
    queueMicrotask(() => !stopped && onEnd());
    return () => {
      stopped = true;
    };
  }
  let sentUntil = options.at ?? cluster.now();
  const poll = () => {
    if (stopped) return;
    // A reader that does not keep up is not sent more (the kubelet blocks on a full connection): the
    // lines wait in the "file" and go out once it has read what it has.
    if (!ready()) {
      timer = setTimeout(poll, 100);
      return;
    }
    const now = cluster.now();
    const current = cluster.objects.get(T.pods, pod.metadata.namespace, pod.metadata.name!);
    const status = [
      ...(((current?.status as Any)?.containerStatuses ?? []) as Any[]),
      ...(((current?.status as Any)?.initContainerStatuses ?? []) as Any[]),
    ].find((c) => c.name === run.container.name);
    const end = endOfRun(cluster, current, pod, run, status, sentUntil);
    const target = Math.min(now, end ?? now);
    // At most FOLLOW_STEP_MS of the log per chunk: after a pause, a fast writer's backlog goes out in pieces.
    const until = Math.min(target, sentUntil + FOLLOW_STEP_MS);
    const fresh = linesOf(cluster, pod, run, sentUntil + 1, until);
    if (fresh.length > 0) onChunk(format(fresh, options.timestamps));
    sentUntil = Math.max(sentUntil, until);
    if (until < target) {
      timer = setTimeout(poll, 0);
      return;
    }
    if (end !== undefined) {
      stopped = true;
      onEnd();
      return;
    }
    timer = setTimeout(poll, 100);
  };
  timer = setTimeout(poll, 100);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** When the followed run ended (undefined while it runs): its termination, or now-ish when the pod or container is gone. */
function endOfRun(
  cluster: KubeCluster,
  current: KubeObject | undefined,
  pod: KubeObject,
  run: Run,
  status: Any | undefined,
  sentUntil: number,
): number | undefined {
  if (!current || current.metadata.uid !== pod.metadata.uid || !status) return sentUntil;
  const ended = (t: Any) => terminatedEnd(cluster, pod, run.container, run.index, t);
  if (status.restartCount === run.index) {
    if (status.state?.running) return undefined;
    return status.state?.terminated ? ended(status.state.terminated) : sentUntil;
  }
  const last = status.lastState?.terminated;
  return status.restartCount === run.index + 1 && last ? ended(last) : sentUntil;
}
