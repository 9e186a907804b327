/**
 * The cadence knobs of every wait and retry (floor, ceiling, time scale) and the delays of retries after
 * errors. Apart from the schedule of an await (poll-schedule.ts) and the shared poller (poller.ts), which
 * both read these options.
 */

export interface PollingOptions {
  /** Floor between two calls for one resource (before `timeScale`). Default 1000. */
  minIntervalMs: number;
  /**
   * Ceiling between two calls once a wait reaches its expected duration, and between two retries
   * (before `timeScale`); before the expected finish an await may wait twice this. Default 30000.
   */
  maxIntervalMs: number;
  /**
   * Multiplies every wait. 1 on AWS; the server sets it small when the sandbox clock runs fast, so
   * a 10-minute EKS create that takes 6 s of real time is polled at the same relative cadence.
   */
  timeScale: number;
  /**
   * No phase deadline (workflow.ts → PhaseDeadline) ends sooner than this many real ms, whatever `timeScale`: a wait
   * is seen to end through real round trips, and a sped-up sandbox clock can be slowed or held — below this a deadline
   * would measure the machine, not the cloud. Default {@link MIN_DEADLINE_MS}; on AWS every deadline is above it.
   */
  minDeadlineMs?: number;
}

/** One minute of real time: see PollingOptions.minDeadlineMs. */
export const MIN_DEADLINE_MS = 60_000;

export const DEFAULT_POLLING: PollingOptions = { minIntervalMs: 1000, maxIntervalMs: 30_000, timeScale: 1 };

/** Jitter spreads the retries of many operations failing together (±20%). */
export const JITTER = 0.2;

/** Fills in defaults and refuses values that would spin or never poll. */
export function resolvePolling(options: Partial<PollingOptions> = {}): PollingOptions {
  const resolved = { ...DEFAULT_POLLING, ...options };
  const { minIntervalMs, maxIntervalMs, timeScale } = resolved;
  if (!(minIntervalMs > 0) || !(maxIntervalMs >= minIntervalMs) || !(timeScale > 0)) {
    throw new RangeError(
      `Polling needs 0 < minIntervalMs ≤ maxIntervalMs and timeScale > 0 (got ${JSON.stringify(resolved)}).`,
    );
  }
  return resolved;
}

/**
 * The real wait for a nominal interval: ±20% jitter, clamped to [min, max] (the floor protects
 * the API budget, the ceiling bounds how long a retry waits), then scaled by `timeScale`. Used for
 * retries after errors; awaits follow their PollSchedule (poll-schedule.ts).
 */
export function pollDelayMs(nominalMs: number, polling: PollingOptions, random: () => number = Math.random): number {
  const jittered = nominalMs * (1 + (random() * 2 - 1) * JITTER);
  return clamp(jittered, polling.minIntervalMs, polling.maxIntervalMs) * polling.timeScale;
}

/**
 * The real wait before retrying after the `failures`-th consecutive transient cloud error:
 * min, 2×min, 4×min, … up to max, with jitter, scaled. With the defaults six retries span about a minute.
 */
export function transientBackoffMs(
  failures: number,
  polling: PollingOptions,
  random: () => number = Math.random,
): number {
  const nominal = clamp(
    polling.minIntervalMs * 2 ** Math.max(0, failures - 1),
    polling.minIntervalMs,
    polling.maxIntervalMs,
  );
  return pollDelayMs(nominal, polling, random);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
