import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateAddonCommand, DescribeAddonCommand, EKSClient } from '@aws-sdk/client-eks';
import { CreateClusterCommand, DescribeClusterCommand, SageMakerClient } from '@aws-sdk/client-sagemaker';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { buildPrereqs, group, waitForCluster, type HyperPodPrereqs } from './sagemaker-fixtures.js';

/**
 * The admin inventory says when each slow resource was created and when it was done (sandbox time):
 * the service's own time, which `npm run bench` sets a create's end-to-end time against.
 */
describe('sandbox admin inventory: create and completion times', () => {
  let sb: TestSandbox;
  let p: HyperPodPrereqs;
  const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;
  const find = async (service: string, type: string, match: (x: any) => boolean) =>
    (await sb.inventory())[service]?.[type]?.find(match) as any;

  before(async () => {
    sb = await startTestSandbox();
    p = await buildPrereqs(sb, 'times');
  });
  after(async () => sb.dispose());

  it('gives an EKS cluster its create time and the time it turned ACTIVE (8–12 minutes later)', async () => {
    const c = await find('eks', 'clusters', (x) => x.name === p.eksClusterName);
    assert.equal(c.status, 'ACTIVE');
    const took = seconds(c.createdAt, c.activeAt);
    assert.ok(took >= 8 * 60 && took <= 12 * 60, `EKS took ${took} s`);
  });

  it('gives an add-on the instant it turned ACTIVE, which DescribeAddon reports as modifiedAt', async () => {
    const eks = new EKSClient({});
    await eks.send(new CreateAddonCommand({ clusterName: p.eksClusterName, addonName: 'kube-proxy' }));
    const creating = await find('eks', 'addons', (x) => x.addonName === 'kube-proxy');
    assert.equal(creating.activeAt, undefined, 'no completion time while CREATING');
    await sb.advance(4 * 60);
    const a = await find('eks', 'addons', (x) => x.addonName === 'kube-proxy');
    const described = (
      await eks.send(new DescribeAddonCommand({ clusterName: p.eksClusterName, addonName: 'kube-proxy' }))
    ).addon!;
    assert.equal(described.status, 'ACTIVE');
    assert.equal(Date.parse(a.activeAt), described.modifiedAt!.getTime());
    assert.equal(Date.parse(a.createdAt), described.createdAt!.getTime());
  });

  it('gives a HyperPod cluster its creation time and its first InService, and each node the time it first ran', async () => {
    const sm = new SageMakerClient({});
    await sm.send(
      new CreateClusterCommand({
        ClusterName: 'timed',
        InstanceGroups: [group(p, 'workers', 'ml.c5.xlarge', 1)],
        VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
        Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
      }),
    );
    assert.equal((await find('sagemaker', 'clusters', (x) => x.name === 'timed')).inServiceAt, undefined);
    const ready = await waitForCluster(sb, 'timed', 'InService');
    const c = await find('sagemaker', 'clusters', (x) => x.name === 'timed');
    assert.equal(Date.parse(c.createdAt), ready.CreationTime!.getTime());
    // Cluster set-up (1–2 minutes), then the node boots (4–7 minutes).
    const took = seconds(c.createdAt, c.inServiceAt);
    assert.ok(took >= 5 * 60 && took <= 9 * 60, `HyperPod took ${took} s`);
    const node = await find('sagemaker', 'nodes', (x) => x.cluster === 'timed');
    assert.equal(node.status, 'Running');
    assert.ok(
      Date.parse(node.runningAt) > Date.parse(c.createdAt) && Date.parse(node.runningAt) <= Date.parse(c.inServiceAt),
      'the node ran before the cluster went InService',
    );
  });
});
