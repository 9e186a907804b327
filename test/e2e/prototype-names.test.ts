import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tagged } from '../helpers/inventory.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

/**
 * `constructor`, `toString`, `valueOf` and `hasOwnProperty` are valid HyperPod cluster names (and
 * `constructor` a valid name for a cluster we create); `__proto__` is not a HyperPod name at all.
 * None of them may reach a plain object lookup anywhere between the REST route and the cloud.
 */
const OBJECT_KEY_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty'];
const NODE = 'i-0123456789abcdef0';

/** Every route under /api/v1/clusters/{name} (and the active-cluster selection), with a valid body. */
function routesFor(name: string): Array<[string, string, unknown?]> {
  const c = `/api/v1/clusters/${name}`;
  return [
    ['GET', c],
    ['GET', `${c}/instance-groups`],
    [
      'POST',
      `${c}/instance-groups`,
      { name: 'extra', availabilityZone: 'us-west-2a', instanceType: 'ml.g5.8xlarge', instanceCount: 1 },
    ],
    ['PATCH', `${c}/instance-groups/workers`, { instanceCount: 2 }],
    ['GET', `${c}/autoscaling`],
    ['PUT', `${c}/autoscaling`, { enabled: true, instanceGroups: ['workers'] }],
    ['GET', `${c}/nodes`],
    ['GET', `${c}/nodes/${NODE}`],
    ['POST', `${c}/nodes/reboot`, { nodeIds: [NODE] }],
    ['POST', `${c}/nodes/replace`, { nodeIds: [NODE], confirm: true }],
    ['POST', `${c}/nodes/deep-health-check`, { instanceGroupName: 'workers', nodeIds: [NODE], confirm: true }],
    ['GET', `${c}/events`],
    ['PUT', '/api/v1/active-cluster', { name }],
  ];
}

describe('cluster names that are JavaScript object keys', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
  });
  after(() => stopAll(server, sb));

  it('every cluster route answers such an absent cluster exactly like any other absent one: a 404 problem', async () => {
    const absent = new Map<string, number>();
    for (const [method, path, body] of routesFor('ghost'))
      absent.set(`${method} ${path.replace('ghost', '{name}')}`, (await server.api(method, path, body)).status);
    for (const name of OBJECT_KEY_NAMES) {
      for (const [method, path, body] of routesFor(name)) {
        const r = await server.api(method, path, body);
        const what = `${method} ${path} → ${r.status} ${JSON.stringify(r.body)}`;
        assert.equal(r.status, absent.get(`${method} ${path.replace(name, '{name}')}`), what);
        assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/, what);
        if (method === 'GET') {
          assert.equal(r.status, 404, what);
          assert.match(r.body.detail, new RegExp(`'${name}' does not exist`), what);
        }
      }
      // Deleting a cluster of which nothing exists is a 404 naming it, as for any other name.
      const del = await server.api('DELETE', `/api/v1/clusters/${name}?confirm=true`);
      assert.equal(del.status, 404, JSON.stringify(del.body));
      assert.match(del.body.detail, new RegExp(`Cluster ${name} does not exist`));
    }
  });

  it('__proto__ is not a HyperPod name: 400 naming the field on every cluster route', async () => {
    for (const [method, path, body] of routesFor('__proto__')) {
      const r = await server.api(method, path, body);
      const what = `${method} ${path} → ${r.status} ${JSON.stringify(r.body)}`;
      assert.equal(r.status, 400, what);
      assert.equal(r.body.errors?.[0]?.path, 'name', what);
    }
  });

  it('a cluster named constructor is created end to end, listed, read and deleted', async () => {
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'constructor',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.g5.8xlarge',
      instanceCount: 1,
      storage: { s3: true },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const op = await server.waitForOperation(created.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));

    const list = await server.api('GET', '/api/v1/clusters');
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.equal(
      list.body.clusters.find((c: any) => c.name === 'constructor')?.status,
      'InService',
      JSON.stringify(list.body),
    );
    const detail = await server.api('GET', '/api/v1/clusters/constructor');
    assert.equal(detail.status, 200, JSON.stringify(detail.body));
    assert.equal(detail.body.status, 'InService');
    assert.equal(detail.body.eks?.status, 'ACTIVE');
    assert.ok(detail.body.storage?.s3Bucket, 'its bucket is shown');
    for (const path of ['instance-groups', 'nodes', 'events', 'autoscaling']) {
      const r = await server.api('GET', `/api/v1/clusters/constructor/${path}`);
      assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    }
    assert.equal(
      (await server.api('GET', '/api/v1/clusters/toString')).status,
      404,
      'a sibling prototype name is still absent',
    );
    const unknownField = await server.api('PATCH', '/api/v1/clusters/constructor/instance-groups/workers', {
      constructor: 2,
    });
    assert.equal(
      unknownField.status,
      400,
      `an unknown field named constructor is bad input, not a fixed field: ${JSON.stringify(unknownField.body)}`,
    );
    assert.equal(unknownField.body.errors?.[0]?.path, 'constructor');

    const del = await server.api('DELETE', '/api/v1/clusters/constructor?confirm=true');
    assert.equal(del.status, 202, JSON.stringify(del.body));
    const deleted = await server.waitForOperation(del.body.operation.id);
    assert.equal(deleted.status, 'succeeded', JSON.stringify(deleted.error ?? deleted.phases));
    assert.equal((await server.api('GET', '/api/v1/clusters/constructor')).status, 404);
    assert.deepEqual(tagged(await sb.inventory(), 'constructor'), [], 'nothing it made is left');
  });
});
