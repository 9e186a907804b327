import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { call } from '../mcp/client-helpers.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { tagged } from '../helpers/inventory.js';

const SPEED = 600;
const request = (name: string) => ({
  name,
  availabilityZone: 'us-west-2c',
  instanceType: 'ml.g5.8xlarge',
  instanceCount: 1,
  storage: { s3: true },
});

describe('faults: a failed phase fails alone, is retried alone; throttling is absorbed; delete after failure leaves nothing', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let mcp: Client;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    mcp = new Client({ name: 'e2e-faults', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  after(() => stopAll(mcp, server, sb));

  it('a failed HyperPod create fails only that phase with the AWS message; retrying the phase completes', async () => {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'create-failure',
        service: 'sagemaker',
        name: 'flaky',
        message: 'Instance ml.g5.8xlarge failed lifecycle configuration',
      },
    });
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
    for (const name of ['network', 'nat-ready', 'iam', 'eks', 'dependencies', 'storage'])
      assert.ok(['succeeded', 'skipped'].includes(byName[name].status), `${name} ${byName[name].status}`);
    assert.equal(failed.error.phase, 'hyperpod');

    const notFailed = await server.api('POST', `/api/v1/operations/${failed.id}/phases/network/retry`);
    assert.equal(notFailed.status, 409, 'only the failed phase can be retried');

    // Through MCP, as an agent retries: a fresh retry is accepted as such, not "already under way".
    const retried = await call(mcp, 'retry_operation_phase', { operationId: failed.id, phase: 'hyperpod' });
    assert.equal(retried.isError, undefined, retried.text);
    assert.equal((retried.structuredContent as { existing: boolean }).existing, false);
    assert.doesNotMatch(retried.text, /already/, retried.text);
    assert.match(retried.text, /accepted as operation/);
    const done = await server.waitForOperation(failed.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error ?? done.phases));
    assert.equal(done.phases.find((p: any) => p.name === 'hyperpod').attempts, 2);
    assert.equal(
      done.phases.find((p: any) => p.name === 'storage').attempts,
      1,
      'the branch that did not fail was not run again',
    );
    assert.equal(
      (await sb.calls({ service: 'eks', operation: 'CreateCluster' })).filter((c) => c.status < 300).length,
      1,
      'earlier phases did not run again',
    );
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
    const throttled = (await sb.calls()).filter(
      (c) => c.errorCode && /Throttl|RequestLimitExceeded|SlowDown/.test(c.errorCode),
    );
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
  it('a fresh cancel_operation says it was accepted, not "already under way"; a second one says it was asked already', async () => {
    const created = await server.api('POST', '/api/v1/clusters', request('halted'));
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const id = created.body.operation.id as string;
    const cancelled = await call(mcp, 'cancel_operation', { operationId: id });
    assert.equal(cancelled.isError, undefined, cancelled.text);
    assert.equal((cancelled.structuredContent as { existing: boolean }).existing, false, cancelled.text);
    assert.doesNotMatch(cancelled.text, /already/, cancelled.text);
    const again = await server.api('POST', `/api/v1/operations/${id}/cancel`);
    // Still stopping: the same cancellation, asked before (existing); already stopped: nothing left to cancel (409).
    if (again.status === 202) assert.equal(again.body.existing, true, JSON.stringify(again.body));
    else assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.equal((await server.waitForOperation(id)).status, 'cancelled');
    const del = await server.api('DELETE', '/api/v1/clusters/halted?confirm=true');
    if (del.status === 202) assert.equal((await server.waitForOperation(del.body.operation.id)).status, 'succeeded');
    assert.deepEqual(tagged(await sb.inventory(), 'halted'), []);
  });

  it('deleting after a failed create leaves nothing tagged in the sandbox', async () => {
    await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'create-failure', service: 'eks', name: 'broken-eks', message: 'The subnets lack free addresses' },
    });
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
