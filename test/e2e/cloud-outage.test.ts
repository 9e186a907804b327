import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startTestServer, stopAll, type TestServer } from '../helpers/server.js';

const SPEED = 600;

/**
 * The cloud stops answering (the sandbox's `hang` fault holds calls without a reply, as a dropped
 * VPN or a black-holed route would). The server is started with 1-second deadlines so the test
 * does not wait for the 30-second default.
 */
describe('the cloud stops answering', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    sb = await startTestSandbox({ speed: SPEED });
    server = await startTestServer(sb, { speed: SPEED, cloudTimeouts: { connectMs: 1000, requestMs: 1000 } });
  });
  after(async () => {
    await sb?.admin('/_sandbox/faults', { method: 'DELETE' });
    await stopAll(server, sb);
  });

  const hang = async (service: string, seconds: number, operation?: string): Promise<string> => {
    const r = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'hang', service, seconds, ...(operation ? { operation } : {}) },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body.faults[0].id;
  };
  const active = async (id: string) =>
    (await sb.admin('/_sandbox/faults')).body.faults.some((f: { id: string }) => f.id === id);
  const operation = async (id: string) => (await server.api('GET', `/api/v1/operations/${id}`)).body;
  const phase = (op: any, name: string) => op.phases.find((p: any) => p.name === name);

  it('a read answers a 504 problem naming the silent AWS call, without waiting for the cloud', async () => {
    const id = await hang('sagemaker', 300);
    const r = await server.api('GET', '/api/v1/clusters');
    assert.equal(r.status, 504, JSON.stringify(r.body));
    assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.equal(r.body.code, 'TimeoutError');
    assert.match(r.body.detail, /^AWS is not answering: sagemaker ListClusters took longer than 1 s; check/);
    assert.ok(await active(id), 'answered while the cloud was still silent');
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    assert.equal((await server.api('GET', '/api/v1/clusters')).status, 200);
  });

  it('an operation awaiting EKS through the silence shows "AWS is not answering, retrying", then carries on and succeeds', async () => {
    // Hold sandbox time still so the EKS create stays in progress while the cloud is silent.
    await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: 0.001 } });
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'outage',
      availabilityZone: 'us-west-2c',
      instanceType: 'ml.g5.8xlarge',
      instanceCount: 1,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const id = created.body.operation.id;
    let op = await operation(id);
    for (let i = 0; i < 200 && phase(op, 'eks').status !== 'awaiting'; i++) {
      assert.equal(op.status, 'running', JSON.stringify(op.error));
      await sb.advance(15);
      await new Promise((r) => setTimeout(r, 20));
      op = await operation(id);
    }
    assert.equal(phase(op, 'eks').status, 'awaiting', 'the EKS cluster is being created');

    const fault = await hang('eks', 5);
    for (let i = 0; i < 400 && phase(op, 'eks').progress !== 'AWS is not answering, retrying'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      op = await operation(id);
    }
    assert.equal(phase(op, 'eks').progress, 'AWS is not answering, retrying', JSON.stringify(phase(op, 'eks')));
    assert.equal(op.status, 'running');
    assert.equal(phase(op, 'eks').status, 'awaiting', 'still waiting on the same EKS create, not failed');
    while (await active(fault)) await new Promise((r) => setTimeout(r, 100));

    await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: SPEED } });
    const done = await server.waitForOperation(id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error ?? done.phases));
    const lines = (await server.api('GET', `/api/v1/operations/${id}/events?limit=1000`)).body.lines as Array<{
      level: string;
      message: string;
      phase?: string;
    }>;
    // The AWS outage's lines. (With 1 s deadlines and the sandbox in this process, a loaded machine can also make one
    // Kubernetes call of a later phase late — a separate, honest "The Kubernetes API is not answering" line.)
    const silence = lines.filter((l) => /^AWS is not answering/.test(l.message));
    assert.equal(silence.length, 1, `one line for the whole outage, not one per attempt: ${JSON.stringify(silence)}`);
    assert.equal(silence[0]!.level, 'warn');
    assert.equal(silence[0]!.phase, 'eks');
    assert.match(silence[0]!.message, /^AWS is not answering \(eks DescribeCluster: TimeoutError\); retrying/);
    assert.equal(lines.filter((l) => /^AWS answers again after \d+ s/.test(l.message)).length, 1);
    assert.equal(
      (await sb.calls({ service: 'eks', operation: 'CreateCluster' })).filter((c) => c.status < 300).length,
      1,
      'the EKS cluster was created once',
    );
  });

  it('a silent call the view could do without (the tags that say who made a cluster) is still a 504, not a slow half answer', async () => {
    const id = await hang('sagemaker', 300, 'ListTags');
    const r = await server.api('GET', '/api/v1/clusters');
    assert.equal(r.status, 504, JSON.stringify(r.body));
    assert.match(r.body.detail, /^AWS is not answering: sagemaker ListTags took longer than 1 s/);
    assert.ok(await active(id));
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    assert.equal(
      (await server.api('GET', '/api/v1/clusters')).body.clusters.find((c: any) => c.name === 'outage')
        ?.managedByInstantStart,
      true,
    );
  });

  it('a Kubernetes read behind a REST route answers 504 too when the API server is silent', async () => {
    const id = await hang('kubernetes', 300, 'GET');
    const r = await server.api('GET', '/api/v1/clusters/outage/nodes');
    assert.equal(r.status, 504, JSON.stringify(r.body));
    assert.equal(r.body.code, 'TimeoutError');
    assert.match(
      r.body.detail,
      /^The Kubernetes API of EKS cluster outage-eks is not answering: kubernetes list (Node|Pod) took longer than 1 s/,
    );
    assert.ok(await active(id));
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    assert.equal((await server.api('GET', '/api/v1/clusters/outage/nodes')).status, 200);
  });
});
