import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextSamplePointMs, PollSchedule, samplePointsMs, SCHEDULE_JITTER } from '../../src/engine/poll-schedule.js';
import { SharedPoller } from '../../src/engine/poller.js';
import {
  DEFAULT_POLLING,
  pollDelayMs,
  resolvePolling,
  transientBackoffMs,
  type PollingOptions,
} from '../../src/engine/polling.js';
import { deferred } from './helpers.js';

/**
 * The schedule before expected-duration-aware sampling, kept here as the yardstick: first poll at
 * expected/6, then every expected/15, ×1.5 per poll once overdue, each gap within [min, max].
 */
function formerPointsMs(expectedSeconds: number, polling: PollingOptions, untilMs: number): number[] {
  const expectedMs = expectedSeconds * 1000;
  const points: number[] = [];
  let t = 0;
  let previous: number | undefined;
  while (points.length === 0 || points.at(-1)! < untilMs) {
    const steady = expectedMs / 15;
    const base =
      t > expectedMs ? Math.max(previous ?? steady, steady) * 1.5 : points.length === 0 ? expectedMs / 6 : steady;
    previous = Math.min(polling.maxIntervalMs, Math.max(polling.minIntervalMs, base));
    t += previous;
    points.push(t);
  }
  return points;
}

/** Polls made, and how late the last one is, for a resource that finishes `finishMs` into the wait. */
function detect(points: number[], finishMs: number): { polls: number; lagMs: number } {
  const index = points.findIndex((p) => p >= finishMs);
  return { polls: index + 1, lagMs: points[index]! - finishMs };
}

const gaps = (points: number[]) => points.map((p, i) => p - (points[i - 1] ?? 0));
/** Expectations of the phases that exist, from a few seconds to a quarter of an hour, and longer. */
const EXPECTATIONS = [1, 10, 20, 60, 120, 150, 240, 420, 600, 900, 3600];

describe('poll schedule', () => {
  it('samples the expected finish itself, with fewer polls up to it than the former schedule', () => {
    for (const expected of EXPECTATIONS) {
      const points = samplePointsMs(expected, DEFAULT_POLLING, expected * 1000);
      const atFinish = detect(points, expected * 1000);
      assert.equal(atFinish.lagMs, 0, `E=${expected}s: the expected finish is a sample point`);
      const former = detect(formerPointsMs(expected, DEFAULT_POLLING, expected * 1000), expected * 1000);
      assert.ok(atFinish.polls <= former.polls, `E=${expected}s: ${atFinish.polls} polls, formerly ${former.polls}`);
    }
    // The EKS create (10 min): 14 polls to the expected finish instead of 20.
    assert.deepEqual(
      samplePointsMs(600, DEFAULT_POLLING, 600_000).map((p) => p / 1000),
      [50, 100, 150, 195, 240, 300, 360, 420, 468, 510, 540, 564, 582, 600],
    );
  });

  it('notices a finish near the expected time sooner, with fewer calls on the whole', () => {
    for (const expected of [10, 20, 60, 120, 150, 240, 420, 600, 900]) {
      const expectedMs = expected * 1000;
      const points = samplePointsMs(expected, DEFAULT_POLLING, 1.3 * expectedMs);
      const former = formerPointsMs(expected, DEFAULT_POLLING, 1.3 * expectedMs);
      // Finishes spread evenly from 20 % early to 20 % late.
      const finishes = Array.from({ length: 401 }, (_, i) => expectedMs * (0.8 + (0.4 * i) / 400));
      const total = (pts: number[]) =>
        finishes
          .map((f) => detect(pts, f))
          .reduce((sum, d) => ({ polls: sum.polls + d.polls, lagMs: sum.lagMs + d.lagMs }), { polls: 0, lagMs: 0 });
      const now = total(points);
      const before = total(former);
      assert.ok(now.polls <= before.polls, `E=${expected}s: ${now.polls} polls in all, formerly ${before.polls}`);
      assert.ok(
        now.lagMs < before.lagMs,
        `E=${expected}s: ${now.lagMs / finishes.length} ms late on average, formerly ${before.lagMs / finishes.length}`,
      );
      // Up to 20 % late, a finish is seen within 4 % of the expected duration (or the floor, or the ceiling).
      for (const f of finishes.filter((x) => x >= expectedMs && x < 1.2 * expectedMs - 1)) {
        const bound = Math.min(
          DEFAULT_POLLING.maxIntervalMs,
          Math.max(DEFAULT_POLLING.minIntervalMs, 0.04 * expectedMs),
        );
        assert.ok(
          detect(points, f).lagMs <= bound + 1e-6,
          `E=${expected}s, finish at ${f} ms: seen ${detect(points, f).lagMs} ms late`,
        );
      }
    }
    // An add-on wait (2 min) that ends 6 s late was noticed 10 s later (formerly); now within 1.2 s.
    assert.equal(detect(formerPointsMs(120, DEFAULT_POLLING, 126_000), 126_000).lagMs, 10_000);
    assert.ok(detect(samplePointsMs(120, DEFAULT_POLLING, 126_000), 126_000).lagMs <= 1200);
  });

  it('keeps every gap within the floor, twice the ceiling before the expected finish and the ceiling after it', () => {
    for (const expected of EXPECTATIONS) {
      const expectedMs = expected * 1000;
      const points = samplePointsMs(expected, DEFAULT_POLLING, 4 * expectedMs + 600_000);
      gaps(points).forEach((gap, i) => {
        const ceiling = points[i]! <= expectedMs ? 2 * DEFAULT_POLLING.maxIntervalMs : DEFAULT_POLLING.maxIntervalMs;
        assert.ok(
          gap >= DEFAULT_POLLING.minIntervalMs - 1e-6 && gap <= ceiling + 1e-6,
          `E=${expected}s: gap ${gap} ms before ${points[i]} ms`,
        );
      });
      assert.equal(
        gaps(points).at(-1),
        DEFAULT_POLLING.maxIntervalMs,
        `E=${expected}s: an overdue wait settles at the ceiling`,
      );
    }
  });

  it('plans a wait that has gone on for hours at once, on the same points', () => {
    const tenHours = 36_000_000;
    const next = nextSamplePointMs(600, DEFAULT_POLLING, tenHours);
    const walked = samplePointsMs(600, DEFAULT_POLLING, tenHours).at(-1);
    assert.equal(next, walked);
    assert.ok(next >= tenHours && next < tenHours + DEFAULT_POLLING.maxIntervalMs);
  });

  it('follows the clock scale: a sped-up sandbox is sampled at the same points of its own clock', () => {
    const fast = { ...DEFAULT_POLLING, timeScale: 0.01 };
    const schedule = new PollSchedule({
      startedAtMs: 1_000_000,
      expectedSeconds: 600,
      polling: fast,
      random: () => 0.5,
    });
    // A fake clock that sleeps exactly as told: the real times are the AWS points × 0.01.
    let now = 1_000_000;
    const seen: number[] = [];
    while (seen.length < 14) {
      now += schedule.delayMs(now);
      seen.push(Math.round((now - 1_000_000) / fast.timeScale));
    }
    assert.deepEqual(seen, samplePointsMs(600, DEFAULT_POLLING, 600_000));
    // Resumed long after the start: the next poll comes within the ceiling, in real time.
    assert.ok(schedule.delayMs(1_000_000 + 3_600_000) <= DEFAULT_POLLING.maxIntervalMs * fast.timeScale);
  });

  it('stretches each schedule by at most ±2 %, so operations started together do not call together', () => {
    const low = new PollSchedule({ startedAtMs: 0, expectedSeconds: 600, polling: DEFAULT_POLLING, random: () => 0 });
    const high = new PollSchedule({
      startedAtMs: 0,
      expectedSeconds: 600,
      polling: DEFAULT_POLLING,
      random: () => 0.999999,
    });
    assert.equal(low.stretch, 1 - SCHEDULE_JITTER);
    assert.ok(Math.abs(high.stretch - (1 + SCHEDULE_JITTER)) < 1e-5);
    assert.equal(low.delayMs(0), 50_000 * low.stretch);
    assert.notEqual(low.delayMs(0), high.delayMs(0));
  });
});

describe('retry backoff', () => {
  it('adds at most ±20% jitter, never leaves [min, max], and scales by timeScale', () => {
    const polling = { minIntervalMs: 1000, maxIntervalMs: 30_000, timeScale: 0.001 };
    assert.equal(
      pollDelayMs(10_000, polling, () => 0),
      8,
    );
    assert.equal(
      pollDelayMs(10_000, polling, () => 0.5),
      10,
    );
    assert.ok(Math.abs(pollDelayMs(10_000, polling, () => 0.999999) - 12) < 1e-3);
    assert.equal(
      pollDelayMs(30_000, polling, () => 0.999999),
      30,
      'the ceiling holds after jitter',
    );
    assert.equal(
      pollDelayMs(1000, polling, () => 0),
      1,
      'the floor holds after jitter',
    );
    for (let i = 0; i < 1000; i++) {
      const d = pollDelayMs(5000, DEFAULT_POLLING);
      assert.ok(d >= 4000 && d <= 6000, `${d} within ±20% of 5000`);
    }
  });

  it('backs off transient errors by doubling from the floor to the ceiling', () => {
    const exact = () => 0.5;
    assert.deepEqual(
      [1, 2, 3, 6, 10].map((n) => transientBackoffMs(n, DEFAULT_POLLING, exact)),
      [1000, 2000, 4000, 30_000, 30_000],
    );
  });

  it('refuses settings that would spin or never poll', () => {
    assert.throws(() => resolvePolling({ timeScale: 0 }), RangeError);
    assert.throws(() => resolvePolling({ minIntervalMs: 10, maxIntervalMs: 5 }), RangeError);
    assert.deepEqual(resolvePolling(), DEFAULT_POLLING);
  });
});

describe('shared poller', () => {
  it('shares one call in flight between every caller of the same key', async () => {
    const poller = new SharedPoller({ freshForMs: 0 });
    const gate = deferred<string>();
    let calls = 0;
    const call = () => {
      calls++;
      return gate.promise;
    };
    const answers = Promise.all([poller.poll('k', call), poller.poll('k', call), poller.poll('k', call)]);
    gate.resolve('ACTIVE');
    assert.deepEqual(await answers, ['ACTIVE', 'ACTIVE', 'ACTIVE']);
    assert.equal(calls, 1);
    await poller.poll('other', call);
    assert.equal(calls, 2, 'other keys poll on their own');
  });

  it('reuses a result younger than the freshness window, then calls again', async () => {
    let now = 1000;
    const poller = new SharedPoller({ freshForMs: 50, nowMs: () => now });
    let calls = 0;
    const call = async () => ++calls;
    assert.equal(await poller.poll('k', call), 1);
    now += 49;
    assert.equal(await poller.poll('k', call), 1);
    now += 1;
    assert.equal(await poller.poll('k', call), 2);
    now += 100;
    await poller.poll('j', call);
    assert.equal(poller.size, 1, 'stale entries are forgotten');
  });

  it("gives every watcher of a resource the first watcher's schedule, and forgets it when all have left", () => {
    const poller = new SharedPoller({ freshForMs: 1000 });
    const schedule = (startedAtMs: number) => () =>
      new PollSchedule({ startedAtMs, expectedSeconds: 600, polling: DEFAULT_POLLING, random: () => 0.5 });
    const first = poller.watch('eks:us-west-2:cluster:demo', schedule(0));
    const second = poller.watch('eks:us-west-2:cluster:demo', schedule(200_000));
    const other = poller.watch('eks:us-west-2:cluster:other', schedule(200_000));
    assert.equal(second.schedule, first.schedule, "the later watcher follows the resource's schedule");
    assert.equal(second.schedule.delayMs(300_000), first.schedule.delayMs(300_000), 'so both call at the same moment');
    assert.notEqual(other.schedule, first.schedule);
    first.leave();
    first.leave(); // leaving twice counts once
    assert.equal(
      poller.watch('eks:us-west-2:cluster:demo', schedule(400_000)).schedule,
      first.schedule,
      'still watched by the second',
    );
    assert.equal(poller.watched, 2);
  });

  it('never reuses an error', async () => {
    const poller = new SharedPoller({ freshForMs: 1000 });
    let calls = 0;
    await assert.rejects(
      poller.poll('k', async () => {
        calls++;
        throw new Error('throttled');
      }),
    );
    assert.equal(await poller.poll('k', async () => ++calls), 2);
  });

  it('lets a joined caller call again when the owner of the call was aborted', async () => {
    const poller = new SharedPoller({ freshForMs: 0 });
    const owner = new AbortController();
    const ownerCall = () =>
      new Promise<string>((_, reject) => owner.signal.addEventListener('abort', () => reject(new Error('aborted'))));
    const first = poller.poll('k', ownerCall, owner.signal);
    const second = poller.poll('k', async () => 'mine', new AbortController().signal);
    owner.abort();
    await assert.rejects(first);
    assert.equal(await second, 'mine');
  });
});
