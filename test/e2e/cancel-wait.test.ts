import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const SPEED = 600;

/**
 * Retrying a failed HyperPod create first deletes the failed cluster and waits until it is gone.
 * That wait used to be a loop inside act (up to 600 s, invisible to the journal). It is an await
 * step now: the phase shows it as awaiting with its progress, and a cancel ends it where it stands.
 */
describe('the wait for a failed HyperPod cluster to go is an await step: shown, and cancellable mid-wait', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
  });
  after(() => stopAll(server, sb));

  const hyperpodStatus = async (name: string) =>
    (await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', name], { allowFailure: true })).json?.ClusterStatus as string | undefined;

  it('a retry deletes the failed cluster, awaits its going with progress, and stops at once when cancelled', async () => {
    const fault = await sb.admin('/_sandbox/faults', { method: 'POST', body: { type: 'create-failure', service: 'sagemaker', name: 'gone-slowly', message: 'Instance ml.c5.xlarge failed lifecycle configuration' } });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    const created = await server.api('POST', '/api/v1/clusters', { name: 'gone-slowly', availabilityZone: 'us-west-2a', instanceType: 'ml.c5.xlarge', instanceCount: 1, storage: { s3: false } });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const id = created.body.operation.id;
    const failed = await server.waitForOperation(id);
    assert.equal(failed.error?.phase, 'hyperpod', JSON.stringify(failed.error));
    assert.equal(await hyperpodStatus('gone-slowly'), 'Failed');

    // Slow the sandbox to real time: deleting the cluster now takes a minute or so of real time.
    assert.equal((await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: 1 } })).status, 200);
    assert.equal((await server.api('POST', `/api/v1/operations/${id}/phases/hyperpod/retry`)).status, 202);
    let waiting: any;
    for (let i = 0; i < 400 && !waiting; i++) {
      const op = (await server.api('GET', `/api/v1/operations/${id}`)).body;
      const phase = op.phases.find((p: any) => p.name === 'hyperpod');
      if (phase.status === 'awaiting' && /Deleting the failed HyperPod cluster/.test(phase.progress ?? '')) waiting = phase;
      else await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(waiting, 'the phase shows the wait for the failed cluster to go');
    assert.equal(waiting.attempts, 2);

    assert.equal((await server.api('POST', `/api/v1/operations/${id}/cancel`)).status, 202);
    const cancelled = await server.waitForOperation(id);
    assert.equal(cancelled.status, 'cancelled');
    const phase = cancelled.phases.find((p: any) => p.name === 'hyperpod');
    assert.equal(phase.status, 'cancelled');
    assert.match(phase.progress, /Deleting the failed HyperPod cluster/);
    assert.equal(await hyperpodStatus('gone-slowly'), 'Deleting', 'the operation stopped while the cluster was still going: the wait was cut short');
    const creates = (await sb.calls({ service: 'sagemaker', operation: 'CreateCluster' })).filter((c) => c.status < 300);
    assert.equal(creates.length, 1, 'nothing was made again after the cancel');

    const events = (await server.api('GET', `/api/v1/operations/${id}/events?limit=500`)).body;
    const lines: string[] = (events.lines ?? events.events ?? []).map((l: any) => l.message);
    assert.ok(lines.some((m) => /Deleting the failed HyperPod cluster gone-slowly before creating it again/.test(m)), lines.join('\n'));
    assert.equal((await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: SPEED } })).status, 200);
  });
});
