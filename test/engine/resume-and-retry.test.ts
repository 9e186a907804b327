import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CloudError, ConflictError, NotFoundError } from '../../src/domain/errors.js';
import { FakeResource, fileEngine, phaseReaches, tempDataDir, workflow } from './helpers.js';
import { newEngine } from './helpers.js';

describe('crash and resume', () => {
  it('resumes an operation stopped while awaiting, by observing, with exactly one act call', async () => {
    const { dir, cleanup } = tempDataDir();
    const res = new FakeResource(); // the "cloud" outlives the crashed process
    const define = () =>
      workflow('make', [res.phase('build'), new FakeResource().phase('finish', { observe: async () => 'done' })]);
    try {
      const before = fileEngine(dir);
      before.engine.register(define());
      const { operation } = before.engine.start('make', { name: 'a' });
      await phaseReaches(before.engine, operation.id, 'build', 'awaiting');
      await before.engine.stop();
      before.db.close();

      const after = fileEngine(dir);
      assert.equal(
        after.store.getPhase(operation.id, 'build')!.status,
        'awaiting',
        'a stop leaves the journal as a crash would',
      );
      assert.equal(after.store.getOperation(operation.id)!.status, 'running');
      after.engine.register(define());
      const observesBefore = res.observeCalls;
      const resumed = after.engine.resume();
      assert.deepEqual(
        resumed.map((v) => v.id),
        [operation.id],
      );
      res.ready = true;
      const done = await after.engine.waitFor(operation.id, 3000);

      assert.equal(done.status, 'succeeded');
      assert.equal(res.actCalls, 1, 'the mutation was not repeated');
      assert.ok(res.observeCalls > observesBefore, 'the resumed phase began with observe');
      assert.deepEqual(
        done.phases.map((p) => [p.status, p.attempts]),
        [
          ['succeeded', 1],
          ['skipped', 1],
        ],
      );
      assert.deepEqual(done.result, { build: 'build-id' }, 'state written before the crash survived');
      assert.ok(after.engine.events(operation.id).lines.some((l) => /Resumed after a restart/.test(l.message)));
      await after.engine.stop();
      after.db.close();
    } finally {
      cleanup();
    }
  });

  it('resumes an operation stopped in the middle of act (which ignores its signal) without acting again', async () => {
    const { dir, cleanup } = tempDataDir();
    const res = new FakeResource();
    let lateWrite: unknown;
    const hangingAct = async (ctx: { setState(p: Record<string, string>): void }) => {
      res.actCalls++;
      res.exists = true; // the cloud accepted the mutation…
      await new Promise((r) => setTimeout(r, 30)); // …and the process dies before act returns
      try {
        ctx.setState({ late: 'write' });
      } catch (err) {
        lateWrite = err;
      }
    };
    try {
      const before = fileEngine(dir);
      before.engine.register(workflow('make', [res.phase('build', { act: hangingAct })]));
      const { operation } = before.engine.start('make', { name: 'a' });
      await phaseReaches(before.engine, operation.id, 'build', 'acting');
      await before.engine.stop();
      await new Promise((r) => setTimeout(r, 50));
      assert.equal((lateWrite as Error)?.name, 'EngineStoppedError', 'abandoned work cannot write to the journal');

      const after = fileEngine(dir);
      assert.equal(after.store.getPhase(operation.id, 'build')!.status, 'acting');
      after.engine.register(workflow('make', [res.phase('build', { act: hangingAct })]));
      after.engine.resume();
      res.ready = true;
      const done = await after.engine.waitFor(operation.id, 3000);
      assert.equal(done.status, 'succeeded');
      assert.equal(done.phases[0]!.status, 'succeeded', 'acted before the crash, so not "skipped"');
      assert.equal(res.actCalls, 1);
      await after.engine.stop();
      after.db.close();
    } finally {
      cleanup();
    }
  });

  it('finishes a cancellation that a crash interrupted', async () => {
    const { dir, cleanup } = tempDataDir();
    try {
      const before = fileEngine(dir);
      before.engine.register(workflow('make', [new FakeResource().phase('build')]));
      const { operation } = before.engine.start('make', { name: 'a' });
      await phaseReaches(before.engine, operation.id, 'build', 'awaiting');
      before.store.updateOperation(operation.id, { status: 'cancelling' }, new Date().toISOString()); // crash right after cancel() journaled
      await before.engine.stop();
      before.db.close();

      const after = fileEngine(dir);
      after.engine.register(workflow('make', [new FakeResource().phase('build')]));
      after.engine.resume();
      const view = after.engine.get(operation.id);
      assert.equal(view.status, 'cancelled');
      assert.equal(view.phases[0]!.status, 'cancelled');
      after.db.close();
    } finally {
      cleanup();
    }
  });
});

describe('retry of a failed phase', () => {
  const limitExceeded = () =>
    new CloudError({
      service: 'eks',
      operation: 'CreateCluster',
      code: 'ResourceLimitExceededException',
      message: 'Cluster limit reached.',
      httpStatus: 400,
      retryable: false,
    });

  it('runs the failed phase again from observe, counts the attempt and completes the operation', async () => {
    const { engine } = newEngine();
    const network = new FakeResource();
    network.ready = true;
    const cluster = new FakeResource();
    cluster.ready = true;
    const after = new FakeResource();
    after.ready = true;
    let failNext = true;
    engine.register(
      workflow('make', [
        network.phase('network'),
        cluster.phase('cluster', {
          act: async (ctx) => {
            cluster.actCalls++;
            if (failNext) {
              failNext = false;
              throw limitExceeded();
            }
            cluster.exists = true;
            ctx.setState({ cluster: 'cluster-id' });
          },
        }),
        after.phase('addons'),
      ]),
    );
    const { operation } = engine.start('make', { name: 'a' });
    const failed = await engine.waitFor(operation.id, 3000);
    assert.equal(failed.status, 'failed');
    assert.deepEqual(failed.error, {
      phase: 'cluster',
      code: 'ResourceLimitExceededException',
      message: 'Cluster limit reached.',
    });
    assert.deepEqual(
      failed.phases.map((p) => p.status),
      ['succeeded', 'failed', 'pending'],
    );

    const retrying = engine.retryPhase(operation.id, 'cluster');
    assert.equal(retrying.status, 'running');
    assert.equal(retrying.error, undefined);
    assert.equal(retrying.phases[1]!.attempts, 2);
    const done = await engine.waitFor(operation.id, 3000);

    assert.equal(done.status, 'succeeded');
    assert.deepEqual(
      done.phases.map((p) => [p.status, p.attempts]),
      [
        ['succeeded', 1],
        ['succeeded', 2],
        ['succeeded', 1],
      ],
    );
    assert.equal(network.actCalls, 1, 'phases before the failed one are not run again');
    assert.equal(cluster.actCalls, 2);
    assert.ok(done.phases.every((p) => !p.retryable && p.error === undefined));
  });

  it('is refused for a phase that did not fail, for an operation that did not fail, and for unknown names', async () => {
    const { engine } = newEngine();
    const ok = new FakeResource();
    ok.ready = true;
    engine.register(
      workflow('make', [
        ok.phase('network'),
        new FakeResource().phase('cluster', {
          act: async () => {
            throw limitExceeded();
          },
        }),
      ]),
    );
    const { operation } = engine.start('make', { name: 'a' });
    await phaseReaches(engine, operation.id, 'cluster', 'acting');
    assert.throws(
      () => engine.retryPhase(operation.id, 'cluster'),
      (err: Error) => err instanceof ConflictError && /only a failed operation/.test(err.message),
    );
    await engine.waitFor(operation.id, 3000);

    assert.throws(
      () => engine.retryPhase(operation.id, 'network'),
      (err: Error) => err instanceof ConflictError && /retry the failed phase 'cluster'/.test(err.message),
    );
    assert.throws(() => engine.retryPhase(operation.id, 'nope'), NotFoundError);
    assert.throws(() => engine.retryPhase('op-unknown', 'cluster'), NotFoundError);
    assert.equal(engine.get(operation.id).status, 'failed', 'refusals change nothing');
  });

  it('is refused with a reason when the operation failed outside its phases', async () => {
    const { engine } = newEngine();
    const done = new FakeResource();
    done.exists = done.ready = true;
    engine.register(
      workflow('make', [done.phase('network')], {
        result: () => {
          throw new Error('summary broke');
        },
      }),
    );
    const { operation } = engine.start('make', { name: 'a' });
    const failed = await engine.waitFor(operation.id, 3000);
    assert.deepEqual(failed.error, { code: 'InternalError', message: 'summary broke' });
    assert.throws(() => engine.retryPhase(operation.id, 'network'), /failed outside its phases/);
  });
});
