import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OperationConflictError } from '../../src/domain/errors.js';
import type { OperationEngine } from '../../src/engine/engine.js';
import { exclusive, shared, type WorkflowDefinition } from '../../src/engine/workflow.js';
import { openMemoryDatabase } from '../../src/store/database.js';
import { deferred, FakeResource, newEngine, phaseReaches, viewWhere, type Input, type State } from './helpers.js';

/**
 * The product's lock shapes on pretend clusters: a create or delete holds `cluster/<c>` alone; a group
 * change holds `cluster/<c>` shared and `cluster/<c>/update-cluster` alone.
 */
type GroupInput = Input & { cluster: string };
const cluster = (c: string) => `cluster/${c}`;
const channel = (c: string) => `cluster/${c}/update-cluster`;

function clusterWorkflow(kind: string, gate?: Promise<void>): WorkflowDefinition<Input, State> {
  const res = new FakeResource();
  return {
    kind,
    target: (i) => cluster(i.name),
    locks: (i) => [exclusive(cluster(i.name))],
    initialState: () => ({}),
    phases: [res.phase('work', { await: async () => ({ done: gate ? await isSettled(gate) : false }) })],
  };
}

function groupWorkflow(kind: string, gates: Map<string, Promise<void>>): WorkflowDefinition<Input, State> {
  const res = new FakeResource();
  const input = (i: Input) => i as GroupInput;
  return {
    kind,
    target: (i) => `${cluster(input(i).cluster)}/instance-group/${i.name}`,
    locks: (i) => [shared(cluster(input(i).cluster)), exclusive(channel(input(i).cluster))],
    initialState: () => ({}),
    phases: [
      res.phase('group', {
        await: async (ctx) => {
          const gate = gates.get(`${input(ctx.input).cluster}/${ctx.input.name}`);
          return { done: gate ? await isSettled(gate) : false };
        },
      }),
    ],
  };
}

/** Whether a promise has settled, without waiting for it. */
async function isSettled(p: Promise<void>): Promise<boolean> {
  let settled = false;
  void p.then(() => (settled = true));
  await Promise.resolve();
  await Promise.resolve();
  return settled;
}

function registerAll(engine: OperationEngine, gates = new Map<string, Promise<void>>()) {
  engine.register(clusterWorkflow('create-cluster'));
  engine.register(clusterWorkflow('delete-cluster'));
  engine.register(groupWorkflow('add-instance-group', gates));
  engine.register(groupWorkflow('scale-instance-group', gates));
}

/**
 * The 409 names the running operation, its status and what it holds; how to wait for it (wait_for_operation, its
 * URL) is added by the faces, where test/api/operation-links.test.ts checks it.
 */
function namesHolder(id: string, kind: string, resource: string) {
  return (err: unknown) => {
    assert.ok(err instanceof OperationConflictError, String(err));
    assert.equal(err.operation.id, id);
    assert.equal(err.operation.kind, kind);
    assert.ok(['pending', 'running'].includes(err.operation.status), err.operation.status);
    assert.equal(err.resource, resource);
    assert.ok(err.message.includes(id) && err.message.includes(kind), err.message);
    assert.doesNotMatch(err.message, /wait_for_operation|\/api\//, 'the engine names no tool and no URL');
    return true;
  };
}

describe('locks: what runs beside what', () => {
  it('refuses a delete of a cluster while a group is being added to it (409 naming the add), and takes it once the add ends', async () => {
    const gates = new Map<string, Promise<void>>();
    const added = deferred();
    gates.set('demo/gpu', added.promise);
    const { engine } = newEngine();
    registerAll(engine, gates);

    const add = engine.start('add-instance-group', { cluster: 'demo', name: 'gpu' });
    await phaseReaches(engine, add.operation.id, 'group', 'awaiting');
    assert.throws(
      () => engine.start('delete-cluster', { name: 'demo' }),
      namesHolder(add.operation.id, 'add-instance-group', cluster('demo')),
    );
    assert.equal(engine.list({ kind: 'delete-cluster' }).length, 0, 'nothing was journaled for the refused delete');

    added.resolve();
    assert.equal((await engine.waitFor(add.operation.id, 3000)).status, 'succeeded');
    const del = engine.start('delete-cluster', { name: 'demo' });
    assert.equal(del.existing, false, 'the lock went with the operation');
    await engine.stop();
  });

  it('refuses a second group change on one cluster while the first runs; the same request gets the first back', async () => {
    const { engine } = newEngine();
    registerAll(engine);
    const first = engine.start('add-instance-group', { cluster: 'demo', name: 'gpu' }, { idempotencyKey: 'add-gpu' });

    assert.throws(
      () => engine.start('add-instance-group', { cluster: 'demo', name: 'cpu' }),
      namesHolder(first.operation.id, 'add-instance-group', channel('demo')),
    );
    assert.throws(
      () => engine.start('scale-instance-group', { cluster: 'demo', name: 'other' }),
      namesHolder(first.operation.id, 'add-instance-group', channel('demo')),
    );

    const sameKey = engine.start('add-instance-group', { cluster: 'demo', name: 'gpu' }, { idempotencyKey: 'add-gpu' });
    assert.deepEqual(
      [sameKey.existing, sameKey.operation.id],
      [true, first.operation.id],
      'same Idempotency-Key: the existing operation',
    );
    const sameBody = engine.start('add-instance-group', { name: 'gpu', cluster: 'demo' });
    assert.deepEqual(
      [sameBody.existing, sameBody.operation.id],
      [true, first.operation.id],
      'same kind, target and input: the existing operation',
    );
    assert.equal(engine.list().length, 1);
    await engine.stop();
  });

  it('runs changes of different clusters side by side, and a create of a cluster beside another cluster’s changes', async () => {
    const { engine } = newEngine();
    registerAll(engine);
    const a = engine.start('add-instance-group', { cluster: 'a', name: 'gpu' });
    const b = engine.start('add-instance-group', { cluster: 'b', name: 'gpu' });
    const c = engine.start('create-cluster', { name: 'c' });
    assert.deepEqual([a.existing, b.existing, c.existing], [false, false, false]);
    await Promise.all(
      [a, b, c].map(({ operation }) => phaseReaches(engine, operation.id, operation.phases[0]!.name, 'awaiting')),
    );
    assert.deepEqual(
      engine
        .list({ status: 'running' })
        .map((v) => v.id)
        .sort(),
      [a, b, c].map((x) => x.operation.id).sort(),
      'all three run at once',
    );
    assert.throws(
      () => engine.start('add-instance-group', { cluster: 'c', name: 'gpu' }),
      namesHolder(c.operation.id, 'create-cluster', cluster('c')),
      'a cluster being created takes no change yet',
    );
    await engine.stop();
  });

  it('derives locks from the journal: after a restart the unfinished operation holds them before and after it resumes', async () => {
    const db = openMemoryDatabase();
    const before = newEngine(db);
    registerAll(before.engine);
    const add = before.engine.start('add-instance-group', { cluster: 'demo', name: 'gpu' });
    await phaseReaches(before.engine, add.operation.id, 'group', 'awaiting');
    await before.engine.stop(); // a crash: the journal says the add is running

    const after = newEngine(db);
    registerAll(after.engine);
    assert.throws(
      () => after.engine.start('delete-cluster', { name: 'demo' }),
      namesHolder(add.operation.id, 'add-instance-group', cluster('demo')),
      'not yet resumed, still holding',
    );
    after.engine.resume();
    await phaseReaches(after.engine, add.operation.id, 'group', 'awaiting');
    assert.throws(
      () => after.engine.start('scale-instance-group', { cluster: 'demo', name: 'gpu' }),
      namesHolder(add.operation.id, 'add-instance-group', channel('demo')),
    );
    await after.engine.stop();
  });

  it('a failed operation holds nothing; its retry takes the locks again, or is refused naming the operation that took them', async () => {
    const { engine } = newEngine();
    let fail = true;
    engine.register({
      kind: 'add-instance-group',
      target: (i) => `cluster/${(i as GroupInput).cluster}/instance-group/${i.name}`,
      locks: (i) => [shared(cluster((i as GroupInput).cluster)), exclusive(channel((i as GroupInput).cluster))],
      initialState: () => ({}),
      phases: [
        new FakeResource().phase('group', {
          observe: async () => {
            if (fail) throw new Error('no capacity');
            return 'done';
          },
        }),
      ],
    });
    engine.register(clusterWorkflow('delete-cluster'));
    const add = engine.start('add-instance-group', { cluster: 'demo', name: 'gpu' });
    assert.equal((await engine.waitFor(add.operation.id, 3000)).status, 'failed');

    const del = engine.start('delete-cluster', { name: 'demo' });
    assert.equal(del.existing, false, 'the failed add holds no lock');
    assert.throws(
      () => engine.retryPhase(add.operation.id, 'group'),
      namesHolder(del.operation.id, 'delete-cluster', cluster('demo')),
    );
    assert.equal(engine.get(add.operation.id).status, 'failed', 'the refused retry changed nothing');

    engine.cancel(del.operation.id);
    await viewWhere(engine, del.operation.id, (v) => v.status === 'cancelled');
    fail = false;
    assert.equal(engine.retryPhase(add.operation.id, 'group').status, 'running');
    assert.equal((await engine.waitFor(add.operation.id, 3000)).status, 'succeeded');
  });
});
