/**
 * How often the engine asks the cloud whether something finished. AWS bills nothing for Describe
 * calls but throttles them per account, and one busy server may await many resources at once, so
 * the cadence follows what we know: how long the wait usually takes (poll-schedule.ts, within the
 * options of polling.ts), and every watcher of one resource shares its schedule and its calls (SharedPoller).
 */

import type { PollSchedule } from './poll-schedule.js';

interface PollEntry {
  inFlight?: Promise<unknown>;
  /** Aborting this signal rejects the shared call; other waiters then call again themselves. */
  ownerSignal?: AbortSignal;
  settledAt?: number;
  value?: unknown;
}

/**
 * One poller per resource, shared by every operation awaiting it: while a call for `key` is in
 * flight, later callers join it; a result younger than `freshForMs` is handed out again instead of
 * calling the cloud. Errors are shared with the callers in flight but never reused afterwards.
 *
 * @example
 * const poller = new SharedPoller({ freshForMs: 1000 });
 * const outcome = await poller.poll('eks:us-west-2/demo', () => describeCluster(), signal);
 */
export class SharedPoller {
  private readonly entries = new Map<string, PollEntry>();
  private readonly schedules = new Map<string, { schedule: PollSchedule; watchers: number }>();
  private readonly freshForMs: number;
  private readonly nowMs: () => number;

  constructor({ freshForMs, nowMs = Date.now }: { freshForMs: number; nowMs?: () => number }) {
    this.freshForMs = freshForMs;
    this.nowMs = nowMs;
  }

  /** Calls `call` unless a call for `key` is in flight or fresh; `signal` is this caller's own. */
  async poll<T>(key: string, call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.forgetStale();
    const entry = this.entries.get(key);
    if (entry?.inFlight) {
      try {
        return (await entry.inFlight) as T;
      } catch (err) {
        // The owner was cancelled or stopped; that is no reason for this caller to fail.
        if (entry.ownerSignal?.aborted && !signal?.aborted) return this.poll(key, call, signal);
        throw err;
      }
    }
    if (entry?.settledAt !== undefined && this.nowMs() - entry.settledAt < this.freshForMs) return entry.value as T;
    return this.callAndShare(key, call, signal);
  }

  /**
   * The schedule of resource `key`: the first watcher's (made by `start`), followed by every later
   * watcher until all have left, so they call at the same moments and share one call. A later
   * watcher of a resource already being awaited starts where that wait stands, not from zero.
   * Call `leave()` once when the wait ends, however it ends.
   */
  watch(key: string, start: () => PollSchedule): { schedule: PollSchedule; leave(): void } {
    let shared = this.schedules.get(key);
    if (!shared) {
      shared = { schedule: start(), watchers: 0 };
      this.schedules.set(key, shared);
    }
    shared.watchers++;
    const entry = shared;
    let left = false;
    return {
      schedule: entry.schedule,
      leave: () => {
        if (left) return;
        left = true;
        if (--entry.watchers === 0 && this.schedules.get(key) === entry) this.schedules.delete(key);
      },
    };
  }

  /** Number of resources with a shared schedule (for tests and diagnostics). */
  get watched(): number {
    return this.schedules.size;
  }

  /** Number of resources with a call in flight or a fresh result (for tests and diagnostics). */
  get size(): number {
    return this.entries.size;
  }

  private async callAndShare<T>(key: string, call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const entry: PollEntry = { ownerSignal: signal };
    const inFlight = call();
    entry.inFlight = inFlight;
    this.entries.set(key, entry);
    try {
      const value = await inFlight;
      if (this.entries.get(key) === entry) {
        entry.inFlight = undefined;
        entry.value = value;
        entry.settledAt = this.nowMs();
      }
      return value;
    } catch (err) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw err;
    }
  }

  private forgetStale(): void {
    const now = this.nowMs();
    for (const [key, entry] of this.entries) {
      if (!entry.inFlight && entry.settledAt !== undefined && now - entry.settledAt >= this.freshForMs)
        this.entries.delete(key);
    }
  }
}
