import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AwsClients, Cloud } from '../../src/cloud/index.js';
import { OperationEngine } from '../../src/engine/engine.js';
import { openStores } from '../../src/store/index.js';
import { addInstanceGroupWorkflow } from '../../src/capabilities/instance-groups/workflows/add-instance-group/index.js';
import {
  deleteInstanceGroupWorkflow,
  scaleInstanceGroupWorkflow,
} from '../../src/capabilities/instance-groups/workflows/changes/index.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { memoryKeptStorages, memoryMlflowLinks } from '../helpers/kept-storages.js';

const SPEED = 600;

describe('instance-group workflows: add (a /20 per zone), scale (no-op when nothing changes), delete', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let engine: OperationEngine;
  const stores = openStores();
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'grp',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    let active: { name: string; region: string } | undefined;
    engine = new OperationEngine({
      store: stores.operations,
      polling: { minIntervalMs: 1000, maxIntervalMs: 30_000, timeScale: 1 / SPEED },
    });
    const deps = {
      cloud: new Cloud(new AwsClients({ defaultRegion: 'us-west-2' })),
      activeCluster: { get: () => active, set: (v: typeof active) => (active = v) },
      keptStorages: memoryKeptStorages(),
      mlflowLinks: memoryMlflowLinks(),
    };
    engine.register(addInstanceGroupWorkflow(deps));
    engine.register(scaleInstanceGroupWorkflow(deps));
    engine.register(deleteInstanceGroupWorkflow(deps));
  });
  after(async () => {
    await engine?.stop();
    stores.close();
    await stopAll(server, sb);
  });

  const run = async (kind: string, input: Record<string, unknown>) => {
    const { operation } = engine.start(kind, { cluster: 'grp', region: 'us-west-2', ...input });
    return engine.waitFor(operation.id, 120_000);
  };
  const add = (input: Record<string, unknown>) => run('add-instance-group', input);
  const group = async (name: string) =>
    (await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'grp'])).json.InstanceGroups.find(
      (g: any) => g.InstanceGroupName === name,
    );
  const sagemakerMutations = async () => (await sb.calls({ service: 'sagemaker', mutating: true })).length;
  const computeSubnets = async () =>
    (
      await sb.aws([
        'ec2',
        'describe-subnets',
        '--filters',
        'Name=tag:instantstart.io/cluster,Values=grp',
        'Name=tag:instantstart.io/part,Values=compute',
      ])
    ).json.Subnets as Array<{ SubnetId: string; CidrBlock: string; AvailabilityZone: string }>;

  it('a spot group in another zone gets a new /20 there, pinned with OverrideVpcConfig', async () => {
    const op = await add({
      name: 'spot-a',
      availabilityZone: 'us-west-2a',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      capacityType: 'spot',
    });
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    const subnets = await computeSubnets();
    const inA = subnets.find((s) => s.AvailabilityZone === 'us-west-2a');
    assert.ok(inA, JSON.stringify(subnets));
    assert.match(inA.CidrBlock, /\/20$/);
    const hp = (await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'grp'])).json;
    const group = hp.InstanceGroups.find((g: any) => g.InstanceGroupName === 'spot-a');
    assert.deepEqual(group.OverrideVpcConfig.Subnets, [inA.SubnetId]);
    assert.ok(group.CapacityRequirements?.Spot, JSON.stringify(group));
    assert.equal(group.CurrentCount, 1);
  });

  it('a second group in the first zone reuses its compute subnet; the /20s never overlap', async () => {
    const before = await computeSubnets();
    const op = await add({
      name: 'more-b',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      capacityType: 'on-demand',
    });
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    assert.equal(op.phases[0]!.status, 'skipped', "placement found the zone's subnet");
    const after = await computeSubnets();
    assert.equal(after.length, before.length);
    const cidrs = after.map((s) => s.CidrBlock).sort();
    assert.equal(new Set(cidrs).size, cidrs.length);
    assert.ok(cidrs.every((c) => c.endsWith('/20')));
  });

  it('scales up through BatchAddClusterNodes, down through UpdateCluster, and does nothing when nothing changes', async () => {
    const up = await run('scale-instance-group', { name: 'more-b', instanceCount: 3 });
    assert.equal(up.status, 'succeeded', JSON.stringify(up.error ?? up.phases));
    assert.equal((await group('more-b')).CurrentCount, 3);
    assert.equal((await sb.calls({ service: 'sagemaker', operation: 'BatchAddClusterNodes' })).length, 1);
    const before = await sagemakerMutations();
    const same = await run('scale-instance-group', { name: 'more-b', instanceCount: 3 });
    assert.equal(same.status, 'succeeded');
    assert.equal(same.phases[0]!.status, 'skipped');
    assert.equal(await sagemakerMutations(), before, 'no AWS mutation when the state already matches');
    const down = await run('scale-instance-group', { name: 'more-b', instanceCount: 1 });
    assert.equal(down.status, 'succeeded', JSON.stringify(down.error ?? down.phases));
    const g = await group('more-b');
    assert.equal(g.CurrentCount, 1);
    assert.equal(g.InstanceType, 'ml.c5.xlarge', 'the restated group kept its settings');
    const missing = await run('scale-instance-group', { name: 'nope', instanceCount: 1 });
    assert.equal(missing.status, 'failed');
    assert.match(missing.error!.message, /no instance group 'nope'/);
  });

  it('deletes a group and its nodes', async () => {
    const op = await run('delete-instance-group', { name: 'spot-a' });
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    assert.equal(await group('spot-a'), undefined);
    const again = await run('delete-instance-group', { name: 'spot-a' });
    assert.equal(again.phases[0]!.status, 'skipped', 'a second delete is harmless');
  });
});
