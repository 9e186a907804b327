import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const SPEED = 600;
const groupsUrl = '/api/v1/clusters/guarded/instance-groups';

/** A 409 problem+json that names the running operation and how to wait for it. */
function assertNamesOperation(answer: { status: number; body: any; headers: Headers }, id: string, kind: string): void {
  assert.equal(answer.status, 409, JSON.stringify(answer.body));
  assert.match(answer.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.equal(answer.body.operation.id, id);
  assert.equal(answer.body.operation.kind, kind);
  assert.equal(answer.body.operation.status, 'running');
  assert.equal(answer.body.operation.statusTool, 'wait_for_operation');
  assert.equal(answer.body.operation.statusUrl, `/api/v1/operations/${id}`);
  assert.ok(answer.body.detail.includes(id) && answer.body.detail.includes('wait_for_operation'), answer.body.detail);
}

describe('operations lock what they change: a delete or a second group change while a group is added answers 409 naming it (REST, sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'guarded',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
  });
  after(() => stopAll(server, sb));

  it('refuses them while the add runs, returns the add to its own repeat, and lets the delete through once the add ended', async () => {
    await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: 0.001 } }); // the new group's nodes take their time
    let addId = '';
    try {
      const add = await server.api(
        'POST',
        groupsUrl,
        { name: 'gpu', availabilityZone: 'us-west-2b', instanceType: 'ml.c5.xlarge', instanceCount: 1 },
        { 'idempotency-key': 'add-gpu' },
      );
      assert.equal(add.status, 202, JSON.stringify(add.body));
      addId = add.body.operation.id;

      assertNamesOperation(
        await server.api('DELETE', '/api/v1/clusters/guarded?confirm=true'),
        addId,
        'add-instance-group',
      );
      assertNamesOperation(
        await server.api('POST', groupsUrl, {
          name: 'cpu',
          availabilityZone: 'us-west-2b',
          instanceType: 'ml.c5.xlarge',
          instanceCount: 1,
        }),
        addId,
        'add-instance-group',
      );
      assertNamesOperation(
        await server.api('PATCH', `${groupsUrl}/workers`, { instanceCount: 2 }),
        addId,
        'add-instance-group',
      );

      const repeat = await server.api(
        'POST',
        groupsUrl,
        { name: 'gpu', availabilityZone: 'us-west-2b', instanceType: 'ml.c5.xlarge', instanceCount: 1 },
        { 'idempotency-key': 'add-gpu' },
      );
      assert.equal(repeat.status, 202, JSON.stringify(repeat.body));
      assert.deepEqual([repeat.body.existing, repeat.body.operation.id], [true, addId]);

      const running = await server.api('GET', '/api/v1/operations?status=running');
      assert.deepEqual(
        running.body.operations.map((o: any) => o.id),
        [addId],
        'nothing else was started',
      );
    } finally {
      await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: SPEED } });
    }
    assert.equal((await server.waitForOperation(addId)).status, 'succeeded');

    const del = await server.api('DELETE', '/api/v1/clusters/guarded?confirm=true');
    assert.equal(del.status, 202, JSON.stringify(del.body));
    assert.equal(del.body.existing, false);
    assert.equal((await server.waitForOperation(del.body.operation.id)).status, 'succeeded');
  });
});
