import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cloudTimeout } from '../../src/domain/errors.js';
import { MAX_TRANSIENT_RETRIES, OUTAGE_RETRY_MS } from '../../src/engine/failures.js';
import { FakeResource, newEngine, viewWhere, workflow } from './helpers.js';

const silent = () => cloudTimeout('eks', 'DescribeCluster', 30);

/**
 * A cloud that does not answer at all (every call times out) is an outage: the phase waits it out
 * with backoff for a bounded time, says so once in its progress and its log, and carries on when
 * the cloud answers again — however many attempts that takes.
 */
describe('a cloud outage during an operation', () => {
  it('is retried well past the transient limit, shown once as progress and one log line, and the operation carries on', async () => {
    const { engine } = newEngine();
    const res = new FakeResource();
    let silentPolls = MAX_TRANSIENT_RETRIES * 3;
    engine.register(
      workflow('make', [
        res.phase('build', {
          await: async () => {
            res.awaitCalls++;
            if (silentPolls-- > 0) throw silent();
            return { done: true, progress: 'READY' };
          },
        }),
      ]),
    );
    const { operation } = engine.start('make', { name: 'a' });
    const during = await viewWhere(
      engine,
      operation.id,
      (v) => v.phases[0]?.progress === 'AWS is not answering, retrying',
    );
    assert.equal(during.status, 'running');
    assert.equal(during.phases[0]!.status, 'awaiting');

    const done = await engine.waitFor(operation.id, 5000);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    assert.ok(res.awaitCalls > MAX_TRANSIENT_RETRIES + 1, `${res.awaitCalls} polls: more than the transient limit`);
    const lines = engine.events(operation.id).lines;
    const warns = lines.filter((l) => l.level === 'warn');
    assert.equal(warns.length, 1, JSON.stringify(warns));
    assert.match(
      warns[0]!.message,
      /^AWS is not answering \(eks DescribeCluster: TimeoutError\); retrying with backoff until it answers, for at most 15 minutes\.$/,
    );
    assert.equal(lines.filter((l) => /answers again after \d+ s/.test(l.message)).length, 1);
    assert.equal(done.phases[0]!.progress, 'READY');
  });

  it('names the Kubernetes API when that is what is silent', async () => {
    const { engine } = newEngine();
    const res = new FakeResource();
    let silentObserves = 2;
    engine.register(
      workflow('make', [
        res.phase('apply', {
          observe: async () => {
            if (silentObserves-- > 0)
              throw cloudTimeout('kubernetes', 'list Node', 30, 'The Kubernetes API of EKS cluster demo-eks');
            return 'done';
          },
        }),
      ]),
    );
    const { operation } = engine.start('make', { name: 'a' });
    const done = await engine.waitFor(operation.id, 5000);
    assert.equal(done.status, 'succeeded');
    const warn = engine.events(operation.id).lines.find((l) => l.level === 'warn');
    assert.match(warn?.message ?? '', /^The Kubernetes API is not answering \(kubernetes list Node: TimeoutError\)/);
  });

  it(`fails the phase with the timeout once the outage has lasted ${OUTAGE_RETRY_MS / 60_000} minutes`, async () => {
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const { engine } = newEngine(undefined, { now: () => new Date(clock) });
    let polls = 0;
    engine.register(
      workflow('make', [
        new FakeResource().phase('build', {
          await: async () => {
            polls++;
            clock += 60_000; // each silent poll "takes" a minute of real time
            throw silent();
          },
        }),
      ]),
    );
    const { operation } = engine.start('make', { name: 'a' });
    const failed = await engine.waitFor(operation.id, 5000);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.code, 'TimeoutError');
    assert.match(failed.error?.message ?? '', /AWS is not answering: eks DescribeCluster took longer than 30 s/);
    assert.ok(
      polls >= OUTAGE_RETRY_MS / 60_000 && polls <= OUTAGE_RETRY_MS / 60_000 + 2,
      `${polls} polls over a ${OUTAGE_RETRY_MS / 60_000}-minute outage`,
    );
    assert.equal(failed.phases[0]!.retryable, true, 'the phase can be retried alone once the cloud is back');
  });
});
