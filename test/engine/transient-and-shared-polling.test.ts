import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CloudError } from '../../src/domain/errors.js';
import { MAX_TRANSIENT_RETRIES } from '../../src/engine/failures.js';
import { deferred, FakeResource, newEngine, phaseReaches, until, workflow } from './helpers.js';

const throttled = () =>
  new CloudError({
    service: 'eks',
    operation: 'DescribeCluster',
    code: 'ThrottlingException',
    message: 'Rate exceeded',
    httpStatus: 400,
    retryable: true,
  });

describe('transient cloud errors', () => {
  it('are retried with a warn line each, then the phase goes on', async () => {
    const { engine } = newEngine();
    const res = new FakeResource();
    let throttles = 2;
    let awaitThrottles = 1;
    engine.register(
      workflow('make', [
        res.phase('build', {
          observe: async () => {
            if (throttles-- > 0) throw throttled();
            return res.exists ? 'in-progress' : 'needs-act';
          },
          await: async () => {
            if (awaitThrottles-- > 0) throw throttled();
            return { done: true };
          },
        }),
      ]),
    );
    const { operation } = engine.start('make', { name: 'a' });
    const done = await engine.waitFor(operation.id, 3000);

    assert.equal(done.status, 'succeeded');
    assert.equal(res.actCalls, 1);
    const warns = engine.events(operation.id).lines.filter((l) => l.level === 'warn');
    assert.equal(warns.length, 3);
    assert.match(warns[0]!.message, /ThrottlingException from eks DescribeCluster \(transient, retry 1 of 6\)/);
  });

  it(`fail the phase after ${MAX_TRANSIENT_RETRIES} retries in a row, keeping the cloud's code`, async () => {
    const { engine } = newEngine();
    let calls = 0;
    engine.register(
      workflow('make', [
        new FakeResource().phase('build', {
          observe: async () => {
            calls++;
            throw throttled();
          },
        }),
      ]),
    );
    const { operation } = engine.start('make', { name: 'a' });
    const failed = await engine.waitFor(operation.id, 5000);

    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.code, 'ThrottlingException');
    assert.equal(calls, MAX_TRANSIENT_RETRIES + 1);
  });

  it('after a failed act, observe decides what happens next instead of repeating the act blindly', async () => {
    const { engine } = newEngine();
    const res = new FakeResource();
    res.ready = true;
    engine.register(
      workflow('make', [
        res.phase('build', {
          act: async () => {
            res.actCalls++;
            res.exists = true; // the request went through, but the answer was lost
            throw new CloudError({
              service: 'eks',
              operation: 'CreateCluster',
              code: 'InternalFailure',
              message: 'Service error',
              httpStatus: 500,
              retryable: true,
            });
          },
        }),
      ]),
    );
    const { operation } = engine.start('make', { name: 'a' });
    const done = await engine.waitFor(operation.id, 3000);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.phases[0]!.status, 'succeeded');
    assert.equal(res.actCalls, 1);
  });
});

describe('shared polling', () => {
  it('makes one await call for two operations awaiting the same resource', async () => {
    const { engine } = newEngine();
    const release = deferred<{ done: boolean }>();
    let awaitCalls = 0;
    const shared = () =>
      new FakeResource().phase('nodes', {
        pollKey: () => 'sagemaker:us-west-2/shared-cluster',
        await: () => {
          awaitCalls++;
          return release.promise;
        },
      });
    engine.register(workflow('make', [shared()]));
    const a = engine.start('make', { name: 'a' }).operation;
    const b = engine.start('make', { name: 'b' }).operation;
    await Promise.all([
      phaseReaches(engine, a.id, 'nodes', 'awaiting'),
      phaseReaches(engine, b.id, 'nodes', 'awaiting'),
    ]);
    await new Promise((r) => setTimeout(r, 60)); // several poll intervals: both have asked by now

    assert.equal(awaitCalls, 1);
    release.resolve({ done: true });
    const [doneA, doneB] = await Promise.all([engine.waitFor(a.id, 3000), engine.waitFor(b.id, 3000)]);
    assert.deepEqual([doneA.status, doneB.status], ['succeeded', 'succeeded']);
    assert.equal(awaitCalls, 1);
  });

  it('keeps awaiting for one operation when the operation that owns the shared call is cancelled', async () => {
    const { engine } = newEngine();
    const release = deferred<{ done: boolean }>();
    const callers: string[] = [];
    engine.register(
      workflow('make', [
        new FakeResource().phase('nodes', {
          pollKey: () => 'shared',
          await: (ctx) => {
            callers.push(ctx.operationId);
            return new Promise((resolve, reject) => {
              release.promise.then(resolve, reject);
              ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
            });
          },
        }),
      ]),
    );
    const a = engine.start('make', { name: 'a' }).operation;
    const b = engine.start('make', { name: 'b' }).operation;
    await Promise.all([
      phaseReaches(engine, a.id, 'nodes', 'awaiting'),
      phaseReaches(engine, b.id, 'nodes', 'awaiting'),
    ]);
    await new Promise((r) => setTimeout(r, 60)); // both have joined the one call by now
    assert.equal(callers.length, 1);
    const [owner] = callers;
    const other = owner === a.id ? b.id : a.id;

    engine.cancel(owner!);
    assert.equal((await engine.waitFor(owner!, 3000)).status, 'cancelled');
    await until(() => callers.length === 2);
    assert.deepEqual(callers, [owner, other], 'the survivor called again on its own');
    release.resolve({ done: true });
    assert.equal((await engine.waitFor(other, 3000)).status, 'succeeded');
  });
});
