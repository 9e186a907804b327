import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterTags, tagList } from '../../src/domain/naming.js';
import { useDeleteClusterEngine } from '../helpers/delete-cluster-engine.js';

const SPEED = 600;
const REGION = 'us-west-2';
const NLB = 'ELB net/k8s-default-web-0a1b2c3d4e/0123456789abcdef';

const tagSpec = (type: string, part: string) =>
  `ResourceType=${type},Tags=[${tagList(clusterTags('orph', part))
    .map((t) => `{Key=${t.Key},Value=${t.Value}}`)
    .join(',')}]`;

/**
 * A load balancer that outlived its cluster's Kubernetes API (the EKS cluster was deleted outside InstantStart while
 * a LoadBalancer Service still held it): nothing can delete it through Kubernetes any more, and its network interfaces
 * keep the subnets for good. delete-cluster says so by name — the interface, the load balancer it belongs to and the
 * command that removes it — instead of waiting an hour for the network; once it is gone, a retry finishes.
 */
describe('delete-cluster: a load balancer orphaned before the delete is named, not waited for', () => {
  const h = useDeleteClusterEngine(SPEED, REGION);

  it('load-balancers has no API to ask; network fails naming the ELB interface and the command; after it goes, a retry succeeds', async () => {
    const aws = async (args: string[]) => (await h.sb.aws(args)).json;
    const vpcId = (
      await aws(['ec2', 'create-vpc', '--cidr-block', '10.8.0.0/16', '--tag-specifications', tagSpec('vpc', 'vpc')])
    ).Vpc.VpcId as string;
    const subnetId = (
      await aws([
        'ec2',
        'create-subnet',
        '--vpc-id',
        vpcId,
        '--cidr-block',
        '10.8.0.0/20',
        '--availability-zone',
        'us-west-2a',
        '--tag-specifications',
        tagSpec('subnet', 'public-a'),
      ])
    ).Subnet.SubnetId as string;
    // The orphan's interface, as a load balancer leaves it (its description is what names it).
    const eni = (await aws(['ec2', 'create-network-interface', '--subnet-id', subnetId, '--description', NLB]))
      .NetworkInterface.NetworkInterfaceId as string;

    const id = h.engine.start('delete-cluster', { name: 'orph', region: REGION, keepStorage: false }).operation.id;
    const failed = await h.engine.waitFor(id, 60_000);
    assert.equal(failed.status, 'failed');
    const phase = (name: string) => failed.phases.find((p) => p.name === name)!;
    assert.equal(phase('load-balancers').status, 'skipped', JSON.stringify(phase('load-balancers')));
    const network = phase('network');
    assert.equal(network.status, 'failed', JSON.stringify(network));
    assert.equal(network.error?.code, 'DependencyViolation');
    assert.ok(network.error?.message.includes(`held by ${eni} "${NLB}"`), network.error?.message);
    assert.match(
      network.error?.message ?? '',
      /load balancers that the cluster's Kubernetes Services or Ingresses made/,
    );
    assert.match(network.error?.message ?? '', /aws elbv2 delete-load-balancer/);
    assert.match(
      network.error?.message ?? '',
      /phase 'load-balancers' could not reach the cluster's Kubernetes API \(no EKS cluster orph-eks\)/,
    );
    assert.equal(phase('verify').error?.code, 'ResourcesRemain');

    // The user deletes the load balancer (here: its interface); one retry deletes the network and verifies.
    await aws(['ec2', 'delete-network-interface', '--network-interface-id', eni]);
    h.engine.retryPhase(id, 'network');
    const done = await h.engine.waitFor(id, 60_000);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error ?? done.phases));
    assert.equal((await aws(['ec2', 'describe-vpcs', '--vpc-ids', vpcId]).catch(() => undefined)) ?? 'gone', 'gone');
  });
});
