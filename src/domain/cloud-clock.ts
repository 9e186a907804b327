/**
 * The cloud's clock as a client reads it. What the cloud timestamps (a job's creation, a node's launch, an event)
 * is in the cloud's time; the sandbox's clock runs `speed` times faster than the wall clock and may be far ahead of
 * it, so an age measured against the wall clock stands still or goes negative. A client reads the cloud's time
 * once (GET /api/v1/config → cloudTime, clockSpeed) and runs it forward at that speed between reads.
 */

/** One reading of the cloud's clock: its time, the reader's own time when it arrived, and its speed. */
export interface CloudClockReading {
  /** The cloud's time (epoch ms) in the answer. */
  cloudMs: number;
  /** The reader's wall clock (epoch ms) when the answer arrived. */
  localMs: number;
  /** How many times faster than real time the cloud's clock runs (1 on AWS). */
  speed: number;
}

/**
 * The cloud's time now, from a reading and the reader's wall clock now.
 * @example cloudNow({ cloudMs: 1_000_000, localMs: 500, speed: 20 }, 1_500) // 1_020_000: 1 s later is 20 s of sandbox
 * time
 */
export function cloudNow(reading: CloudClockReading, localNowMs: number): number {
  return reading.cloudMs + (localNowMs - reading.localMs) * reading.speed;
}

/**
 * How long ago `iso` was at `nowMs` (both in the cloud's time), as "45s", "5m", "2h 3m" or "3d". A time ahead of
 * now (a reading not yet refreshed) is "0s", not a negative age; a missing or unreadable time is "—".
 * @example formatAge('2026-01-01T00:00:00Z', Date.parse('2026-01-01T02:03:00Z')) // '2h 3m'
 */
export function formatAge(iso: string | undefined, nowMs: number): string {
  if (!iso) return '—';
  const then = Date.parse(iso);
  if (!Number.isFinite(then) || !Number.isFinite(nowMs)) return '—';
  const s = Math.max(0, Math.floor((nowMs - then) / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d`;
}
