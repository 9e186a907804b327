import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CloudError } from '../../src/domain/errors.js';
import type { OperationSnapshot } from '../../src/domain/schemas/operations.js';
import type { PhaseDefinition } from '../../src/engine/workflow.js';
import { openMemoryDatabase } from '../../src/store/database.js';
import {
  deferred,
  FakeResource,
  newEngine,
  phaseReaches,
  viewWhere,
  workflow,
  type Input,
  type State,
} from './helpers.js';

/**
 * A diamond: `a`, then `b` and `c` (both need only `a`), then `d` (needs both). Each phase is a
 * FakeResource, so tests can hold a phase in await (not ready) and count what the engine did.
 */
class Diamond {
  readonly res = { a: new FakeResource(), b: new FakeResource(), c: new FakeResource(), d: new FakeResource() };
  constructor() {
    for (const r of Object.values(this.res)) r.ready = true;
  }

  phases(
    extra: Partial<Record<'a' | 'b' | 'c' | 'd', Partial<PhaseDefinition<Input, State>>>> = {},
  ): PhaseDefinition<Input, State>[] {
    return [
      this.res.a.phase('a', extra.a),
      this.res.b.phase('b', { after: ['a'], ...extra.b }),
      this.res.c.phase('c', { after: ['a'], ...extra.c }),
      this.res.d.phase('d', { after: ['b', 'c'], ...extra.d }),
    ];
  }
}

const statuses = (v: OperationSnapshot) => Object.fromEntries(v.phases.map((p) => [p.name, p.status]));

describe('phases as a graph', () => {
  it('runs the two middle phases of a diamond side by side, and the last one once both are done', async () => {
    const { engine } = newEngine();
    const diamond = new Diamond();
    const bActing = deferred();
    const cActing = deferred();
    const seenByD: string[] = [];
    // Each middle act waits for the other to be acting too: run one after the other, they would wait forever.
    const phases = diamond.phases({
      b: {
        act: async (ctx) => {
          bActing.resolve();
          await cActing.promise;
          diamond.res.b.exists = true;
          ctx.setState({ b: 'made' });
        },
      },
      c: {
        act: async (ctx) => {
          cActing.resolve();
          await bActing.promise;
          diamond.res.c.exists = true;
          ctx.setState({ c: 'made' });
        },
      },
      d: {
        observe: async (ctx) => {
          seenByD.push(ctx.state.b!, ctx.state.c!);
          return 'needs-act';
        },
      },
    });
    engine.register(workflow('diamond', phases));
    const { operation } = engine.start('diamond', { name: 'x' });

    const both = await viewWhere(engine, operation.id, (v) => v.runningPhases.length === 2);
    assert.deepEqual(both.runningPhases, ['b', 'c'], 'both middle phases are in flight at once');
    assert.equal(both.currentPhase, 'b', 'the current phase is the first in flight');
    assert.deepEqual(
      both.phases.map((p) => [p.name, p.after]),
      [
        ['a', []],
        ['b', ['a']],
        ['c', ['a']],
        ['d', ['b', 'c']],
      ],
    );
    assert.equal(statuses(both).d, 'pending', 'd waits for both');

    const done = await engine.waitFor(operation.id, 3000);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    assert.deepEqual(seenByD, ['made', 'made'], 'd started after both wrote their state');
    assert.deepEqual(
      done.result,
      { a: 'a-id', b: 'made', c: 'made', d: 'd-id' },
      'state patches of phases running together all land',
    );
    assert.deepEqual(done.runningPhases, []);
  });

  it('after a crash with two phases in flight, resumes both from observe without acting again', async () => {
    const db = openMemoryDatabase();
    const diamond = new Diamond();
    diamond.res.b.ready = false;
    diamond.res.c.ready = false;
    const first = newEngine(db);
    first.engine.register(workflow('diamond', diamond.phases()));
    const { operation } = first.engine.start('diamond', { name: 'x' });
    await viewWhere(first.engine, operation.id, (v) => statuses(v).b === 'awaiting' && statuses(v).c === 'awaiting');
    await first.engine.stop(); // what a crash leaves: b and c awaiting in the journal

    const observedBefore = [diamond.res.b.observeCalls, diamond.res.c.observeCalls];
    const second = newEngine(db);
    second.engine.register(workflow('diamond', diamond.phases()));
    assert.deepEqual(
      second.engine.resume().map((v) => v.id),
      [operation.id],
    );
    await viewWhere(
      second.engine,
      operation.id,
      (v) =>
        v.runningPhases.length === 2 &&
        diamond.res.b.observeCalls > observedBefore[0]! &&
        diamond.res.c.observeCalls > observedBefore[1]!,
    );
    diamond.res.b.ready = true;
    diamond.res.c.ready = true;
    const done = await second.engine.waitFor(operation.id, 3000);

    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    assert.deepEqual([diamond.res.b.actCalls, diamond.res.c.actCalls], [1, 1], 'neither middle phase acted twice');
    assert.deepEqual(
      done.phases.map((p) => p.attempts),
      [1, 1, 1, 1],
      'a resume is not a new attempt',
    );
    assert.ok(second.engine.events(operation.id).lines.some((l) => /Resumed after a restart/.test(l.message)));
  });

  it('a failing branch stops its dependents only: the other branch goes on, even starting phases after the failure', async () => {
    const { engine } = newEngine();
    const bFailed = deferred();
    engine.on('operation', (v) => {
      if (v.phases.find((p) => p.name === 'b')?.status === 'failed') bFailed.resolve();
    });
    const res = {
      a: new FakeResource(),
      b: new FakeResource(),
      b2: new FakeResource(),
      c: new FakeResource(),
      c2: new FakeResource(),
    };
    for (const r of Object.values(res)) r.ready = true;
    engine.register(
      workflow('branches', [
        res.a.phase('a'),
        res.b.phase('b', {
          after: ['a'],
          act: async () => {
            throw new CloudError({
              service: 'ec2',
              operation: 'CreateThing',
              code: 'AccessDenied',
              message: 'not allowed',
            });
          },
        }),
        // c finishes only once b has failed, so c2 can only start after the failure.
        res.c.phase('c', {
          after: ['a'],
          act: async () => {
            await bFailed.promise;
            res.c.exists = true;
          },
        }),
        res.b2.phase('b2', { after: ['b'] }),
        res.c2.phase('c2', { after: ['c'] }),
      ]),
    );
    const { operation } = engine.start('branches', { name: 'x' });
    const failed = await engine.waitFor(operation.id, 3000);

    assert.equal(failed.status, 'failed');
    assert.deepEqual(statuses(failed), { a: 'succeeded', b: 'failed', c: 'succeeded', b2: 'pending', c2: 'succeeded' });
    assert.deepEqual(
      failed.error,
      { phase: 'b', code: 'AccessDenied', message: 'not allowed' },
      'the operation fails with the failed phase’s error',
    );
    assert.equal(res.b2.observeCalls, 0, 'the phase that needs the failed one never started');
    assert.deepEqual(
      failed.phases.filter((p) => p.retryable).map((p) => p.name),
      ['b'],
    );
    const lines = engine.events(operation.id).lines.map((l) => l.message);
    assert.ok(
      lines.some((m) => /Phase 'c', running beside it, goes? on/.test(m)),
      lines.join('\n'),
    );
  });

  it('retries one failed branch: its phase runs again, then what it stopped; the other branch is not repeated', async () => {
    const { engine } = newEngine();
    const diamond = new Diamond();
    let broken = true;
    engine.register(
      workflow(
        'diamond',
        diamond.phases({
          b: {
            act: async (ctx) => {
              if (broken)
                throw new CloudError({
                  service: 'iam',
                  operation: 'CreateRole',
                  code: 'AccessDenied',
                  message: 'no iam:CreateRole',
                });
              diamond.res.b.exists = true;
              ctx.setState({ b: 'made' });
            },
          },
        }),
      ),
    );
    const { operation } = engine.start('diamond', { name: 'x' });
    const failed = await engine.waitFor(operation.id, 3000);
    assert.deepEqual(statuses(failed), { a: 'succeeded', b: 'failed', c: 'succeeded', d: 'pending' });

    broken = false;
    const retrying = engine.retryPhase(operation.id, 'b');
    assert.deepEqual(retrying.runningPhases, ['b']);
    const done = await engine.waitFor(operation.id, 3000);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    assert.deepEqual(
      done.phases.map((p) => [p.name, p.status, p.attempts]),
      [
        ['a', 'succeeded', 1],
        ['b', 'succeeded', 2],
        ['c', 'succeeded', 1],
        ['d', 'succeeded', 1],
      ],
    );
    assert.deepEqual(
      [diamond.res.a.actCalls, diamond.res.c.actCalls, diamond.res.d.actCalls],
      [1, 1, 1],
      'only the failed branch ran again',
    );
  });

  it('a cancel stops every phase in flight: each ends cancelled, the log names them', async () => {
    const { engine } = newEngine();
    const diamond = new Diamond();
    diamond.res.b.ready = false;
    diamond.res.c.ready = false;
    engine.register(workflow('diamond', diamond.phases()));
    const { operation } = engine.start('diamond', { name: 'x' });
    await viewWhere(engine, operation.id, (v) => statuses(v).b === 'awaiting' && statuses(v).c === 'awaiting');
    engine.cancel(operation.id);
    const done = await engine.waitFor(operation.id, 3000);
    assert.equal(done.status, 'cancelled');
    assert.deepEqual(statuses(done), { a: 'succeeded', b: 'cancelled', c: 'cancelled', d: 'pending' });
    assert.match(
      engine.events(operation.id).lines.at(-1)!.message,
      /Cancelled during 'B' and 'C'\. The changes already requested/,
    );
  });

  it('a teardown failure (onFailure: continue) stops nothing; a sibling’s failure is not an earlier failure of another branch', async () => {
    const { engine } = newEngine();
    const seen: Record<string, string[]> = {};
    const report = (name: string): Partial<PhaseDefinition<Input, State>> => ({
      observe: async (ctx) => {
        seen[name] = ctx.earlierFailures.map((f) => f.phase!);
        return 'done';
      },
    });
    engine.register(
      workflow('teardown', [
        new FakeResource().phase('x', {
          onFailure: 'continue',
          observe: async () => {
            throw new CloudError({ service: 's', operation: 'Delete', code: 'Refused', message: 'no' });
          },
        }),
        new FakeResource().phase('y', { after: [], ...report('y') }),
        new FakeResource().phase('after-x', { after: ['x'], ...report('after-x') }),
      ]),
    );
    const { operation } = engine.start('teardown', { name: 'x' });
    await phaseReaches(engine, operation.id, 'x', 'failed');
    const done = await engine.waitFor(operation.id, 3000);
    assert.equal(done.status, 'failed');
    assert.deepEqual(statuses(done), { x: 'failed', y: 'skipped', 'after-x': 'skipped' });
    assert.deepEqual(seen, { y: [], 'after-x': ['x'] });
  });

  it('refuses, at registration, a phase that runs after an unknown phase or one declared after it', () => {
    const { engine } = newEngine();
    const r = new FakeResource();
    assert.throws(
      () => engine.register(workflow('w1', [r.phase('a', { after: ['nope'] })])),
      /runs after 'nope', which is not a phase of it/,
    );
    assert.throws(
      () => engine.register(workflow('w2', [r.phase('a', { after: ['b'] }), r.phase('b')])),
      /declared after it/,
    );
    assert.throws(() => engine.register(workflow('w3', [r.phase('a'), r.phase('a')])), /two phases with the same name/);
  });

  it('leaves out a phase that does not apply to the input: not journaled, not shown as done, and the phases after it go on', async () => {
    const { engine } = newEngine();
    const diamond = new Diamond();
    // `c` is for one kind of request only (say the file system of an FSx storage, for an S3 add).
    engine.register(workflow('diamond', diamond.phases({ c: { appliesTo: (i) => i.name !== 'without-c' } })));
    const without = await engine.waitFor(engine.start('diamond', { name: 'without-c' }).operation.id, 3000);
    assert.equal(without.status, 'succeeded', JSON.stringify(without.error));
    assert.deepEqual(
      without.phases.map((p) => [p.name, p.status, p.after]),
      [
        ['a', 'succeeded', []],
        ['b', 'succeeded', ['a']],
        ['d', 'succeeded', ['b']],
      ],
    );
    assert.equal(diamond.res.c.observeCalls, 0, 'the left-out phase never ran');
    assert.ok(!engine.events(without.id).lines.some((l) => l.phase === 'c'), 'nothing is journaled for it');

    const withC = await engine.waitFor(engine.start('diamond', { name: 'with-c' }).operation.id, 3000);
    assert.deepEqual(
      withC.phases.map((p) => p.name),
      ['a', 'b', 'c', 'd'],
      'an input it applies to has it',
    );
  });
});
