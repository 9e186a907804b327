import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PreconditionError } from '../../src/domain/errors.js';
import type { PhaseStatus } from '../../src/domain/schemas/operations.js';
import { FakeResource, newEngine, viewWhere, workflow } from './helpers.js';

describe('phase journal', () => {
  it('journals acting before act runs and awaiting before the first poll', async () => {
    const { engine, store } = newEngine();
    const res = new FakeResource();
    const seenInAct: PhaseStatus[] = [];
    const seenInAwait: PhaseStatus[] = [];
    engine.register(
      workflow('make', [
        res.phase('build', {
          act: async (ctx) => {
            seenInAct.push(store.getPhase(ctx.operationId, 'build')!.status);
            res.actCalls++;
            res.exists = true;
          },
          await: async (ctx) => {
            seenInAwait.push(store.getPhase(ctx.operationId, 'build')!.status);
            res.ready = true;
            return { done: true, progress: 'READY' };
          },
        }),
      ]),
    );
    const statuses: PhaseStatus[] = [];
    engine.on('operation', (v) => {
      const s = v.phases[0]!.status;
      if (statuses.at(-1) !== s) statuses.push(s);
    });

    const { operation } = engine.start('make', { name: 'a' });
    const done = await engine.waitFor(operation.id, 3000);

    assert.deepEqual(seenInAct, ['acting'], 'the journal said "acting" while act ran');
    assert.deepEqual(seenInAwait, ['awaiting']);
    assert.deepEqual(statuses, ['pending', 'observing', 'acting', 'awaiting', 'succeeded']);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.phases[0]!.attempts, 1);
    assert.equal(done.phases[0]!.progress, 'READY');
    assert.equal(typeof done.phases[0]!.durationMs, 'number');
    assert.ok(done.finishedAt);
  });

  it('skips a phase whose observe finds the work done, without calling act', async () => {
    const { engine } = newEngine();
    const already = new FakeResource();
    already.exists = already.ready = true;
    const fresh = new FakeResource();
    fresh.ready = true;
    engine.register(workflow('make', [already.phase('network'), fresh.phase('cluster')]));

    const { operation } = engine.start('make', { name: 'a' });
    const done = await engine.waitFor(operation.id, 3000);

    assert.equal(done.status, 'succeeded');
    assert.deepEqual(
      done.phases.map((p) => p.status),
      ['skipped', 'succeeded'],
    );
    assert.equal(already.actCalls, 0);
    assert.equal(fresh.actCalls, 1);
    assert.deepEqual(done.result, { cluster: 'cluster-id' }, 'the result summarises the final state');
  });

  it('succeeds at once when a phase without await has acted', async () => {
    const { engine } = newEngine();
    const res = new FakeResource();
    engine.register(workflow('make', [res.phase('tag', { await: undefined })]));
    const { operation } = engine.start('make', { name: 'a' });
    const done = await engine.waitFor(operation.id, 3000);
    assert.equal(done.phases[0]!.status, 'succeeded');
    assert.equal(res.awaitCalls, 0);
  });

  it('fails the phase and the operation with the error code, leaving later phases pending', async () => {
    const { engine } = newEngine();
    const first = new FakeResource();
    const later = new FakeResource();
    engine.register(
      workflow('make', [
        first.phase('quota', {
          observe: async () => {
            throw new PreconditionError({ message: 'Not enough ml.p5.48xlarge quota in us-west-2.' });
          },
        }),
        later.phase('cluster'),
      ]),
    );
    const { operation } = engine.start('make', { name: 'a' });
    const failed = await engine.waitFor(operation.id, 3000);

    assert.equal(failed.status, 'failed');
    assert.deepEqual(failed.error, {
      phase: 'quota',
      code: 'PreconditionError',
      message: 'Not enough ml.p5.48xlarge quota in us-west-2.',
    });
    assert.equal(failed.currentPhase, 'quota');
    assert.deepEqual(
      failed.phases.map((p) => [p.status, p.retryable]),
      [
        ['failed', true],
        ['pending', false],
      ],
    );
    assert.equal(later.observeCalls, 0);
    const errorLines = engine.events(operation.id).lines.filter((l) => l.level === 'error');
    assert.equal(errorLines.length, 1);
    assert.equal(errorLines[0]!.phase, 'quota');
  });

  it('reports a bug in a workflow as InternalError', async () => {
    const { engine } = newEngine();
    engine.register(
      workflow('make', [
        {
          name: 'x',
          title: 'X',
          expectedSeconds: 1,
          deadline: { actSeconds: 60, waitSeconds: 600 },
          observe: async () => {
            throw new TypeError('state.vpcId is undefined');
          },
        },
      ]),
    );
    const { operation } = engine.start('make', { name: 'a' });
    const failed = await engine.waitFor(operation.id, 3000);
    assert.equal(failed.error?.code, 'InternalError');
    assert.match(failed.error!.message, /vpcId/);
  });

  it('shows the current phase while running, and names no tool or URL (the faces add them)', async () => {
    const { engine } = newEngine();
    const res = new FakeResource();
    engine.register(workflow('make', [res.phase('build')]));
    const { operation, existing } = engine.start('make', { name: 'a' });
    assert.equal(existing, false);
    assert.ok(!('statusUrl' in operation) && !('statusTool' in operation), "links are the faces' (operation-links.ts)");
    assert.equal(operation.target, 'thing/a');
    assert.equal(operation.currentPhase, 'build');
    assert.equal(operation.phases[0]!.status, 'pending');

    const polled = await viewWhere(engine, operation.id, (v) => v.phases[0]!.progress === 'CREATING');
    assert.equal(polled.currentPhase, 'build');
    assert.equal(polled.phases[0]!.status, 'awaiting');
    const timedOut = await engine.waitFor(operation.id, 30);
    assert.equal(timedOut.status, 'running', 'waitFor answers with the current view on timeout');
    res.ready = true;
    assert.equal((await engine.waitFor(operation.id, 3000)).status, 'succeeded');
  });

  it('emits every log line and pages them by seq', async () => {
    const { engine } = newEngine();
    const res = new FakeResource();
    res.ready = true;
    engine.register(
      workflow('make', [
        res.phase('build', {
          act: async (ctx) => {
            for (let i = 1; i <= 5; i++) ctx.log(`step ${i}`);
            res.exists = true;
          },
        }),
      ]),
    );
    const emitted: number[] = [];
    engine.on('log', ({ line }) => emitted.push(line.seq));
    const { operation } = engine.start('make', { name: 'a' });
    await engine.waitFor(operation.id, 3000);

    const all = engine.events(operation.id, 0, 1000).lines;
    assert.deepEqual(
      all.map((l) => l.seq),
      emitted,
      'what was emitted is what was stored',
    );
    assert.deepEqual(
      all.map((l) => l.seq),
      all.map((_, i) => i + 1),
    );
    const page1 = engine.events(operation.id, 0, 3);
    const page2 = engine.events(operation.id, page1.nextAfter, 3);
    assert.deepEqual(page2.lines[0]!.seq, page1.lines.at(-1)!.seq + 1);
    const end = engine.events(operation.id, all.at(-1)!.seq, 10);
    assert.deepEqual(end, { lines: [], nextAfter: all.at(-1)!.seq });
    assert.ok(all.some((l) => l.message === 'step 3' && l.phase === 'build'));
  });
});
