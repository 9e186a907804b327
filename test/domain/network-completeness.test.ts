import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  describeMissing,
  missingNetworkAttributes,
  nodeSecurityGroupRules,
} from '../../src/domain/network/completeness.js';

const dnsOn = { enableDnsSupport: true, enableDnsHostnames: true };
const subnet = (subnetId: string, role: 'public' | 'private' | 'compute', mapPublicIpOnLaunch: boolean) => ({
  subnetId,
  role,
  mapPublicIpOnLaunch,
});

describe('network completeness: what a made piece still lacks', () => {
  it('a complete network lacks nothing', () => {
    const described = {
      vpc: dnsOn,
      subnets: [
        subnet('subnet-pub', 'public', true),
        subnet('subnet-priv', 'private', false),
        subnet('subnet-comp', 'compute', false),
      ],
      securityGroup: {
        groupId: 'sg-1',
        rules: [...nodeSecurityGroupRules('sg-1'), { direction: 'egress' as const, protocol: '-1', cidr: '0.0.0.0/0' }],
      },
    };
    assert.deepEqual(missingNetworkAttributes(described), []);
  });

  it('names each missing attribute, DNS support before hostnames (EC2 refuses hostnames without it)', () => {
    const missing = missingNetworkAttributes({
      vpc: { enableDnsSupport: false, enableDnsHostnames: false },
      subnets: [subnet('subnet-pub', 'public', false), subnet('subnet-priv', 'private', false)],
      securityGroup: {
        groupId: 'sg-1',
        rules: [
          { direction: 'ingress', protocol: '-1', peerGroupId: 'sg-1' },
          { direction: 'egress', protocol: '-1', cidr: '0.0.0.0/0' },
        ],
      },
    });
    assert.deepEqual(
      missing.map((m) => m.kind),
      ['vpc-dns-support', 'vpc-dns-hostnames', 'subnet-public-ip', 'security-group-rule'],
    );
    assert.deepEqual(missing.map(describeMissing), [
      'VPC DNS resolution is off',
      'VPC DNS hostnames are off',
      'public subnet subnet-pub does not map public IPv4 addresses at launch',
      'security group sg-1 lacks its egress rule (all traffic within the group)',
    ]);
  });

  it('the default allow-all egress does not stand in for the self rule, nor another group for this one', () => {
    const missing = missingNetworkAttributes({
      subnets: [],
      securityGroup: {
        groupId: 'sg-1',
        rules: [
          { direction: 'ingress', protocol: '-1', peerGroupId: 'sg-other' },
          { direction: 'egress', protocol: '-1', cidr: '0.0.0.0/0' },
        ],
      },
    });
    assert.deepEqual(
      missing.map((m) => (m.kind === 'security-group-rule' ? m.rule.direction : m.kind)),
      ['ingress', 'egress'],
    );
  });

  it('judges only what was described: a network not made yet lacks no attribute', () => {
    assert.deepEqual(missingNetworkAttributes({ subnets: [] }), []);
  });
});
