import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tagged } from '../helpers/inventory.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const SPEED = 600;
const request = (name: string) => ({
  name,
  availabilityZone: 'us-west-2c',
  instanceType: 'ml.g5.8xlarge',
  instanceCount: 1,
  storage: { s3: true },
});

/**
 * A cluster is visible from the moment its create is accepted until a delete has removed what was
 * made: while the create runs (before HyperPod knows it), and after a create that stopped part-way.
 */
describe('cluster visibility: creating, half-made, deleted', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
  });
  after(() => stopAll(server, sb));

  const listed = async (name: string) =>
    (await server.api('GET', '/api/v1/clusters')).body.clusters.find((c: any) => c.name === name);

  it('GET /clusters/{name} while the NAT gateway and EKS are awaited side by side answers 200 Creating with its operation', async () => {
    await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: 0.001 } }); // the NAT gateway stays pending, EKS CREATING
    let deleteId = '';
    try {
      const created = await server.api('POST', '/api/v1/clusters', request('early'));
      assert.equal(created.status, 202, JSON.stringify(created.body));
      const id = created.body.operation.id;
      const awaiting = (op: any, name: string) => op.phases.find((p: any) => p.name === name).status === 'awaiting';
      let op = (await server.api('GET', `/api/v1/operations/${id}`)).body;
      for (let i = 0; i < 500 && !(awaiting(op, 'nat-ready') && awaiting(op, 'eks')); i++) {
        await new Promise((r) => setTimeout(r, 20));
        op = (await server.api('GET', `/api/v1/operations/${id}`)).body;
      }
      assert.deepEqual(
        op.runningPhases,
        ['nat-ready', 'eks'],
        'EKS is created while the NAT gateway becomes available',
      );
      assert.equal(op.currentPhase, 'nat-ready');
      const detail = await server.api('GET', '/api/v1/clusters/early');
      assert.equal(detail.status, 200, JSON.stringify(detail.body));
      assert.equal(detail.body.status, 'Creating');
      assert.deepEqual(detail.body.activeOperation, {
        id,
        kind: 'create-cluster',
        status: 'running',
        currentPhase: 'nat-ready',
        runningPhases: ['nat-ready', 'eks'],
      });
      assert.equal((await listed('early'))?.status, 'Creating');

      // Cancelled part-way, it made a VPC and more: it stays listed, as Failed, until deleted.
      assert.equal((await server.api('POST', `/api/v1/operations/${id}/cancel`)).status, 202);
      assert.equal((await server.waitForOperation(id)).status, 'cancelled');
      const cancelled = await listed('early');
      assert.equal(cancelled?.status, 'Failed', JSON.stringify(cancelled));
      assert.equal(cancelled.failedOperation.status, 'cancelled');
      assert.ok(tagged(await sb.inventory(), 'early').length > 0, 'the cancelled create left resources');

      // The cancel left the EKS cluster CREATING (it is made beside the NAT wait), which EKS refuses to
      // delete: the delete awaits the end of its create, then deletes it.
      const del = await server.api('DELETE', '/api/v1/clusters/early?confirm=true');
      assert.equal(del.status, 202, JSON.stringify(del.body));
      deleteId = del.body.operation.id;
      let eks: any;
      for (let i = 0; i < 500 && !/CREATING: deleted once that ends/.test(eks?.progress ?? ''); i++) {
        await new Promise((r) => setTimeout(r, 20));
        eks = (await server.api('GET', `/api/v1/operations/${deleteId}`)).body.phases.find(
          (p: any) => p.name === 'eks',
        );
      }
      assert.equal(eks.status, 'awaiting', JSON.stringify(eks));
      assert.match(eks.progress, /eks CREATING: deleted once that ends/);
    } finally {
      await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: SPEED } });
    }
    const deleted = await server.waitForOperation(deleteId);
    assert.equal(deleted.status, 'succeeded', JSON.stringify(deleted.error ?? deleted.phases));
    assert.equal(deleted.phases.find((p: any) => p.name === 'eks').attempts, 1, 'waited, then deleted, in one attempt');
    assert.equal(await listed('early'), undefined);
  });

  it('a create that failed at EKS stays listed as Failed with its operation and what to do, until it is deleted', async () => {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'create-failure', service: 'eks', name: 'broken-eks', message: 'The subnets lack free addresses' },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    const created = await server.api('POST', '/api/v1/clusters', request('broken'));
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const failed = await server.waitForOperation(created.body.operation.id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.phase, 'eks');
    assert.ok(
      tagged(await sb.inventory(), 'broken').length > 0,
      'the failed create left its VPC, NAT gateway and roles',
    );

    const summary = await listed('broken');
    assert.ok(summary, 'the half-made cluster is still listed');
    assert.equal(summary.status, 'Failed');
    assert.equal(summary.managedByInstantStart, true);
    assert.equal(summary.activeOperation, undefined);
    assert.equal(summary.failedOperation.id, failed.id);
    assert.equal(summary.failedOperation.kind, 'create-cluster');
    assert.equal(summary.failedOperation.status, 'failed');
    assert.equal(summary.failedOperation.phase, 'eks');
    assert.match(summary.failedOperation.message, /The subnets lack free addresses/);
    assert.match(summary.failedOperation.remedy, /DELETE \/api\/v1\/clusters\/broken\?region=us-west-2&confirm=true/);
    assert.match(summary.failedOperation.remedy, new RegExp(`/api/v1/operations/${failed.id}/phases/eks/retry`));

    const detail = await server.api('GET', '/api/v1/clusters/broken');
    assert.equal(detail.status, 200, JSON.stringify(detail.body));
    assert.equal(detail.body.status, 'Failed');
    assert.equal(detail.body.failedOperation.id, failed.id);
    assert.equal(detail.body.eks?.status, 'FAILED', 'the EKS cluster it made is shown');

    const del = await server.api('DELETE', '/api/v1/clusters/broken?confirm=true');
    assert.equal(del.status, 202, JSON.stringify(del.body));
    const deleting = await listed('broken');
    assert.ok(deleting, 'listed while it is being deleted');
    const deleted = await server.waitForOperation(del.body.operation.id);
    assert.equal(deleted.status, 'succeeded', JSON.stringify(deleted.error ?? deleted.phases));
    assert.equal(await listed('broken'), undefined, 'gone from the list once deleted');
    assert.equal((await server.api('GET', '/api/v1/clusters/broken')).status, 404);
    assert.deepEqual(tagged(await sb.inventory(), 'broken'), []);
  });
});
