import type { ToolContext } from './tool-kit.js';

/**
 * How a wait tool waits for something the REST API has no long-poll for (a training job, an MLflow
 * tracking server): it reads the thing's REST GET, and again after a growing pause, until `settled`
 * says so or `timeoutSeconds` pass. Each read sends a progress notification (where the thing stands,
 * how long it has waited), which also keeps clients that reset their timeout on progress from giving up.
 * The MCP server only reads REST, as every tool does; the thing goes on server-side between calls.
 */
export interface PollSpec<T> {
  /** One REST read. */
  read(signal: AbortSignal): Promise<T>;
  /** True when the wait is over (the target reached, or a state from which it never will be). */
  settled(value: T): boolean;
  /** Where it stands, for the progress notification (`job default/llama is Pending`). */
  describe(value: T): string;
  timeoutSeconds: number;
  /** Pause before the second read; each pause after grows by half, up to `maxPauseMs`. */
  firstPauseMs: number;
  maxPauseMs: number;
}

export interface PollResult<T> {
  value: T;
  settled: boolean;
  waitedSeconds: number;
}

/** Reads until settled or out of time; the last read is the answer. A cancelled call stops at once. */
export async function pollUntil<T>(ctx: ToolContext, spec: PollSpec<T>): Promise<PollResult<T>> {
  const started = Date.now();
  const deadline = started + spec.timeoutSeconds * 1000;
  let pause = spec.firstPauseMs;
  for (;;) {
    const value = await spec.read(ctx.signal);
    const settled = spec.settled(value);
    const waited = (Date.now() - started) / 1000;
    if (settled || Date.now() >= deadline) return { value, settled, waitedSeconds: Math.round(waited) };
    await ctx.progress(
      Math.round(waited),
      spec.timeoutSeconds,
      `${spec.describe(value)} (waited ${Math.round(waited)} s of up to ${spec.timeoutSeconds} s)`,
    );
    // The last pause ends at the deadline, so the final read comes when the caller's time is up, not after.
    await sleep(Math.min(pause, Math.max(0, deadline - Date.now())), ctx.signal);
    pause = Math.min(spec.maxPauseMs, Math.round(pause * 1.5));
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
