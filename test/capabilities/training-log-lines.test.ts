import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import {
  compareTimes,
  LineSplitter,
  matchesGrep,
  MAX_LINE_CHARS,
  mergeByTime,
  parseStampedLine,
  prefixedLine,
  TailBuffer,
} from '../../src/workflows/pod-logs/lines.js';
import { linesOf } from '../../src/workflows/pod-logs/pod-reads.js';
import type { LogLine } from '../../src/domain/schemas/training.js';

const line = (rank: number, time: string | undefined, text: string): LogLine => ({
  rank,
  pod: `job-pod-${rank}`,
  ...(time ? { time } : {}),
  text,
});

describe('training job log lines (merge, caps, grep)', () => {
  it("splits the kubelet's timestamp from the text, and keeps a line without one whole", () => {
    assert.deepEqual(parseStampedLine('2026-06-01T12:00:05.123456789Z step=3 loss=2.1'), {
      time: '2026-06-01T12:00:05.123456789Z',
      text: 'step=3 loss=2.1',
    });
    assert.deepEqual(parseStampedLine('2026-06-01T12:00:05Z '), { time: '2026-06-01T12:00:05Z', text: '' });
    assert.deepEqual(parseStampedLine('no time here'), { text: 'no time here' });
  });

  it('orders RFC 3339 times with fractions of any length', () => {
    assert.equal(compareTimes('2026-06-01T12:00:05.5Z', '2026-06-01T12:00:05.400000000Z'), 1);
    assert.equal(compareTimes('2026-06-01T12:00:05Z', '2026-06-01T12:00:05.000000001Z'), -1);
    assert.equal(compareTimes('2026-06-01T12:00:05.100Z', '2026-06-01T12:00:05.100000000Z'), 0);
    assert.equal(compareTimes('2026-06-01T12:00:04.999Z', '2026-06-01T12:00:05Z'), -1);
    assert.equal(compareTimes(undefined, '2026-06-01T12:00:05Z'), -1);
  });

  it('merges every rank by time; lines of one instant keep rank order, a rank keeps its own order', () => {
    const r0 = [
      line(0, '2026-06-01T12:00:01Z', 'a0'),
      line(0, '2026-06-01T12:00:03Z', 'b0'),
      line(0, '2026-06-01T12:00:03Z', 'c0'),
    ];
    const r1 = [
      line(1, '2026-06-01T12:00:02Z', 'a1'),
      line(1, '2026-06-01T12:00:03Z', 'b1'),
      line(1, '2026-06-01T12:00:09Z', 'c1'),
    ];
    const r2: LogLine[] = [];
    assert.deepEqual(
      mergeByTime([r0, r1, r2]).map((l) => l.text),
      ['a0', 'a1', 'b0', 'c0', 'b1', 'c1'],
    );
    assert.deepEqual(mergeByTime([]), []);
    assert.equal(prefixedLine(r1[0]!), '[rank 1] a1');
  });

  it('keeps the newest lines within the line cap, dropping the oldest and saying so', () => {
    const tail = new TailBuffer(3, 1024 * 1024);
    for (let i = 1; i <= 5; i++) tail.add(line(0, undefined, `line ${i}`));
    assert.deepEqual(
      tail.toArray().map((l) => l.text),
      ['line 3', 'line 4', 'line 5'],
    );
    assert.equal(tail.truncated, true);
    const exact = new TailBuffer(3, 1024);
    for (let i = 1; i <= 3; i++) exact.add(line(0, undefined, `line ${i}`));
    assert.equal(exact.truncated, false, 'nothing dropped, nothing said');
  });

  it('keeps the answer within the byte cap (text + newline per line), oldest first out, over a long scan', () => {
    const tail = new TailBuffer(1_000_000, 100);
    for (let i = 0; i < 50_000; i++) tail.add(line(0, undefined, `x${String(i).padStart(8, '0')}`)); // 10 bytes each
    assert.deepEqual(
      tail.toArray().map((l) => l.text),
      Array.from({ length: 10 }, (_, k) => `x${String(49_990 + k).padStart(8, '0')}`),
    );
    assert.equal(tail.truncated, true);
    const big = new TailBuffer(10, 5);
    big.add(line(0, undefined, 'longer than the cap'));
    assert.equal(big.size, 0, 'a line alone over the cap is dropped too: the cap is a promise');
  });

  it('greps plain text, case-sensitively, never as a regular expression', () => {
    assert.equal(matchesGrep('step=3 loss=2.1', 'loss='), true);
    assert.equal(matchesGrep('step=3 loss=2.1', 'Loss'), false);
    assert.equal(matchesGrep('a.b', '.'), true);
    assert.equal(matchesGrep('ab', 'a.b'), false, '. is a dot, not any character');
    assert.equal(matchesGrep('[rank 1]', '[rank'), true, 'brackets need no escaping');
    assert.equal(matchesGrep('anything', undefined), true);
  });

  it('splits a stream into lines across chunk boundaries and cuts a line that never ends', async () => {
    const s = new LineSplitter();
    assert.deepEqual(s.push('one\ntw'), ['one']);
    assert.deepEqual(s.push('o\r\nthree'), ['two']);
    assert.deepEqual(s.end(), ['three']);
    const runaway = new LineSplitter();
    assert.deepEqual(runaway.push('y'.repeat(MAX_LINE_CHARS + 10)), ['y'.repeat(MAX_LINE_CHARS)]);
    assert.deepEqual(await fromAsync(linesOf(Readable.from(['a\nb', 'c\n', 'd']))), ['a', 'bc', 'd']);
  });
});

async function fromAsync<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
