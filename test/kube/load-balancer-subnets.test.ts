import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inTreeSubnets, lbcSubnets } from '../../sandbox/kube/controllers/load-balancer-subnets.js';
import type { SubnetView } from '../../sandbox/services/ec2/public.js';

const subnet = (
  id: string,
  az: string,
  isPublic: boolean,
  tags: Record<string, string> = {},
  free = 250,
): SubnetView => ({
  subnetId: id,
  vpcId: 'vpc-1',
  cidrBlock: '10.0.0.0/24',
  availabilityZone: az,
  availabilityZoneId: az,
  availableIpAddressCount: free,
  isPublic,
  tags,
});
const ids = (r: ReturnType<typeof lbcSubnets>) => ('subnets' in r ? r.subnets.map((s) => s.subnetId) : r.error);
const ELB = { 'kubernetes.io/role/elb': '1' };
const INTERNAL = { 'kubernetes.io/role/internal-elb': '' };

/** Subnet discovery as the AWS Load Balancer Controller v2.13.2 and EKS's in-tree provider do it (load-balancer-subnets.ts). */
describe('load balancer subnet discovery', () => {
  it('LBC: role-tagged subnets only when there are any, one per AZ, this cluster first, then the lowest id', () => {
    const vpc = [
      subnet('subnet-b', 'us-west-2a', true, ELB),
      subnet('subnet-a', 'us-west-2a', true, ELB),
      subnet('subnet-c', 'us-west-2b', true, {
        ...ELB,
        'kubernetes.io/cluster/other': 'shared',
        'kubernetes.io/cluster/me': 'shared',
      }),
      subnet('subnet-d', 'us-west-2b', true, ELB),
      subnet('subnet-e', 'us-west-2c', true),
    ];
    assert.deepEqual(ids(lbcSubnets(vpc, 'me', 'internet-facing', 'network')), ['subnet-a', 'subnet-c']);
  });

  it('LBC: with no role tag, subnets whose reachability matches the scheme', () => {
    const vpc = [subnet('subnet-pub', 'us-west-2a', true), subnet('subnet-priv', 'us-west-2b', false)];
    assert.deepEqual(ids(lbcSubnets(vpc, 'me', 'internal', 'network')), ['subnet-priv']);
    assert.deepEqual(ids(lbcSubnets(vpc, 'me', 'internet-facing', 'network')), ['subnet-pub']);
    assert.deepEqual(
      ids(lbcSubnets([subnet('subnet-x', 'us-west-2a', false, INTERNAL)], 'me', 'internet-facing', 'network')),
      'unable to resolve at least one subnet. Evaluated 0 subnets: 0 are tagged for other clusters, and 0 have insufficient available IP addresses',
      'a tag for the other role does not make a subnet public',
    );
  });

  it('LBC: drops subnets of other clusters and nearly full ones, and says so; an ALB needs two AZs', () => {
    const vpc = [
      subnet('subnet-a', 'us-west-2a', false, { ...INTERNAL, 'kubernetes.io/cluster/other': 'owned' }),
      subnet('subnet-b', 'us-west-2b', false, INTERNAL, 7),
    ];
    assert.equal(
      ids(lbcSubnets(vpc, 'me', 'internal', 'network')),
      'unable to resolve at least one subnet. Evaluated 2 subnets: 1 are tagged for other clusters, and 1 have insufficient available IP addresses',
    );
    const one = [subnet('subnet-a', 'us-west-2a', false, INTERNAL)];
    assert.deepEqual(ids(lbcSubnets(one, 'me', 'internal', 'network')), ['subnet-a']);
    assert.equal(
      ids(lbcSubnets(one, 'me', 'internal', 'application')),
      'subnets count less than minimal required count: 1 < 2',
    );
  });

  it('in-tree: public subnets only for internet-facing, the role tag first in an AZ; internal may use any', () => {
    const vpc = [
      subnet('subnet-a', 'us-west-2a', true),
      subnet('subnet-b', 'us-west-2a', true, ELB),
      subnet('subnet-c', 'us-west-2b', false, INTERNAL),
      subnet('subnet-d', 'us-west-2c', true, { 'kubernetes.io/cluster/other': 'owned' }),
    ];
    const r = inTreeSubnets(vpc, 'me', 'internet-facing');
    assert.deepEqual('subnets' in r && r.subnets.map((s) => s.subnetId), ['subnet-b']);
    const internal = inTreeSubnets(vpc, 'me', 'internal');
    assert.deepEqual('subnets' in internal && internal.subnets.map((s) => s.subnetId), ['subnet-a', 'subnet-c']);
    assert.deepEqual(inTreeSubnets([subnet('subnet-c', 'us-west-2b', false)], 'me', 'internet-facing'), {
      error: 'could not find any suitable subnets for creating the ELB',
    });
  });
});
