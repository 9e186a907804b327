import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const SPEED = 600;

/**
 * Retrying a failed create first deletes what failed (a HyperPod cluster, an EKS add-on) and waits
 * until it is gone, then makes it again. Those waits used to be loops inside act (up to 600 s and
 * 120 s, invisible to the journal). They are await steps now: the phase shows them as awaiting with
 * their progress, a cancel ends them where they stand, and the make-again is the next act.
 */
describe('replacing what failed: delete, await its going, make it again — every wait an await step', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
  });
  after(() => stopAll(server, sb));

  const hyperpodStatus = async (name: string) =>
    (await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', name], { allowFailure: true })).json
      ?.ClusterStatus as string | undefined;

  it('a failed add-on install is deleted on retry, awaited until gone and installed again', async () => {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'create-failure',
        service: 'eks',
        addonName: 'cert-manager',
        message: 'cert-manager webhook did not become ready',
      },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'addon-again',
      availabilityZone: 'us-west-2a',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const id = created.body.operation.id;
    const failed = await server.waitForOperation(id);
    assert.equal(failed.error?.phase, 'dependencies', JSON.stringify(failed.error));
    assert.match(failed.error.message, /cert-manager: cert-manager webhook did not become ready/);

    assert.equal((await server.api('POST', `/api/v1/operations/${id}/phases/dependencies/retry`)).status, 202);
    const done = await server.waitForOperation(id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error ?? done.phases));
    const phase = done.phases.find((p: any) => p.name === 'dependencies');
    assert.equal(phase.attempts, 2, 'one retry of the phase did delete, wait, install and wait');
    const ok = async (operation: string) =>
      (await sb.calls({ service: 'eks', operation })).filter((c) => c.status < 300);
    assert.equal((await ok('DeleteAddon')).length, 1);
    const eksName = done.result.eksClusterName as string;
    const addon = (await sb.aws(['eks', 'describe-addon', '--cluster-name', eksName, '--addon-name', 'cert-manager']))
      .json.addon;
    assert.equal(addon.status, 'ACTIVE');
    const events = (await server.api('GET', `/api/v1/operations/${id}/events?limit=1000`)).body;
    const lines: string[] = (events.lines ?? []).map((l: any) => l.message);
    const last = (re: RegExp) => lines.findLastIndex((m) => re.test(m));
    assert.ok(last(/cert-manager: previous install failed .*removing it to install again/) >= 0, lines.join('\n'));
    assert.ok(
      last(/cert-manager: installing add-on cert-manager/) > last(/previous install failed/),
      'installed again after the removal',
    );
    assert.equal(
      lines.filter((m) => /cert-manager: installing add-on cert-manager/.test(m)).length,
      2,
      'installed twice: first (failed) and again',
    );
  });

  it('a retry deletes the failed cluster, awaits its going with progress, and stops at once when cancelled', async () => {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'create-failure',
        service: 'sagemaker',
        name: 'gone-slowly',
        message: 'Instance ml.c5.xlarge failed lifecycle configuration',
      },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'gone-slowly',
      availabilityZone: 'us-west-2a',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: false },
    });
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
      if (phase.status === 'awaiting' && /Deleting the failed HyperPod cluster/.test(phase.progress ?? ''))
        waiting = phase;
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
    assert.equal(
      await hyperpodStatus('gone-slowly'),
      'Deleting',
      'the operation stopped while the cluster was still going: the wait was cut short',
    );
    const creates = (await sb.calls({ service: 'sagemaker', operation: 'CreateCluster' })).filter(
      (c) => c.status < 300,
    );
    assert.equal(creates.length, 2, 'one each for the two clusters: nothing was made again after the cancel');

    const events = (await server.api('GET', `/api/v1/operations/${id}/events?limit=500`)).body;
    const lines: string[] = (events.lines ?? []).map((l: any) => l.message);
    assert.ok(
      lines.some((m) => /Deleting the failed HyperPod cluster gone-slowly before creating it again/.test(m)),
      lines.join('\n'),
    );
    assert.equal((await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: SPEED } })).status, 200);
  });
});
