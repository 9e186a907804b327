import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deleteClusterWorkflow } from '../../src/capabilities/clusters/workflows/delete-cluster/index.js';
import { AwsClients, Cloud } from '../../src/cloud/index.js';
import { clusterTags } from '../../src/domain/naming.js';
import { OperationEngine } from '../../src/engine/engine.js';
import { openStores } from '../../src/store/index.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const SPEED = 600;
const REGION = 'us-west-2';

/**
 * create-cluster makes storage beside HyperPod, so a create cancelled while it runs can leave an FSx
 * file system still CREATING — which FSx refuses to delete. delete-cluster must wait for it, then
 * delete it, instead of failing its storage phase.
 */
describe('delete-cluster: an FSx file system still CREATING is awaited, then deleted', () => {
  let sb: TestSandbox;
  let engine: OperationEngine;
  let cloud: Cloud;
  const stores = openStores();
  before(async () => {
    sb = await startTestSandbox({ speed: SPEED });
    cloud = new Cloud(new AwsClients({ defaultRegion: REGION }));
    engine = new OperationEngine({ store: stores.operations, polling: { minIntervalMs: 1000, maxIntervalMs: 30_000, timeScale: 1 / SPEED } });
    engine.register(deleteClusterWorkflow({ cloud, activeCluster: { get: () => undefined, set: () => undefined } }));
  });
  after(async () => {
    await engine?.stop();
    stores.close();
    await sb?.dispose();
  });

  it('waits while it is CREATING (no DeleteFileSystem sent), deletes it once AVAILABLE, and the delete succeeds', async () => {
    const aws = async (args: string[]) => (await sb.aws(args)).json;
    const vpcId = (await aws(['ec2', 'create-vpc', '--cidr-block', '10.9.0.0/16'])).Vpc.VpcId as string;
    const subnetId = (await aws(['ec2', 'create-subnet', '--vpc-id', vpcId, '--cidr-block', '10.9.0.0/20', '--availability-zone', 'us-west-2a'])).Subnet.SubnetId as string;
    const groupId = (await aws(['ec2', 'create-security-group', '--group-name', 'settle-fsx', '--description', 'fsx', '--vpc-id', vpcId])).GroupId as string;

    await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: 0.001 } }); // the file system stays CREATING
    let id = '';
    try {
      const fs = await cloud.storage.createFileSystem(REGION, 'settle', { subnetId, securityGroupId: groupId, storageCapacityGiB: 1200, tags: clusterTags('settle', 'fsx') });
      assert.equal(fs.Lifecycle, 'CREATING');
      id = engine.start('delete-cluster', { name: 'settle', region: REGION, keepStorage: false }).operation.id;
      let storage = engine.get(id).phases.find((p) => p.name === 'storage');
      for (let i = 0; i < 500 && !/FSx CREATING: deleted once that ends/.test(storage?.progress ?? ''); i++) {
        await new Promise((r) => setTimeout(r, 20));
        storage = engine.get(id).phases.find((p) => p.name === 'storage');
      }
      assert.equal(storage?.status, 'awaiting', JSON.stringify(storage));
      assert.equal((await sb.calls({ service: 'fsx', operation: 'DeleteFileSystem' })).length, 0, 'no deletion FSx would refuse was sent');
    } finally {
      await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: SPEED } });
    }

    const done = await engine.waitFor(id, 60_000);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error ?? done.phases));
    const deletes = await sb.calls({ service: 'fsx', operation: 'DeleteFileSystem' });
    assert.deepEqual(deletes.map((c) => c.status < 300), [true], 'one DeleteFileSystem, once it could be deleted');
    assert.equal(done.phases.find((p) => p.name === 'storage')!.attempts, 1);
    assert.equal(await cloud.storage.findFileSystem(REGION, 'settle'), undefined);
  });
});
