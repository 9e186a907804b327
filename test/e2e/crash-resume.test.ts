import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnServer, type ServerProcess } from '../helpers/server.js';

/** Polls the operation until `phase` is awaiting (the journal says the mutation happened). */
async function untilAwaiting(server: ServerProcess, id: string, phase: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const op = (await server.api('GET', `/api/v1/operations/${id}`)).body;
    const p = op.phases.find((x: any) => x.name === phase);
    if (p.status === 'awaiting') return;
    if (['succeeded', 'failed'].includes(op.status) || ['succeeded', 'skipped', 'failed'].includes(p.status)) {
      throw new Error(`phase ${phase} ended (${p.status}) before it could be interrupted`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`phase ${phase} never reached awaiting`);
}

describe('crash resume: SIGKILL while phases await, restart, the operation completes without repeating mutations', () => {
  let sb: TestSandbox;
  let dataDir: string;
  let server: ServerProcess | undefined;
  before(async () => {
    sb = await startTestSandbox({ speed: 60 });
    dataDir = mkdtempSync(join(tmpdir(), 'instantstart-crash-'));
  });
  after(async () => {
    await server?.stop();
    await sb?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('completes after two kills (during EKS and during HyperPod) with exactly one CreateCluster per service', async () => {
    server = await spawnServer(sb, dataDir);
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'crashy',
      availabilityZone: 'us-west-2a',
      instanceType: 'ml.g5.8xlarge',
      instanceCount: 1,
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const id = created.body.operation.id;

    await untilAwaiting(server, id, 'eks');
    await server.kill();
    server = await spawnServer(sb, dataDir);
    await untilAwaiting(server, id, 'hyperpod');
    await server.kill();
    server = await spawnServer(sb, dataDir);

    const op = await server.waitForOperation(id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    const ok = (calls: Array<{ status: number }>) => calls.filter((c) => c.status < 300).length;
    assert.equal(ok(await sb.calls({ service: 'eks', operation: 'CreateCluster' })), 1);
    assert.equal(ok(await sb.calls({ service: 'sagemaker', operation: 'CreateCluster' })), 1);
    assert.equal(ok(await sb.calls({ service: 'ec2', operation: 'CreateVpc' })), 1);
    assert.equal(ok(await sb.calls({ service: 'ec2', operation: 'CreateNatGateway' })), 1);
    const hp = await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'crashy']);
    assert.equal(hp.json.ClusterStatus, 'InService');
  });

  // Needs the merged body of resolveAddonVersion (issue 16): the install phase checks each add-on's version first.
  it('set-features resumes after a kill while its install phase awaits: each add-on created once', async () => {
    const patched = await server!.api('PATCH', '/api/v1/clusters/crashy/features', {
      'metrics-server': true,
      'fsx-csi-driver': true,
    });
    assert.equal(patched.status, 202, JSON.stringify(patched.body));
    const id = patched.body.operation.id;
    await untilAwaiting(server!, id, 'install');
    await server!.kill();
    server = await spawnServer(sb, dataDir);
    const op = await server.waitForOperation(id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    const created = (await sb.calls({ service: 'eks', operation: 'CreateAddon' }))
      .filter((c) => c.status < 300)
      .map((c) => c.subject);
    for (const addon of ['metrics-server', 'aws-fsx-csi-driver'])
      assert.equal(created.filter((s) => s === addon).length, 1, `${addon}: ${created.join(', ')}`);
    const again = await server.api('PATCH', '/api/v1/clusters/crashy/features', {
      'metrics-server': true,
      'fsx-csi-driver': true,
    });
    assert.equal(again.status, 200, 'applied: nothing to do');
  });
});
