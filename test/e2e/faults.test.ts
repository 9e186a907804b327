import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { tagged } from '../helpers/inventory.js';

const SPEED = 600;
const request = (name: string) => ({ name, availabilityZone: 'us-west-2c', instanceType: 'ml.g5.8xlarge', instanceCount: 1, storage: { s3: true } });

describe('faults: a failed phase fails alone, is retried alone; throttling is absorbed; delete after failure leaves nothing', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
  });
  after(() => stopAll(server, sb));

  it('a failed HyperPod create fails only that phase with the AWS message; retrying the phase completes', async () => {
    const fault = await sb.admin('/_sandbox/faults', { method: 'POST', body: { type: 'create-failure', service: 'sagemaker', name: 'flaky', message: 'Instance ml.g5.8xlarge failed lifecycle configuration' } });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    const created = await server.api('POST', '/api/v1/clusters', request('flaky'));
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const failed = await server.waitForOperation(created.body.operation.id);
    assert.equal(failed.status, 'failed');
    const byName = Object.fromEntries(failed.phases.map((p: any) => [p.name, p]));
    assert.equal(byName.hyperpod.status, 'failed');
    assert.match(byName.hyperpod.error.message, /failed lifecycle configuration/);
    assert.equal(byName.hyperpod.retryable, true);
    // Storage does not need HyperPod (docs/OPERATIONS.md, create-cluster): it ran beside it and is done.
    for (const name of ['network', 'nat-ready', 'iam', 'eks', 'dependencies', 'storage']) assert.ok(['succeeded', 'skipped'].includes(byName[name].status), `${name} ${byName[name].status}`);
    assert.equal(failed.error.phase, 'hyperpod');

    const notFailed = await server.api('POST', `/api/v1/operations/${failed.id}/phases/network/retry`);
    assert.equal(notFailed.status, 409, 'only the failed phase can be retried');

    const retried = await server.api('POST', `/api/v1/operations/${failed.id}/phases/hyperpod/retry`);
    assert.equal(retried.status, 202, JSON.stringify(retried.body));
    const done = await server.waitForOperation(failed.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error ?? done.phases));
    assert.equal(done.phases.find((p: any) => p.name === 'hyperpod').attempts, 2);
    assert.equal(done.phases.find((p: any) => p.name === 'storage').attempts, 1, 'the branch that did not fail was not run again');
    assert.equal((await sb.calls({ service: 'eks', operation: 'CreateCluster' })).filter((c) => c.status < 300).length, 1, 'earlier phases did not run again');
  });

  it('completes while 30 % of calls are throttled', async () => {
    for (const service of ['ec2', 'eks', 'sagemaker', 'iam', 's3', 'sts']) {
      const r = await sb.admin('/_sandbox/faults', { method: 'POST', body: { type: 'throttle', service, rate: 0.3 } });
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
    const created = await server.api('POST', '/api/v1/clusters', request('throttled'));
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const op = await server.waitForOperation(created.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    const throttled = (await sb.calls()).filter((c) => c.errorCode && /Throttl|RequestLimitExceeded|SlowDown/.test(c.errorCode));
    assert.ok(throttled.length > 10, `calls were throttled (${throttled.length})`);
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
  });

  it('deletes the clusters it made (freeing their quota)', async () => {
    for (const name of ['flaky', 'throttled']) {
      const del = await server.api('DELETE', `/api/v1/clusters/${name}?confirm=true`);
      const op = await server.waitForOperation(del.body.operation.id);
      assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
      assert.deepEqual(tagged(await sb.inventory(), name), []);
    }
  });
  it('deleting after a failed create leaves nothing tagged in the sandbox', async () => {
    await sb.admin('/_sandbox/faults', { method: 'POST', body: { type: 'create-failure', service: 'eks', name: 'broken-eks', message: 'The subnets lack free addresses' } });
    const created = await server.api('POST', '/api/v1/clusters', request('broken'));
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const failed = await server.waitForOperation(created.body.operation.id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.phase, 'eks');
    assert.ok(tagged(await sb.inventory(), 'broken').length > 0, 'the failed create left resources to clean up');
    const del = await server.api('DELETE', '/api/v1/clusters/broken?confirm=true');
    assert.equal(del.status, 202, JSON.stringify(del.body));
    const op = await server.waitForOperation(del.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    assert.deepEqual(tagged(await sb.inventory(), 'broken'), []);
  });

});
