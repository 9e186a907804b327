import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_POLLING,
  nominalPollIntervalMs,
  pollDelayMs,
  resolvePolling,
  SharedPoller,
  transientBackoffMs,
  type PollingOptions,
} from '../../src/engine/poller.js';
import { deferred } from './helpers.js';

const WIDE: PollingOptions = { minIntervalMs: 100, maxIntervalMs: 1_000_000, timeScale: 1 };

describe('poll interval', () => {
  it('polls first at expected/6, then every expected/15 while on schedule', () => {
    assert.equal(nominalPollIntervalMs({ pollNumber: 0, elapsedMs: 0, expectedSeconds: 600 }, WIDE), 100_000);
    assert.equal(nominalPollIntervalMs({ pollNumber: 3, elapsedMs: 300_000, expectedSeconds: 600 }, WIDE), 40_000);
  });

  it('grows ×1.5 per poll once the expected duration has passed, up to the ceiling', () => {
    const overdue = { elapsedMs: 700_000, expectedSeconds: 600 };
    const first = nominalPollIntervalMs({ ...overdue, pollNumber: 9, previousMs: 40_000 }, WIDE);
    const second = nominalPollIntervalMs({ ...overdue, pollNumber: 10, previousMs: first }, WIDE);
    assert.deepEqual([first, second], [60_000, 90_000]);
    assert.equal(nominalPollIntervalMs({ ...overdue, pollNumber: 10, previousMs: 30_000 }, DEFAULT_POLLING), 30_000);
  });

  it('stays within [min, max] for tiny and huge expectations', () => {
    assert.equal(nominalPollIntervalMs({ pollNumber: 0, elapsedMs: 0, expectedSeconds: 1 }, DEFAULT_POLLING), 1000);
    assert.equal(nominalPollIntervalMs({ pollNumber: 5, elapsedMs: 0, expectedSeconds: 3600 }, DEFAULT_POLLING), 30_000);
  });

  it('judges "overdue" in AWS time when the clock is sped up', () => {
    const fast = { ...WIDE, timeScale: 0.01 };
    // 7 s of real time at timeScale 0.01 is 700 s of AWS time: past a 600 s expectation.
    assert.equal(nominalPollIntervalMs({ pollNumber: 4, elapsedMs: 7_000, expectedSeconds: 600, previousMs: 40_000 }, fast), 60_000);
    assert.equal(nominalPollIntervalMs({ pollNumber: 4, elapsedMs: 5_000, expectedSeconds: 600 }, fast), 40_000);
  });

  it('adds at most ±20% jitter, never leaves [min, max], and scales by timeScale', () => {
    const polling = { minIntervalMs: 1000, maxIntervalMs: 30_000, timeScale: 0.001 };
    assert.equal(pollDelayMs(10_000, polling, () => 0), 8);
    assert.equal(pollDelayMs(10_000, polling, () => 0.5), 10);
    assert.ok(Math.abs(pollDelayMs(10_000, polling, () => 0.999999) - 12) < 1e-3);
    assert.equal(pollDelayMs(30_000, polling, () => 0.999999), 30, 'the ceiling holds after jitter');
    assert.equal(pollDelayMs(1000, polling, () => 0), 1, 'the floor holds after jitter');
    for (let i = 0; i < 1000; i++) {
      const d = pollDelayMs(5000, DEFAULT_POLLING);
      assert.ok(d >= 4000 && d <= 6000, `${d} within ±20% of 5000`);
    }
  });

  it('backs off transient errors by doubling from the floor to the ceiling', () => {
    const exact = () => 0.5;
    assert.deepEqual([1, 2, 3, 6, 10].map((n) => transientBackoffMs(n, DEFAULT_POLLING, exact)), [1000, 2000, 4000, 30_000, 30_000]);
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

  it('never reuses an error', async () => {
    const poller = new SharedPoller({ freshForMs: 1000 });
    let calls = 0;
    await assert.rejects(poller.poll('k', async () => { calls++; throw new Error('throttled'); }));
    assert.equal(await poller.poll('k', async () => ++calls), 2);
  });

  it('lets a joined caller call again when the owner of the call was aborted', async () => {
    const poller = new SharedPoller({ freshForMs: 0 });
    const owner = new AbortController();
    const ownerCall = () => new Promise<string>((_, reject) => owner.signal.addEventListener('abort', () => reject(new Error('aborted'))));
    const first = poller.poll('k', ownerCall, owner.signal);
    const second = poller.poll('k', async () => 'mine', new AbortController().signal);
    owner.abort();
    await assert.rejects(first);
    assert.equal(await second, 'mine');
  });
});
