import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockingWithLinks, withStatusLinks } from '../../src/api/operation-links.js';
import { problemFor } from '../../src/api/problem.js';
import { OperationConflictError } from '../../src/domain/errors.js';
import { OperationViewSchema } from '../../src/domain/schemas/operations.js';
import { isSettledAnswer } from '../../src/domain/settled-answer.js';
import { exclusive, shared } from '../../src/engine/workflow.js';
import { FakeResource, newEngine, workflow } from '../engine/helpers.js';

/**
 * The engine answers operations and phases only; the faces add where to follow an operation: its REST URL and the
 * MCP tool that waits for it — on every view, and in the 409 naming an operation that holds what a request needs.
 */
describe('operation links (the faces, not the engine)', () => {
  it('a view carries statusUrl and statusTool after the engine’s fields; a finished one is one settled object', async () => {
    const { engine } = newEngine();
    const res = new FakeResource();
    engine.register(workflow('make', [res.phase('build')]));
    const { operation } = engine.start('make', { name: 'a' });
    const view = withStatusLinks(operation);
    assert.equal(view.statusUrl, `/api/v1/operations/${operation.id}`);
    assert.equal(view.statusTool, 'wait_for_operation');
    assert.deepEqual(Object.keys(view).slice(-2), ['statusUrl', 'statusTool'], 'where they always were: last');
    assert.ok(OperationViewSchema.safeParse(view).success);

    res.ready = true;
    const done = await engine.waitFor(operation.id, 3000);
    assert.equal(done.status, 'succeeded');
    const linked = withStatusLinks(engine.get(operation.id));
    assert.ok(isSettledAnswer(linked), 'its JSON is written once (answer-json.ts)');
    assert.equal(withStatusLinks(engine.get(operation.id)), linked, 'the same object for the same snapshot');
    await engine.stop();
  });

  it('a 409 from a lock clash reads as it always did: the holder, what it holds, and how to wait for it', async () => {
    const { engine } = newEngine(undefined, { idFactory: () => 'op-9' });
    const res = new FakeResource();
    engine.register(
      workflow('add-instance-group', [res.phase('group')], {
        target: () => 'cluster/us-west-2/demo/instance-group/gpu',
        locks: () => [shared('cluster/us-west-2/demo'), exclusive('cluster/us-west-2/demo/update-cluster')],
      }),
    );
    engine.register(
      workflow('delete-cluster', [new FakeResource().phase('eks')], {
        target: () => 'cluster/us-west-2/demo',
        locks: () => [exclusive('cluster/us-west-2/demo')],
      }),
    );
    engine.start('add-instance-group', { name: 'gpu' });
    let err: unknown;
    try {
      engine.start('delete-cluster', { name: 'demo' });
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof OperationConflictError, String(err));
    const problem = problemFor(err);
    assert.equal(problem.status, 409);
    assert.equal(
      problem.detail,
      'delete-cluster on cluster/us-west-2/demo cannot start: add-instance-group operation op-9 (pending) on ' +
        'cluster/us-west-2/demo/instance-group/gpu shares cluster/us-west-2/demo. Wait until it ends — ' +
        'wait_for_operation {"operationId":"op-9"} or GET /api/v1/operations/op-9 — then send this request again.',
    );
    assert.deepEqual(problem.operation, {
      id: 'op-9',
      kind: 'add-instance-group',
      status: 'pending',
      target: 'cluster/us-west-2/demo/instance-group/gpu',
      statusUrl: '/api/v1/operations/op-9',
      statusTool: 'wait_for_operation',
    });
    assert.deepEqual(blockingWithLinks(err.operation), problem.operation);
    await engine.stop();
  });
});
