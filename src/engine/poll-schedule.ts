import type { PollingOptions } from './polling.js';

/**
 * When a wait asks the cloud again. A wait usually ends close to its expected duration, so the
 * schedule looks rarely at first and densely around the expected finish, then backs off:
 *
 *   sample points, as fractions of the expected duration (AWS time since the wait began):
 *   0.25 0.4 0.5 0.6 0.7 0.78 0.85 0.9 0.94 0.97 **1** 1.02 1.04 … 1.2 1.25 … 1.5, then every 10 % of
 *   the time waited (never less than the gap before), up to the ceiling.
 *
 * Before the expected finish no gap exceeds {@link EARLY_CEILING_FACTOR} × `maxIntervalMs` (a wait that
 * ends far earlier than expected is still seen within a minute); from then on none exceeds
 * `maxIntervalMs` (how late an overdue wait can be noticed). No two points are closer than
 * `minIntervalMs` (the API budget). For a 10-minute EKS create this is 14 calls up to the expected
 * finish and one every 12 s around it, where the former steady 30 s cadence made 20 and noticed up to
 * 30 s late.
 *
 * The points are in AWS time; `timeScale` turns them into real time, so a sped-up sandbox is
 * sampled at the same points of its own clock.
 */
export const SAMPLE_FRACTIONS: readonly number[] = [
  0.25, 0.4, 0.5, 0.6, 0.7, 0.78, 0.85, 0.9, 0.94, 0.97, 1, 1.02, 1.04, 1.06, 1.08, 1.1, 1.13, 1.16, 1.2, 1.25, 1.3,
  1.36, 1.43, 1.5,
];

/** Past the last fraction, each gap is this share of the time waited so far (at least the previous gap). */
export const OVERDUE_GROWTH = 0.1;

/** Before the expected finish a gap may reach this many times `maxIntervalMs`. */
export const EARLY_CEILING_FACTOR = 2;

/**
 * Each schedule is stretched by one random factor within ±2 %: operations started together on
 * different resources do not call together, while every point keeps its place relative to the
 * expected finish (a uniform ±20 % per poll would blur exactly the points that matter).
 */
export const SCHEDULE_JITTER = 0.02;

/**
 * The sample points (AWS ms since the wait began) up to and including the first one at or after
 * `untilMs`, without jitter. Pure: tests read the schedule from here.
 *
 * @example
 * samplePointsMs(600, DEFAULT_POLLING, 600_000).slice(0, 4); // → [50000, 100000, 150000, 195000]
 */
export function samplePointsMs(expectedSeconds: number, polling: PollingOptions, untilMs: number): number[] {
  const points: number[] = [];
  for (const point of points_(expectedSeconds, polling)) {
    points.push(point);
    if (point >= untilMs) break;
  }
  return points;
}

/** The first sample point (AWS ms since the wait began) at or after `atLeastMs`, without jitter. */
export function nextSamplePointMs(expectedSeconds: number, polling: PollingOptions, atLeastMs: number): number {
  for (const point of points_(expectedSeconds, polling, atLeastMs)) if (point >= atLeastMs) return point;
  /* c8 ignore next */
  throw new Error('unreachable: the schedule is endless');
}

/**
 * The points around the expected finish, from the fractions: a gap wider than its ceiling is split
 * evenly (so each fraction's own point is still sampled); a point closer than the floor to the one
 * before is dropped before the expected finish and moved out to the floor after it; the expected
 * finish itself displaces its neighbour instead.
 */
function fractionPointsMs(expectedSeconds: number, polling: PollingOptions): number[] {
  const { minIntervalMs: min, maxIntervalMs: max } = polling;
  const expectedMs = expectedSeconds * 1000;
  const points: number[] = [];
  let t = 0;
  for (const fraction of SAMPLE_FRACTIONS) {
    let target = fraction * expectedMs;
    if (target - t < min) {
      if (fraction < 1 || target <= t) continue; // early points may go; an overdue wait keeps looking, at the floor
      if (fraction > 1 || points.length === 0) target = t + min;
      else {
        points.pop();
        t = points.at(-1) ?? 0;
      }
    }
    const ceiling = target <= expectedMs ? max * EARLY_CEILING_FACTOR : max;
    const pieces = Math.ceil((target - t) / ceiling);
    const from = t;
    for (let i = 1; i < pieces; i++) points.push(from + ((target - from) * i) / pieces);
    points.push(target);
    t = target;
  }
  return points;
}

/**
 * The points in order: the fractions' points, then the back-off. Once its gaps reach the ceiling
 * they stay there, so `skipToMs` jumps over whole stretches at once: a wait that has gone on for
 * hours costs no more to plan.
 */
function* points_(expectedSeconds: number, polling: PollingOptions, skipToMs = 0): Generator<number, never> {
  const { minIntervalMs: min, maxIntervalMs: max } = polling;
  const fractions = fractionPointsMs(expectedSeconds, polling);
  yield* fractions;
  let t = fractions.at(-1) ?? 0;
  let gap = fractions.length > 1 ? t - fractions.at(-2)! : t;
  for (;;) {
    gap = clamp(Math.max(gap, t * OVERDUE_GROWTH), min, max);
    if (gap === max && skipToMs - t > max) t += (Math.ceil((skipToMs - t) / max) - 1) * max;
    t += gap;
    yield t;
  }
}

/**
 * One resource's schedule in real time: anchored where its wait began and stretched by its own
 * jitter factor. Shared by every watcher of the resource (see SharedPoller.watch), so they call at
 * the same moments and one call serves them all.
 */
export class PollSchedule {
  readonly startedAtMs: number;
  readonly expectedSeconds: number;
  /** 1 ± SCHEDULE_JITTER. */
  readonly stretch: number;
  private readonly polling: PollingOptions;

  constructor(options: {
    startedAtMs: number;
    expectedSeconds: number;
    polling: PollingOptions;
    random?: () => number;
  }) {
    this.startedAtMs = options.startedAtMs;
    this.expectedSeconds = options.expectedSeconds;
    this.polling = options.polling;
    this.stretch = 1 + ((options.random ?? Math.random)() * 2 - 1) * SCHEDULE_JITTER;
  }

  /** Real ms from `nowMs` to the next sample point at least `minIntervalMs` (AWS time) away. */
  delayMs(nowMs: number): number {
    const { minIntervalMs, timeScale } = this.polling;
    const elapsed = Math.max(0, nowMs - this.startedAtMs) / timeScale;
    const next =
      nextSamplePointMs(this.expectedSeconds, this.polling, (elapsed + minIntervalMs) / this.stretch) * this.stretch;
    return Math.max(minIntervalMs, next - elapsed) * timeScale;
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
