import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CloudError, ConflictError } from '../../src/domain/errors.js';
import type { PhaseDefinition } from '../../src/engine/workflow.js';
import { fileEngine, newEngine, phaseReaches, tempDataDir, workflow, type Input, type State } from './helpers.js';

/**
 * A pretend cloud with three resources to remove; removing `b` fails while `broken` is set (like a
 * HyperPod cluster whose deletion AWS refuses). `calls` counts each phase's acts.
 */
class Cloud {
  left = new Set(['a', 'b', 'c']);
  broken = true;
  calls: Record<string, number> = { a: 0, b: 0, c: 0 };
  observed: Record<string, number> = { a: 0, b: 0, c: 0 };
  /** Resolves `c`'s removal only when the test says so (for the crash test). */
  cHeld = false;

  removal(name: string): PhaseDefinition<Input, State> {
    return {
      name,
      title: `Remove ${name}`,
      expectedSeconds: 5,
      deadline: { actSeconds: 60, waitSeconds: 600 },
      onFailure: 'continue',
      observe: async () => {
        this.observed[name]!++;
        return this.left.has(name) ? 'needs-act' : 'done';
      },
      act: async () => {
        this.calls[name]!++;
        if (name === 'b' && this.broken)
          throw new CloudError({
            service: 'sagemaker',
            operation: 'DeleteCluster',
            code: 'AccessDeniedException',
            message: 'not authorized to perform sagemaker:DeleteCluster',
            httpStatus: 400,
            retryable: false,
          });
        if (name !== 'c' || !this.cHeld) this.left.delete(name);
      },
      await: async () => ({ done: !this.left.has(name) }),
    };
  }

  verify(): PhaseDefinition<Input, State> {
    return {
      name: 'verify',
      title: 'Verify nothing remains',
      expectedSeconds: 1,
      deadline: { actSeconds: 60, waitSeconds: 600 },
      observe: async (ctx) => {
        if (this.left.size === 0) return 'done';
        const why = ctx.earlierFailures.map((f) => `${f.phase} (${f.code}: ${f.message})`).join('; ');
        throw new CloudError({
          service: 'test',
          operation: 'Verify',
          code: 'ResourcesRemain',
          message: `Still there: ${[...this.left].join(', ')}; failed phases: ${why}`,
        });
      },
    };
  }

  workflow() {
    return workflow('teardown', [this.removal('a'), this.removal('b'), this.removal('c'), this.verify()]);
  }
}

describe('teardown phases go on past a failure (onFailure: continue)', () => {
  it('runs the later phases, ends failed with verify naming the failed phase; a retry re-runs only the failed phases', async () => {
    const { engine } = newEngine();
    const cloud = new Cloud();
    engine.register(cloud.workflow());
    const { operation } = engine.start('teardown', { name: 'x' });
    const failed = await engine.waitFor(operation.id, 3000);

    assert.equal(failed.status, 'failed');
    assert.deepEqual(
      failed.phases.map((p) => [p.name, p.status]),
      [
        ['a', 'succeeded'],
        ['b', 'failed'],
        ['c', 'succeeded'],
        ['verify', 'failed'],
      ],
    );
    assert.deepEqual([...cloud.left], ['b'], 'the phase after the failure still removed its resource');
    assert.deepEqual(failed.phases[1]!.error, {
      phase: 'b',
      code: 'AccessDeniedException',
      message: 'not authorized to perform sagemaker:DeleteCluster',
    });
    assert.equal(
      failed.error?.phase,
      'verify',
      "the operation's error is the last failure: the check that sums the others up",
    );
    assert.match(
      failed.error!.message,
      /Still there: b; failed phases: b \(AccessDeniedException: not authorized to perform sagemaker:DeleteCluster\)/,
    );
    assert.deepEqual(
      failed.phases.filter((p) => p.retryable).map((p) => p.name),
      ['b', 'verify'],
    );
    const lines = engine.events(operation.id).lines.map((l) => l.message);
    assert.ok(lines.some((m) => /Going on with the next phases/.test(m)));
    assert.ok(lines.some((m) => /Operation failed: phases 'b', 'verify' failed/.test(m)));

    assert.throws(
      () => engine.retryPhase(operation.id, 'a'),
      (err: Error) => err instanceof ConflictError && /retry one of the failed phases 'b', 'verify'/.test(err.message),
    );
    cloud.broken = false; // the cause is fixed (e.g. the missing permission granted)
    const retrying = engine.retryPhase(operation.id, 'verify'); // naming any failed phase retries them all, in order
    assert.equal(retrying.status, 'running');
    assert.deepEqual(
      retrying.phases.map((p) => [p.name, p.status, p.attempts]),
      [
        ['a', 'succeeded', 1],
        ['b', 'observing', 2],
        ['c', 'succeeded', 1],
        ['verify', 'pending', 1],
      ],
    );
    const done = await engine.waitFor(operation.id, 3000);

    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    assert.deepEqual(
      done.phases.map((p) => [p.name, p.status, p.attempts]),
      [
        ['a', 'succeeded', 1],
        ['b', 'succeeded', 2],
        ['c', 'succeeded', 1],
        ['verify', 'skipped', 2],
      ],
    );
    assert.deepEqual(cloud.calls, { a: 1, b: 2, c: 1 }, 'completed phases were not done again');
    assert.equal(cloud.left.size, 0);
  });

  it('the phase working is the current one, not the failure behind it', async () => {
    const { engine } = newEngine();
    const cloud = new Cloud();
    cloud.cHeld = true;
    engine.register(cloud.workflow());
    const { operation } = engine.start('teardown', { name: 'x' });
    const view = await phaseReaches(engine, operation.id, 'c', 'awaiting');
    assert.equal(view.status, 'running');
    assert.equal(view.phases[1]!.status, 'failed');
    assert.equal(view.currentPhase, 'c');
    assert.equal(view.error, undefined, 'the operation has not failed yet');
    engine.cancel(operation.id);
    await engine.waitFor(operation.id, 3000);
  });

  it('after a crash, a phase that failed and was passed is not run again; the run goes on from the phase in flight', async () => {
    const { dir, cleanup } = tempDataDir();
    const cloud = new Cloud();
    cloud.cHeld = true;
    try {
      const before = fileEngine(dir);
      before.engine.register(cloud.workflow());
      const { operation } = before.engine.start('teardown', { name: 'x' });
      await phaseReaches(before.engine, operation.id, 'c', 'awaiting');
      await before.engine.stop();
      before.db.close();

      const after = fileEngine(dir);
      after.engine.register(cloud.workflow());
      const observedB = cloud.observed.b;
      after.engine.resume();
      cloud.cHeld = false;
      cloud.left.delete('c');
      const failed = await after.engine.waitFor(operation.id, 3000);
      assert.equal(failed.status, 'failed');
      assert.deepEqual(
        failed.phases.map((p) => [p.name, p.status, p.attempts]),
        [
          ['a', 'succeeded', 1],
          ['b', 'failed', 1],
          ['c', 'succeeded', 1],
          ['verify', 'failed', 1],
        ],
      );
      assert.equal(cloud.observed.b, observedB, 'the failed phase was not run again by the resume');
      assert.equal(cloud.calls.b, 1);
      after.db.close();
    } finally {
      cleanup();
    }
  });

  it('phases without onFailure still stop the operation where they fail', async () => {
    const { engine } = newEngine();
    const cloud = new Cloud();
    const { onFailure: _dropped, ...stopping } = cloud.removal('b');
    engine.register(workflow('teardown', [cloud.removal('a'), stopping, cloud.removal('c'), cloud.verify()]));
    const { operation } = engine.start('teardown', { name: 'x' });
    const failed = await engine.waitFor(operation.id, 3000);
    assert.deepEqual(
      failed.phases.map((p) => p.status),
      ['succeeded', 'failed', 'pending', 'pending'],
    );
    assert.equal(failed.error?.phase, 'b');
    assert.equal(cloud.calls.c, 0);
  });
});
