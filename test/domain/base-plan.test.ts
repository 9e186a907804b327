import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  DEFAULT_VPC_CIDR,
  MAX_ZONES,
  infraBlock,
  parseVpcCidr,
  planBaseNetwork,
} from '../../src/domain/network/base-plan.js';
import { cidrContains, cidrsOverlap, formatCidr, parseCidr } from '../../src/domain/network/ipv4.js';
import { inputErrorOn } from './helpers.js';

/** A VPC block EC2 and the plan accept: /16 to /19 anywhere in 10.0.0.0/8. */
const vpcCidr = fc.tuple(fc.integer({ min: 16, max: 19 }), fc.nat()).map(([prefix, n]) => {
  const blocks = 2 ** (prefix - 8);
  return formatCidr({ base: parseCidr('10.0.0.0/8').base + (n % blocks) * 2 ** (32 - prefix), prefix });
});
const zones = fc.uniqueArray(fc.stringMatching(/^[a-z]{2}-[a-z]{4,7}-\d[a-f]$/), {
  minLength: 2,
  maxLength: MAX_ZONES,
});

describe('planBaseNetwork', () => {
  it('documents its default layout', () => {
    const plan = planBaseNetwork({ zones: ['us-west-2b', 'us-west-2a'] });
    assert.deepEqual(plan, {
      vpcCidr: DEFAULT_VPC_CIDR,
      infraCidr: '10.0.0.0/20',
      computeZone: 'us-west-2b',
      public: [
        { cidr: '10.0.0.0/24', zone: 'us-west-2b', role: 'public' },
        { cidr: '10.0.1.0/24', zone: 'us-west-2a', role: 'public' },
      ],
      private: [
        { cidr: '10.0.8.0/24', zone: 'us-west-2b', role: 'private' },
        { cidr: '10.0.9.0/24', zone: 'us-west-2a', role: 'private' },
      ],
    });
  });

  it('gives every zone one public and one private /24, disjoint, inside the infrastructure /20 of the VPC', () => {
    fc.assert(
      fc.property(vpcCidr, zones, (vpcText, zs) => {
        const plan = planBaseNetwork({ vpcCidr: vpcText, zones: zs });
        const vpc = parseCidr(plan.vpcCidr);
        const infra = parseCidr(plan.infraCidr);
        assert.equal(plan.vpcCidr, vpcText);
        assert.equal(plan.computeZone, zs[0]);
        assert.equal(infra.prefix, 20);
        assert.equal(infra.base, vpc.base);
        assert.deepEqual(
          plan.public.map((s) => s.zone),
          zs,
        );
        assert.deepEqual(
          plan.private.map((s) => s.zone),
          zs,
        );
        const all = [...plan.public, ...plan.private];
        assert.ok(plan.public.every((s) => s.role === 'public') && plan.private.every((s) => s.role === 'private'));
        const blocks = all.map((s) => parseCidr(s.cidr));
        blocks.forEach((b, i) => {
          assert.equal(b.prefix, 24);
          assert.ok(cidrContains(vpc, b) && cidrContains(infra, b), `${all[i]!.cidr} outside ${plan.infraCidr}`);
          blocks
            .slice(i + 1)
            .forEach((other) => assert.ok(!cidrsOverlap(b, other), `${formatCidr(b)} overlaps ${formatCidr(other)}`));
        });
      }),
    );
  });

  it("keeps each zone's subnets when zones are appended (an existing network stays valid)", () => {
    fc.assert(
      fc.property(
        zones.filter((z) => z.length > 2),
        (zs) => {
          const shorter = planBaseNetwork({ zones: zs.slice(0, -1) });
          const longer = planBaseNetwork({ zones: zs });
          assert.deepEqual(longer.public.slice(0, -1), shorter.public);
          assert.deepEqual(longer.private.slice(0, -1), shorter.private);
        },
      ),
    );
  });

  it('rejects fewer than two zones', () => {
    assert.throws(
      () => planBaseNetwork({ zones: ['us-west-2a'] }),
      inputErrorOn('zones', /at least 2 Availability Zones.*got 1/),
    );
    assert.throws(() => planBaseNetwork({ zones: [] }), inputErrorOn('zones', /got 0/));
  });

  it('rejects more zones than the infrastructure block has slots', () => {
    const nine = Array.from({ length: 9 }, (_, i) => `us-east-1${String.fromCharCode(97 + i)}`);
    assert.throws(() => planBaseNetwork({ zones: nine }), inputErrorOn('zones', /at most 8 Availability Zones.*got 9/));
  });

  it('rejects a duplicate zone, naming both positions', () => {
    assert.throws(
      () => planBaseNetwork({ zones: ['us-west-2a', 'us-west-2b', 'us-west-2a'] }),
      inputErrorOn('zones[2]', /us-west-2a is listed twice \(also zones\[0\]\)/),
    );
  });

  it('rejects blank or padded zone names', () => {
    assert.throws(
      () => planBaseNetwork({ zones: ['us-west-2a', ''] }),
      inputErrorOn('zones[1]', /not an Availability Zone name/),
    );
    assert.throws(
      () => planBaseNetwork({ zones: [' us-west-2a', 'us-west-2b'] }),
      inputErrorOn('zones[0]', /not an Availability Zone name/),
    );
  });

  it('rejects a VPC too small for the infrastructure /20 plus one compute /20', () => {
    assert.throws(
      () => planBaseNetwork({ vpcCidr: '10.0.0.0/20', zones: ['a1', 'a2'] }),
      inputErrorOn('vpcCidr', /too small.*\/16 to \/19/),
    );
    assert.throws(
      () => planBaseNetwork({ vpcCidr: '10.0.0.0/24', zones: ['a1', 'a2'] }),
      inputErrorOn('vpcCidr', /too small/),
    );
    assert.equal(planBaseNetwork({ vpcCidr: '10.0.32.0/19', zones: ['a1', 'a2'] }).infraCidr, '10.0.32.0/20');
  });

  it('rejects a VPC block larger than EC2 allows', () => {
    assert.throws(
      () => planBaseNetwork({ vpcCidr: '10.0.0.0/15', zones: ['a1', 'a2'] }),
      inputErrorOn('vpcCidr', /larger than EC2 allows/),
    );
  });

  it('rejects a malformed VPC block', () => {
    assert.throws(
      () => planBaseNetwork({ vpcCidr: '10.0.0.0', zones: ['a1', 'a2'] }),
      inputErrorOn('vpcCidr', /not a CIDR block/),
    );
    assert.throws(
      () => planBaseNetwork({ vpcCidr: '10.0.0.1/16', zones: ['a1', 'a2'] }),
      inputErrorOn('vpcCidr', /did you mean 10\.0\.0\.0\/16/),
    );
  });

  it('parseVpcCidr and infraBlock agree with the plan', () => {
    const vpc = parseVpcCidr('172.16.0.0/16');
    assert.equal(formatCidr(infraBlock(vpc)), '172.16.0.0/20');
  });
});
