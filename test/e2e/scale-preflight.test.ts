import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HYPERPOD_HOURLY_USD } from '../../sandbox/catalog/prices.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const SPEED = 600;
const groupUrl = '/api/v1/clusters/scaler/instance-groups/workers';
// ml.c5.xlarge: a new sandbox account may run 10 across its HyperPod clusters.
const QUOTA = 10;

describe("scale runs the create's checks first (REST): quota problems are a 422 before anything is sent", () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'scaler',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
  });
  after(() => stopAll(server, sb));
  /** SageMaker changes so far (UpdateCluster, BatchAddClusterNodes, …): a refusal must add none. */
  const sagemakerMutations = async () => (await sb.calls({ service: 'sagemaker', mutating: true })).length;

  it('the preflight answers what the growth adds and whether it fits, changing nothing', async () => {
    const mutationsBefore = (await sb.calls({ mutating: true })).length;
    const fits = await server.api('POST', `${groupUrl}/preflight/scale`, { instanceCount: QUOTA });
    assert.equal(fits.status, 200, JSON.stringify(fits.body));
    assert.deepEqual([fits.body.ok, fits.body.targetCount, fits.body.adds], [true, 1, QUOTA - 1]);
    const over = await server.api('POST', `${groupUrl}/preflight/scale`, { instanceCount: QUOTA + 1 });
    assert.equal(over.body.ok, false);
    const problem = over.body.problems.find((p: any) => p.code === 'QuotaExceeded');
    assert.equal(problem.field, 'instanceCount');
    assert.match(
      problem.message,
      /ml\.c5\.xlarge for cluster usage' is 10 in us-west-2; existing HyperPod clusters use 1 and this request adds 10, 11 in all/,
    );
    assert.match(problem.remedy, /request-service-quota-increase/);
    const shrink = await server.api('POST', `${groupUrl}/preflight/scale`, { instanceCount: 0 });
    assert.deepEqual([shrink.body.ok, shrink.body.adds], [true, 0]);
    // What each changes per hour: the Price List's price of the type × the change in count, negative for a shrink.
    const price = Number(HYPERPOD_HOURLY_USD['ml.c5.xlarge']);
    assert.ok(Math.abs(fits.body.costChange.totalHourlyUsd - price * (QUOTA - 1)) < 1e-9, JSON.stringify(fits.body));
    assert.equal(fits.body.costChange.lines[0].source.serviceCode, 'AmazonSageMaker');
    assert.ok(Math.abs(shrink.body.costChange.totalHourlyUsd + price) < 1e-9, JSON.stringify(shrink.body));
    const same = await server.api('POST', `${groupUrl}/preflight/scale`, { instanceCount: 1 });
    assert.equal(same.body.costChange, undefined, 'the same count changes nothing');
    assert.equal((await sb.calls({ mutating: true })).length, mutationsBefore, 'a preflight changes nothing');
    const unknown = await server.api('POST', '/api/v1/clusters/scaler/instance-groups/nope/preflight/scale', {
      instanceCount: 2,
    });
    assert.equal(unknown.status, 400, JSON.stringify(unknown.body));
  });

  it('PATCH refuses a growth past the quota with a 422 in sentences, starting no operation and calling no UpdateCluster', async () => {
    const mutationsBefore = await sagemakerMutations();
    const opsBefore = (await server.api('GET', '/api/v1/operations')).body.operations.length;
    const r = await server.api('PATCH', groupUrl, { instanceCount: QUOTA + 1 });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.match(
      r.body.detail,
      /^Instance group workers cannot grow from 1 to 11 instances: The quota 'ml\.c5\.xlarge for cluster usage' is 10/,
    );
    assert.doesNotMatch(r.body.detail, /instanceCount:/);
    assert.ok(
      r.body.errors.some((e: any) => e.path === 'instanceCount' && /request-service-quota-increase/.test(e.message)),
      JSON.stringify(r.body),
    );
    assert.equal(await sagemakerMutations(), mutationsBefore, 'nothing was sent');
    assert.equal(
      (await server.api('GET', '/api/v1/operations')).body.operations.length,
      opsBefore,
      'no operation was started',
    );
  });

  it('a growth that fits and a confirmed shrink still run', async () => {
    const grow = await server.api('PATCH', groupUrl, { instanceCount: 2 });
    assert.equal(grow.status, 202, JSON.stringify(grow.body));
    assert.equal((await server.waitForOperation(grow.body.operation.id)).status, 'succeeded');
    const shrink = await server.api('PATCH', groupUrl, { instanceCount: 1, confirm: true });
    assert.equal(shrink.status, 202, JSON.stringify(shrink.body));
    assert.equal((await server.waitForOperation(shrink.body.operation.id)).status, 'succeeded');
  });

  it('a retry of a failed scale checks the quotas again: refused while the count no longer fits, retried once it does', async () => {
    // AWS refuses the scale (as it would a quota raced away): the operation fails at its call (in
    // Continuous mode a growth is BatchAddClusterNodes).
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'error',
        service: 'sagemaker',
        operation: 'BatchAddClusterNodes',
        code: 'ResourceLimitExceeded',
        status: 400,
        message: 'The account-level service limit was reached.',
        count: 1,
      },
    });
    assert.ok(fault.status < 300, JSON.stringify(fault.body));
    const scale = await server.api('PATCH', groupUrl, { instanceCount: QUOTA });
    assert.equal(scale.status, 202, JSON.stringify(scale.body));
    const failed = await server.waitForOperation(scale.body.operation.id);
    assert.equal(failed.status, 'failed', JSON.stringify(failed));
    const phase = failed.phases.find((p: any) => p.status === 'failed').name;

    // Meanwhile another group takes one more instance of the type: QUOTA for workers no longer fits.
    const extra = await server.api('POST', '/api/v1/clusters/scaler/instance-groups', {
      name: 'extra',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
    });
    assert.equal(extra.status, 202, JSON.stringify(extra.body));
    assert.equal((await server.waitForOperation(extra.body.operation.id)).status, 'succeeded');
    const mutationsBefore = await sagemakerMutations();
    const refused = await server.api('POST', `/api/v1/operations/${failed.id}/phases/${phase}/retry`);
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.ok(
      refused.body.errors.some((e: any) => e.path === 'instanceCount'),
      JSON.stringify(refused.body),
    );
    assert.equal(
      (await server.api('GET', `/api/v1/operations/${failed.id}`)).body.status,
      'failed',
      'nothing was retried',
    );
    assert.equal(await sagemakerMutations(), mutationsBefore, 'nothing was sent');

    // The other group goes: the count fits again and the same retry goes through.
    const gone = await server.api('DELETE', '/api/v1/clusters/scaler/instance-groups/extra?confirm=true');
    assert.equal((await server.waitForOperation(gone.body.operation.id)).status, 'succeeded');
    const retried = await server.api('POST', `/api/v1/operations/${failed.id}/phases/${phase}/retry`);
    assert.equal(retried.status, 202, JSON.stringify(retried.body));
    assert.equal((await server.waitForOperation(failed.id)).status, 'succeeded');
  });
});
