import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cloudNow, formatAge } from '../../src/domain/cloud-clock.js';

describe("the cloud's clock as a page reads it", () => {
  const reading = {
    cloudMs: Date.parse('2030-05-01T12:00:00Z'),
    localMs: Date.parse('2026-01-01T00:00:00Z'),
    speed: 20,
  };

  it("runs the cloud's time forward at its speed from the moment it was read, not at the wall clock's", () => {
    assert.equal(cloudNow(reading, reading.localMs), reading.cloudMs, "at the reading, the cloud's own time");
    assert.equal(
      cloudNow(reading, reading.localMs + 3_000),
      reading.cloudMs + 60_000,
      '3 s later on the wall is 60 s later in a 20× sandbox',
    );
    assert.equal(
      cloudNow({ ...reading, speed: 1 }, reading.localMs + 3_000),
      reading.cloudMs + 3_000,
      'AWS keeps real time',
    );
  });

  it("measures a sandbox job's age on the sandbox's clock, so it moves, where the wall clock left it at 0s", () => {
    const created = new Date(reading.cloudMs - 30_000).toISOString(); // the job, stamped 30 s before the reading
    assert.equal(
      formatAge(created, reading.localMs),
      '0s',
      'the old way: against the wall clock, years behind the sandbox, it never moves',
    );
    assert.equal(formatAge(created, cloudNow(reading, reading.localMs)), '30s');
    assert.equal(
      formatAge(created, cloudNow(reading, reading.localMs + 1_500)),
      '1m',
      '1.5 s later: 30 s more of sandbox time',
    );
    assert.equal(formatAge(created, cloudNow(reading, reading.localMs + 3_000 * 60)), '1h 0m');
  });

  it('reads as a person would: seconds, minutes, hours and minutes, then days; nothing negative, nothing invented', () => {
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const at = (s: number) => formatAge('2026-01-01T00:00:00Z', t0 + s * 1000);
    assert.deepEqual(
      [at(0), at(59), at(60), at(3599), at(3600), at(2 * 3600 + 3 * 60), at(47 * 3600 + 59 * 60), at(72 * 3600)],
      ['0s', '59s', '1m', '59m', '1h 0m', '2h 3m', '47h 59m', '3d'],
    );
    assert.equal(at(-5), '0s', 'a stamp a little ahead of a stale reading is "0s", not a negative age');
    assert.equal(formatAge(undefined, t0), '—');
    assert.equal(formatAge('not a time', t0), '—');
  });
});
