import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OperationsApi } from '../../src/api/context.js';
import { InputError } from '../../src/domain/errors.js';
import {
  OPERATION_KIND_NAMES,
  OPERATION_KINDS,
  type OperationInputs,
  type OperationKind,
} from '../../src/domain/operation-kinds.js';
import { ListOperationsQuerySchema } from '../../src/domain/schemas/operations.js';
import { OperationEngine } from '../../src/engine/engine.js';
import { exclusive, type AnyWorkflow } from '../../src/engine/workflow.js';
import { openMemoryDatabase } from '../../src/store/database.js';
import { OperationsStore } from '../../src/store/operations-store.js';
import { FakeResource, FAST_POLLING } from './helpers.js';

/**
 * Compile-time checks: each `@ts-expect-error` line must fail to type-check, or the build (and so
 * `npm test`) fails. Never called: the point is that it compiles only while start() stays typed.
 */
export function startIsTypeChecked(ops: OperationsApi): void {
  // @ts-expect-error — not an operation kind
  ops.start('create-clutser', { name: 'x', region: 'us-west-2' });
  // @ts-expect-error — create-cluster needs the zone, instance type, count, …
  ops.start('create-cluster', { name: 'x', region: 'us-west-2' });
  // @ts-expect-error — the Region of a stored input is resolved, never left out
  ops.start('delete-cluster', { name: 'x', keepStorage: false });
  // @ts-expect-error — keepStorage is a boolean in the operation's input (the query's "true"/"false" is parsed before)
  ops.start('delete-cluster', { name: 'x', region: 'us-west-2', keepStorage: 'true' });
  // @ts-expect-error — a delete-instance-group input is not a scale input
  ops.start('delete-instance-group', { cluster: 'c', region: 'us-west-2', name: 'g', instanceCount: 2 });
  // @ts-expect-error — set-autoscaling's enabled is a boolean
  ops.start('set-autoscaling', { cluster: 'c', region: 'us-west-2', enabled: 'yes' });

  // The right inputs compile.
  ops.start('delete-cluster', { name: 'x', region: 'us-west-2', keepStorage: false });
  ops.start('scale-instance-group', { cluster: 'c', region: 'us-west-2', name: 'g', instanceCount: 2 });
  ops.start('set-autoscaling', { cluster: 'c', region: 'us-west-2', enabled: false });
}

/** A workflow of each kind that does nothing (its phase finds the work done). */
function standIn(kind: OperationKind): AnyWorkflow {
  const res = new FakeResource();
  res.exists = res.ready = true;
  return {
    kind,
    target: () => `t/${kind}`,
    locks: () => [exclusive(`t/${kind}`)],
    initialState: () => ({}),
    phases: [res.phase('only')],
  };
}

const engineOfKinds = () =>
  new OperationEngine<OperationInputs>({
    kinds: OPERATION_KINDS,
    store: new OperationsStore(openMemoryDatabase()),
    polling: FAST_POLLING,
  });

describe('operation kinds, written once', () => {
  it('registers exactly the kinds of the map: one missing or one extra is refused, naming it', () => {
    const missing = engineOfKinds();
    assert.throws(
      () => missing.registerAll(OPERATION_KIND_NAMES.filter((k) => k !== 'set-autoscaling').map(standIn)),
      /No workflow is registered for the operation kind\(s\) set-autoscaling/,
    );
    const extra = engineOfKinds();
    assert.throws(
      () => extra.register({ ...standIn('create-cluster'), kind: 'create-clusters' }),
      /'create-clusters' is not an operation kind/,
    );
    engineOfKinds().registerAll(OPERATION_KIND_NAMES.map(standIn));
  });

  it('parses every input with its kind’s schema at start: a wrong one is refused naming the field, a right one is journaled as parsed', async () => {
    const engine = engineOfKinds();
    engine.registerAll(OPERATION_KIND_NAMES.map(standIn));
    const wrong = { cluster: 'c', region: 'us-west-2', name: 'g', instanceCount: -1 };
    assert.throws(
      () => engine.start('scale-instance-group', wrong),
      (err: unknown) =>
        err instanceof InputError &&
        err.problems.some((p) => p.path === 'instanceCount') &&
        /scale-instance-group/.test(err.message),
    );
    assert.equal(engine.list().length, 0, 'nothing started');
    const { operation } = engine.start('create-cluster', {
      name: 'demo',
      region: 'us-west-2',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
    } as OperationInputs['create-cluster']);
    assert.deepEqual(
      [operation.input.capacityType, operation.input.deepHealthChecks, operation.input.storage],
      ['on-demand', false, { s3: true }],
      'the defaults the schema fills in are what the journal holds',
    );
    await engine.stop();
  });

  it('list filters take only known kinds', () => {
    assert.equal(ListOperationsQuerySchema.safeParse({ kind: 'delete-cluster' }).success, true);
    const bad = ListOperationsQuerySchema.safeParse({ kind: 'delete-clusters' });
    assert.equal(bad.success, false);
  });
});
