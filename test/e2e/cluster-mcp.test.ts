import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { tagged } from '../helpers/inventory.js';
import { kubeAccess } from '../helpers/kube.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;

/**
 * What an agent does: call wait_for_operation until the operation is terminal, then, on success,
 * the next call it names (derived from the operation's kind) — which must be a tool that takes those arguments.
 */
async function pollToTerminal(client: Client, operationId: string): Promise<any> {
  for (let i = 0; i < 40; i++) {
    const r = await call(client, 'wait_for_operation', { operationId, timeoutSeconds: 30 });
    assert.ok(!r.isError, r.text);
    const op = r.structuredContent as any;
    if (op.status === 'succeeded') {
      assert.ok(op.next, `a succeeded ${op.kind} names the next call: ${r.text}`);
      assert.match(r.text, new RegExp(`Next: call ${op.next.tool} `));
      const next = await call(client, op.next.tool, op.next.arguments);
      assert.ok(!next.isError, `${op.kind} → ${op.next.tool}: ${next.text}`);
    }
    if (['succeeded', 'failed', 'cancelled'].includes(op.status)) return op;
  }
  throw new Error(`operation ${operationId} did not finish`);
}

describe('create (with S3 and FSx for Lustre) and delete a HyperPod cluster through MCP (streamable HTTP and stdio) on the sandbox', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let http: Client;
  let stdio: Client;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    http = new Client({ name: 'e2e-http', version: '1.0.0' });
    await http.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    stdio = new Client({ name: 'e2e-stdio', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['bin/instantstart.mjs', 'mcp', '--url', server.url],
        stderr: 'ignore',
      }),
    );
  });
  after(() => stopAll(http, stdio, server, sb));

  let zone = '';
  let instanceType = '';
  it('checks before create: zones and the instance types offered there come from the cloud', async () => {
    const zones = await call(http, 'list_availability_zones', {});
    assert.ok(!zones.isError, zones.text);
    const fromCli = await sb.aws(['ec2', 'describe-availability-zones']);
    const names = (zones.structuredContent as any).availabilityZones.map((z: any) => z.name).sort();
    assert.deepEqual(names, fromCli.json.AvailabilityZones.map((z: any) => z.ZoneName).sort());
    zone = names[1];
    const types = await call(http, 'list_instance_types', { availabilityZone: zone });
    assert.ok(!types.isError, types.text);
    const offered = (types.structuredContent as any).instanceTypes;
    const g5 = offered.find((t: any) => t.instanceType === 'ml.g5.8xlarge');
    assert.ok(g5, 'ml.g5.8xlarge is offered in the zone');
    instanceType = g5.instanceType;
    const accelerated = await call(http, 'list_instance_types', {
      availabilityZone: zone,
      acceleratorsOnly: true,
      family: 'g5',
    });
    assert.ok(!accelerated.isError, accelerated.text);
    const g5s = (accelerated.structuredContent as any).instanceTypes;
    assert.deepEqual(
      g5s.map((t: any) => t.instanceType),
      offered
        .filter((t: any) => t.instanceType.startsWith('ml.g5.') && t.acceleratorCount > 0)
        .map((t: any) => t.instanceType),
    );
    assert.ok(g5s.length > 0 && g5s.length < offered.length, 'the filter leaves the g5 types only');
    const quotas = await call(http, 'check_quotas', { instanceType, instanceCount: 1, availabilityZone: zone });
    assert.ok(!quotas.isError, quotas.text);
    assert.equal((quotas.structuredContent as any).ok, true, quotas.text);
  });

  let operationId = '';
  let CREATE: Record<string, unknown> = {};
  it('create_cluster answers with an operation and names wait_for_operation as its status tool', async () => {
    CREATE = {
      cluster: 'agent',
      availabilityZone: zone,
      instanceType,
      instanceCount: 1,
      storage: { s3: true, fsxLustre: { storageCapacityGiB: 1200 } },
    };
    const r = await call(http, 'create_cluster', { ...CREATE, idempotencyKey: 'agent-create-1' });
    assert.ok(!r.isError, r.text);
    assert.match(r.text, /wait_for_operation/);
    operationId = (r.structuredContent as any).operationId;
    assert.ok(operationId);
  });

  it('wait_for_operation (HTTP) polls it to InService; get_cluster over stdio sees it', async () => {
    const op = await pollToTerminal(http, operationId);
    assert.equal(op.status, 'succeeded', JSON.stringify(op));
    const cluster = await call(stdio, 'get_cluster', { cluster: 'agent' });
    assert.ok(!cluster.isError, cluster.text);
    assert.equal((cluster.structuredContent as any).status, 'InService');
    const active = await call(stdio, 'get_active_cluster', {});
    assert.equal((active.structuredContent as any).name, 'agent');
    const hp = await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'agent']);
    assert.equal(hp.json.ClusterStatus, 'InService');
    const fsxId = (cluster.structuredContent as any).storage.fsxFileSystemId;
    const fsx = await sb.aws(['fsx', 'describe-file-systems', '--file-system-ids', fsxId]);
    assert.equal(fsx.json.FileSystems[0].Lifecycle, 'AVAILABLE');
    assert.equal(
      fsx.json.FileSystems[0].SubnetIds[0],
      (await sb.aws(['ec2', 'describe-subnets', '--filters', 'Name=tag:instantstart.io/part,Values=compute'])).json
        .Subnets[0].SubnetId,
      'FSx sits in the compute subnet',
    );
    const kube = await kubeAccess(sb, 'agent-eks');
    const pvc = await kube.kubectl(['get', 'pvc', 'shared-fsx', '-n', 'default', '-o', 'json']);
    assert.equal(JSON.parse(pvc.stdout).spec.volumeName, 'agent-fsx-pv');
    assert.equal(op.next.tool, 'get_cluster', 'a create is followed by get_cluster');
    // Storage claims are Bound in kubectl, and get_cluster reports each claim's phase read from Kubernetes.
    assert.match(
      (await kube.kubectl(['get', 'pvc', '-n', 'default'])).stdout,
      /\nshared-fsx\s+Bound\s+agent-fsx-pv\s+[\s\S]*\nshared-s3\s+Bound\s+agent-s3-pv\s+/,
    );
    const again = await call(stdio, 'get_cluster', { cluster: 'agent' });
    assert.deepEqual((again.structuredContent as any).storage.claims, [
      { claim: 'default/shared-s3', store: 's3', phase: 'Bound', volumeName: 'agent-s3-pv' },
      { claim: 'default/shared-fsx', store: 'fsx', phase: 'Bound', volumeName: 'agent-fsx-pv' },
    ]);
    assert.match(again.text, /claim default\/shared-s3 \(s3\): Bound/);
  });

  it('get_operation_logs answers each line once, as text, and says how to read on', async () => {
    const page = await call(http, 'get_operation_logs', { operationId, limit: 5 });
    assert.ok(!page.isError, page.text);
    assert.equal(page.structuredContent, undefined, 'the lines are not sent a second time as structured content');
    const lines = page.text.split('\n');
    assert.equal(lines.length, 6, page.text);
    const next = Number(/more may follow: call again with after=(\d+)/.exec(lines[5]!)?.[1]);
    const on = await call(http, 'get_operation_logs', { operationId, after: next, limit: 5 });
    assert.notEqual(on.text.split('\n')[0], lines[0], 'the next page starts after the first');
  });

  it('a retry of the succeeded create_cluster (lost answer) gets its operation back, with or without the key; other arguments for the name are refused', async () => {
    for (const [client, args] of [
      [stdio, CREATE],
      [http, { ...CREATE, idempotencyKey: 'agent-create-1' }],
    ] as const) {
      const again = await call(client, 'create_cluster', args);
      assert.ok(!again.isError, again.text);
      assert.equal((again.structuredContent as any).operationId, operationId);
      assert.equal((again.structuredContent as any).existing, true);
      assert.match(again.text, /already answered by operation .* which succeeded; nothing new was started/);
    }
    const other = await call(http, 'create_cluster', { ...CREATE, instanceCount: 2 });
    assert.equal(other.isError, true);
    assert.match(other.text, /- cluster: /, "the taken name is reported on the tool's own field");
    assert.equal(
      (await sb.calls({ service: 'sagemaker', operation: 'CreateCluster' })).filter((c) => c.status < 300).length,
      1,
    );
  });

  it('adds a spot instance group in another zone, lists it and scales it through MCP', async () => {
    const otherZone = (await sb.aws(['ec2', 'describe-availability-zones'])).json.AvailabilityZones.map(
      (z: any) => z.ZoneName,
    ).find((z: string) => z !== zone);
    const addArgs = {
      cluster: 'agent',
      group: 'spot',
      availabilityZone: otherZone,
      instanceType,
      instanceCount: 1,
      capacityType: 'spot',
      idempotencyKey: 'add-spot-1',
    };
    const r = await call(http, 'add_instance_group', addArgs);
    assert.ok(!r.isError, r.text);
    assert.match(r.text, /wait_for_operation/);
    assert.equal((await pollToTerminal(http, (r.structuredContent as any).operationId)).status, 'succeeded');
    const retried = await call(stdio, 'add_instance_group', addArgs);
    assert.ok(
      !retried.isError,
      `the key reaches REST: a retry after success is answered, not refused as a taken name — ${retried.text}`,
    );
    assert.equal((retried.structuredContent as any).operationId, (r.structuredContent as any).operationId);
    const list = await call(stdio, 'list_instance_groups', { cluster: 'agent' });
    const spot = (list.structuredContent as any).instanceGroups.find((g: any) => g.name === 'spot');
    assert.equal(spot.capacityType, 'spot');
    assert.equal(spot.currentCount, 1);
    const updates = async () => (await sb.calls({ service: 'sagemaker', operation: 'UpdateCluster' })).length;
    const updatesBefore = await updates();
    const unconfirmed = await call(stdio, 'scale_instance_group', {
      cluster: 'agent',
      group: 'spot',
      instanceCount: 0,
    });
    assert.equal(unconfirmed.isError, true, 'a shrink without confirm is refused');
    assert.match(unconfirmed.text, /HTTP 422[\s\S]*- confirm: must be true to shrink/);
    assert.equal(await updates(), updatesBefore, 'nothing was sent to AWS');
    const scaled = await call(stdio, 'scale_instance_group', {
      cluster: 'agent',
      group: 'spot',
      instanceCount: 0,
      confirm: true,
    });
    assert.ok(!scaled.isError, scaled.text);
    assert.equal((await pollToTerminal(stdio, (scaled.structuredContent as any).operationId)).status, 'succeeded');
    const labelled = await call(http, 'update_instance_group', {
      cluster: 'agent',
      group: 'spot',
      labels: { tier: 'batch' },
    });
    assert.ok(!labelled.isError, labelled.text);
    assert.equal((await pollToTerminal(http, (labelled.structuredContent as any).operationId)).status, 'succeeded');
    const groups = await call(http, 'list_instance_groups', { cluster: 'agent' });
    assert.deepEqual((groups.structuredContent as any).instanceGroups.find((g: any) => g.name === 'spot').labels, {
      tier: 'batch',
    });
    const fixed = await call(http, 'update_instance_group', {
      cluster: 'agent',
      group: 'spot',
      instanceType: 'ml.c5.2xlarge',
    } as any);
    assert.equal(fixed.isError, true, 'a fixed field is not even an input of the tool');
    const refused = await call(http, 'add_instance_group', {
      cluster: 'agent',
      group: 'efa',
      availabilityZone: zone,
      instanceType: 'ml.g5.8xlarge',
      instanceCount: 99,
    });
    assert.equal(refused.isError, true, 'a quota shortfall is a readable error');
    assert.match(refused.text, /quota|instanceCount/i);
  });

  it('bad input becomes a readable tool error naming the field, with nothing created', async () => {
    const r = await call(stdio, 'create_cluster', {
      cluster: 'Bad Name',
      availabilityZone: zone,
      instanceType,
      instanceCount: 0,
    });
    assert.equal(r.isError, true);
    assert.match(r.text, /cluster|instanceCount/);
  });

  it('delete_cluster over stdio, polled to a terminal state, leaves nothing tagged', async () => {
    const r = await call(stdio, 'delete_cluster', { cluster: 'agent', confirm: true });
    assert.ok(!r.isError, r.text);
    const op = await pollToTerminal(stdio, (r.structuredContent as any).operationId);
    assert.equal(op.status, 'succeeded', JSON.stringify(op));
    assert.deepEqual(tagged(await sb.inventory(), 'agent'), []);
  });
});
