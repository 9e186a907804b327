import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterTags } from '../../src/domain/naming.js';
import { useDeleteClusterEngine } from '../helpers/delete-cluster-engine.js';

const SPEED = 600;
const REGION = 'us-west-2';

/**
 * create-cluster makes storage beside HyperPod, so a create cancelled while it runs can leave an FSx
 * file system still CREATING — which FSx refuses to delete. delete-cluster must wait for it, then
 * delete it, instead of failing its storage phase.
 */
describe('delete-cluster: an FSx file system still CREATING is awaited, then deleted', () => {
  const h = useDeleteClusterEngine(SPEED, REGION);

  it('waits while it is CREATING (no DeleteFileSystem sent), deletes it once AVAILABLE, and the delete succeeds', async () => {
    const aws = async (args: string[]) => (await h.sb.aws(args)).json;
    const vpcId = (await aws(['ec2', 'create-vpc', '--cidr-block', '10.9.0.0/16'])).Vpc.VpcId as string;
    const subnetId = (
      await aws([
        'ec2',
        'create-subnet',
        '--vpc-id',
        vpcId,
        '--cidr-block',
        '10.9.0.0/20',
        '--availability-zone',
        'us-west-2a',
      ])
    ).Subnet.SubnetId as string;
    const groupId = (
      await aws([
        'ec2',
        'create-security-group',
        '--group-name',
        'settle-fsx',
        '--description',
        'fsx',
        '--vpc-id',
        vpcId,
      ])
    ).GroupId as string;

    await h.sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: 0.001 } }); // the file system stays CREATING
    let id = '';
    try {
      const fs = await h.cloud.storage.createFileSystem(REGION, 'settle', {
        subnetId,
        securityGroupId: groupId,
        storageCapacityGiB: 1200,
        tags: clusterTags('settle', 'fsx'),
      });
      assert.equal(fs.Lifecycle, 'CREATING');
      id = h.engine.start('delete-cluster', { name: 'settle', region: REGION, keepStorage: false }).operation.id;
      let storage = h.engine.get(id).phases.find((p) => p.name === 'storage');
      for (let i = 0; i < 500 && !/FSx \S+ CREATING/.test(storage?.progress ?? ''); i++) {
        await new Promise((r) => setTimeout(r, 20));
        storage = h.engine.get(id).phases.find((p) => p.name === 'storage');
      }
      assert.equal(storage?.status, 'awaiting', JSON.stringify(storage));
      assert.equal(
        (await h.sb.calls({ service: 'fsx', operation: 'DeleteFileSystem' })).length,
        0,
        'no deletion FSx would refuse was sent',
      );
    } finally {
      await h.sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: SPEED } });
    }

    const done = await h.engine.waitFor(id, 60_000);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error ?? done.phases));
    const deletes = await h.sb.calls({ service: 'fsx', operation: 'DeleteFileSystem' });
    assert.deepEqual(
      deletes.map((c) => c.status < 300),
      [true],
      'one DeleteFileSystem, once it could be deleted',
    );
    assert.equal(done.phases.find((p) => p.name === 'storage')!.attempts, 1);
    assert.equal(await h.cloud.storage.findFileSystem(REGION, 'settle'), undefined);
  });
});
