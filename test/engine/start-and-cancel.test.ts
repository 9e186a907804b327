import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConflictError, InputError, NotFoundError, OperationConflictError } from '../../src/domain/errors.js';
import { exclusive, shared } from '../../src/engine/workflow.js';
import { deferred, FakeResource, newEngine, phaseReaches, workflow } from './helpers.js';

describe('starting operations', () => {
  it('returns the same operation for the same idempotency key, whatever its status', async () => {
    const { engine } = newEngine();
    const res = new FakeResource();
    res.ready = true;
    engine.register(workflow('make', [res.phase('build')]));

    const first = engine.start('make', { name: 'a' }, { idempotencyKey: 'k-1' });
    await engine.waitFor(first.operation.id, 3000);
    const again = engine.start('make', { name: 'a' }, { idempotencyKey: 'k-1' });

    assert.equal(again.existing, true);
    assert.equal(again.operation.id, first.operation.id);
    assert.equal(again.operation.status, 'succeeded');
    assert.equal(res.actCalls, 1);
    assert.throws(() => engine.start('other', { name: 'a' }, { idempotencyKey: 'k-1' }), InputError, 'unknown kind');
  });

  it('refuses an idempotency key reused for another kind of operation', async () => {
    const { engine } = newEngine();
    engine.register(workflow('make', [new FakeResource().phase('build')]));
    engine.register(workflow('remove', [new FakeResource().phase('build')]));
    engine.start('make', { name: 'a' }, { idempotencyKey: 'k-1' });
    assert.throws(() => engine.start('remove', { name: 'b' }, { idempotencyKey: 'k-1' }), ConflictError);
    await engine.stop();
  });

  it('refuses an idempotency key reused with a different input, naming the key and the operation holding it', async () => {
    const { engine } = newEngine();
    const res = new FakeResource();
    res.ready = true;
    engine.register(workflow('make', [res.phase('build')]));
    const first = engine.start('make', { name: 'a', size: 1, labels: { x: '1', y: '2' } }, { idempotencyKey: 'k-1' });
    await engine.waitFor(first.operation.id, 3000);

    const reordered = engine.start(
      'make',
      { labels: { y: '2', x: '1' }, size: 1, name: 'a', absent: undefined },
      { idempotencyKey: 'k-1' },
    );
    assert.deepEqual(
      [reordered.existing, reordered.operation.id],
      [true, first.operation.id],
      'the same input spelled differently is the same request',
    );
    assert.throws(
      () => engine.start('make', { name: 'a', size: 2, labels: { x: '1', y: '2' } }, { idempotencyKey: 'k-1' }),
      (err: Error) =>
        err instanceof ConflictError &&
        err.field === 'Idempotency-Key' &&
        err.message.includes(`operation ${first.operation.id}`) &&
        /different request body/.test(err.message),
    );
    assert.equal(engine.list().length, 1, 'nothing new was started');
    assert.equal(res.actCalls, 1);
  });

  it('returns the running operation for the same request; locks decide what else may run beside it', async () => {
    const { engine } = newEngine();
    engine.register(workflow('create', [new FakeResource().phase('build')]));
    engine.register(workflow('delete', [new FakeResource().phase('build')]));
    engine.register(
      workflow('tag', [new FakeResource().phase('build')], {
        locks: (input) => [shared(`thing/${input.name}`), exclusive(`tags/${input.name}`)],
      }),
    );
    engine.register(
      workflow('note', [new FakeResource().phase('build')], { locks: (input) => [exclusive(`notes/${input.name}`)] }),
    );

    const first = engine.start('create', { name: 'a' });
    const second = engine.start('create', { name: 'a' });
    assert.deepEqual(
      [second.existing, second.operation.id],
      [true, first.operation.id],
      'the same request gets the running operation',
    );
    assert.throws(
      () => engine.start('create', { name: 'a', size: 2 }),
      OperationConflictError,
      'another request of the same kind on the same target is refused',
    );
    assert.throws(
      () => engine.start('delete', { name: 'a' }),
      OperationConflictError,
      'delete needs thing/a, which create holds',
    );
    assert.throws(
      () => engine.start('tag', { name: 'a' }),
      OperationConflictError,
      'tag shares thing/a, which create holds alone',
    );

    const note = engine.start('note', { name: 'a' });
    assert.equal(note.existing, false, 'an operation locking something else runs beside it');
    const elsewhere = engine.start('create', { name: 'b' });
    assert.equal(elsewhere.existing, false, 'another target is another operation');

    assert.deepEqual(
      engine
        .activeFor('thing/a')
        .map((v) => v.kind)
        .sort(),
      ['create', 'note'],
    );
    assert.deepEqual(
      engine.list({ target: 'thing/a' }).map((v) => v.kind),
      ['note', 'create'],
      'newest first',
    );
    assert.equal(engine.list({ kind: 'create' }).length, 2);
    assert.equal(engine.list({ status: 'succeeded' }).length, 0);
    assert.equal(engine.list({ limit: 1 }).length, 1);
    await engine.stop();
  });

  it('knows no operation it never started', () => {
    const { engine } = newEngine();
    assert.throws(() => engine.get('op-nope'), NotFoundError);
    assert.throws(() => engine.events('op-nope'), NotFoundError);
    assert.throws(() => engine.cancel('op-nope'), NotFoundError);
  });
});

describe('cancel', () => {
  it('aborts the phase in flight; the operation goes cancelling → cancelled and later phases stay pending', async () => {
    const { engine } = newEngine();
    const aborted = deferred<string>();
    const awaiting = deferred();
    engine.register(
      workflow('make', [
        new FakeResource().phase('build', {
          await: (ctx) => {
            awaiting.resolve();
            return new Promise((_, reject) =>
              ctx.signal.addEventListener('abort', () => {
                aborted.resolve('aborted');
                reject(ctx.signal.reason);
              }),
            );
          },
        }),
        new FakeResource().phase('finish'),
      ]),
    );
    const { operation } = engine.start('make', { name: 'a' });
    await awaiting.promise;
    const statuses: string[] = [];
    engine.on('operation', (v) => statuses.push(v.status));

    const answer = engine.cancel(operation.id);
    assert.equal(answer.status, 'cancelling');
    assert.equal(await aborted.promise, 'aborted', 'the phase saw ctx.signal abort');
    const done = await engine.waitFor(operation.id, 3000);

    assert.equal(done.status, 'cancelled');
    assert.deepEqual(
      done.phases.map((p) => p.status),
      ['cancelled', 'pending'],
    );
    assert.deepEqual([statuses[0], statuses.at(-1)], ['cancelling', 'cancelled']);
    assert.ok(done.phases.every((p) => !p.retryable));
    assert.throws(() => engine.cancel(operation.id), ConflictError, 'a finished operation cannot be cancelled');
  });

  it('cancels even when the phase ignores its signal', async () => {
    const { engine } = newEngine();
    engine.register(workflow('make', [new FakeResource().phase('build', { act: () => new Promise(() => undefined) })]));
    const { operation } = engine.start('make', { name: 'a' });
    await phaseReaches(engine, operation.id, 'build', 'acting');
    engine.cancel(operation.id);
    const done = await engine.waitFor(operation.id, 3000);
    assert.equal(done.status, 'cancelled');
    assert.match(engine.events(operation.id).lines.at(-1)!.message, /may still complete/);
  });
});
