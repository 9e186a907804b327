import { setTimeout as delay } from 'node:timers/promises';

/**
 * Waits `ms` unless `signal` aborts first (then rejects with the signal's reason), so a stopped or
 * cancelled operation never sits in a timer.
 */
export async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  try {
    await delay(ms, undefined, { signal });
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    throw err;
  }
}

/**
 * Settles with `work`, or rejects with the signal's reason as soon as it aborts. Workflow code
 * should honour `ctx.signal` itself; this makes the engine's own loop exit even when it does not.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined); // the abandoned call may still fail later; nobody is listening
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
