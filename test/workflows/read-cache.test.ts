import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReadCache } from '../../src/workflows/read-cache.js';

/** A read the test finishes when it wants, counting how many were started. */
function heldReads<V>() {
  const pending: Array<{ resolve(v: V): void; reject(e: Error): void }> = [];
  return {
    started: () => pending.length,
    read: () => new Promise<V>((resolve, reject) => void pending.push({ resolve, reject })),
    resolve: (i: number, v: V) => pending[i]!.resolve(v),
    reject: (i: number, e: Error) => pending[i]!.reject(e),
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('ReadCache: one shared read per key, kept a few seconds, dropped on our own changes', () => {
  it('serves every concurrent caller from one read, then keeps the answer for its TTL', async () => {
    let now = 0;
    const cache = new ReadCache<string>({ ttlMs: 3_000, now: () => now });
    const reads = heldReads<string>();
    const callers = Array.from({ length: 20 }, () => cache.get('us-west-2', reads.read));
    await tick();
    assert.equal(reads.started(), 1, 'one read for twenty callers');
    reads.resolve(0, 'answer');
    assert.deepEqual(await Promise.all(callers), Array(20).fill('answer'));
    now = 2_999;
    assert.equal(await cache.get('us-west-2', reads.read), 'answer');
    assert.equal(reads.started(), 1, 'kept within the TTL');
    now = 3_000;
    const again = cache.get('us-west-2', reads.read);
    await tick();
    assert.equal(reads.started(), 2, 'read again once the TTL is over');
    reads.resolve(1, 'newer');
    assert.equal(await again, 'newer');
    const other = cache.get('eu-west-1', reads.read);
    await tick();
    assert.equal(reads.started(), 3, 'keys do not share reads');
    reads.resolve(2, 'eu');
    assert.equal(await other, 'eu');
  });

  it('keeps no failure: every waiting caller gets it, the next caller reads again', async () => {
    const cache = new ReadCache<string>({ ttlMs: 60_000 });
    const reads = heldReads<string>();
    const a = cache.get('k', reads.read);
    const b = cache.get('k', reads.read);
    await tick();
    reads.reject(0, new Error('ThrottlingException'));
    await assert.rejects(a, /Throttling/);
    await assert.rejects(b, /Throttling/);
    const c = cache.get('k', reads.read);
    await tick();
    assert.equal(reads.started(), 2);
    reads.resolve(1, 'ok');
    assert.equal(await c, 'ok');
  });

  it('after an invalidation a caller never gets a read that started before it, and that read is not kept', async () => {
    const cache = new ReadCache<string>({ ttlMs: 60_000 });
    const reads = heldReads<string>();
    const before = cache.get('k', reads.read);
    await tick();
    cache.invalidate('k');
    const after = cache.get('k', reads.read);
    await tick();
    assert.equal(reads.started(), 2, 'the caller after the change starts its own read');
    reads.resolve(0, 'before the change');
    reads.resolve(1, 'after the change');
    assert.equal(await before, 'before the change', 'who asked before the change gets the read it joined');
    assert.equal(await after, 'after the change');
    assert.equal(
      await cache.get('k', reads.read),
      'after the change',
      'the disowned read did not overwrite the newer one',
    );
    assert.equal(reads.started(), 2);
  });

  it('invalidates by predicate or entirely, and keeps at most maxEntries keys', async () => {
    const cache = new ReadCache<string>({ ttlMs: 60_000, maxEntries: 3 });
    let reads = 0;
    const read = (v: string) => async () => (reads++, v);
    for (const k of ['us/a', 'us/b', 'eu/a']) await cache.get(k, read(k));
    cache.invalidate((k) => k.startsWith('us/'));
    assert.equal(await cache.get('eu/a', read('x')), 'eu/a');
    assert.equal(await cache.get('us/a', read('us/a 2')), 'us/a 2');
    cache.invalidate();
    assert.equal(await cache.get('eu/a', read('eu/a 2')), 'eu/a 2');
    for (const k of ['1', '2', '3', '4', '5']) await cache.get(k, read(k));
    assert.ok(cache.size <= 3, `kept ${cache.size} keys`);
    assert.equal(await cache.get('5', read('not read')), '5', 'the newest are kept');
  });
});
