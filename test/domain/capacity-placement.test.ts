import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PreconditionError } from '../../src/domain/errors.js';
import {
  COMPUTE_SUBNET_PREFIX,
  CapacityPlacementError,
  type ComputePlacement,
  type ExistingSubnet,
  computeCapacity,
  computeSubnetsByZone,
  placeComputeSubnet,
} from '../../src/domain/network/capacity-placement.js';
import {
  type Cidr,
  cidrContains,
  cidrsOverlap,
  formatCidr,
  parseCidr,
  subnetAt,
  subnetCount,
} from '../../src/domain/network/ipv4.js';
import { inputErrorOn } from './helpers.js';

// ---- generators and a brute-force oracle -------------------------------------------------------

/** A VPC of /16 to /20 in 10.0.0.0/8: small ones fill up within a few placements, /20 holds none. */
const vpcArb = fc.tuple(fc.integer({ min: 16, max: 20 }), fc.nat()).map(
  ([prefix, n]): Cidr => ({
    base: parseCidr('10.0.0.0/8').base + (n % 2 ** (prefix - 8)) * 2 ** (32 - prefix),
    prefix,
  }),
);

const roleArb = fc.constantFrom('public' as const, 'private' as const, 'other' as const);
const zonePool = ['us-west-2a', 'us-west-2b', 'us-west-2c', 'us-west-2d'];

/** Non-compute subnets at random aligned spots inside the VPC (/19 to /28), without overlaps, as EC2 guarantees. */
function preExistingArb(vpc: Cidr): fc.Arbitrary<ExistingSubnet[]> {
  const one = fc.record({
    prefix: fc.integer({ min: 19, max: 28 }),
    slot: fc.nat(),
    role: roleArb,
    zone: fc.constantFrom(...zonePool),
  });
  return fc.array(one, { maxLength: 12 }).map((specs) => {
    const out: ExistingSubnet[] = [];
    const blocks: Cidr[] = [];
    specs.forEach((s, i) => {
      const prefix = Math.max(s.prefix, vpc.prefix);
      const block = subnetAt(vpc, prefix, s.slot % subnetCount(vpc, prefix));
      if (blocks.some((b) => cidrsOverlap(b, block))) return;
      blocks.push(block);
      out.push({ subnetId: `subnet-pre-${i}`, cidr: formatCidr(block), zone: s.zone, role: s.role });
    });
    return out;
  });
}

const scenarioArb = vpcArb.chain((vpc) =>
  fc.record({
    vpc: fc.constant(vpc),
    existing: preExistingArb(vpc),
    picks: fc.array(fc.constantFrom(...zonePool), { maxLength: 30 }),
  }),
);

/** Every /20 of the VPC after the infrastructure /20 that overlaps no subnet, lowest first. */
function freeBlocks(vpc: Cidr, existing: readonly ExistingSubnet[]): Cidr[] {
  const taken = existing.map((s) => parseCidr(s.cidr));
  const count = subnetCount(vpc, COMPUTE_SUBNET_PREFIX);
  const out: Cidr[] = [];
  for (let i = 1; i < count; i++) {
    const block = subnetAt(vpc, COMPUTE_SUBNET_PREFIX, i);
    if (!taken.some((t) => cidrsOverlap(t, block))) out.push(block);
  }
  return out;
}

function placementFailure(vpcCidr: string) {
  return (e: unknown): true => {
    assert.ok(e instanceof CapacityPlacementError, `expected CapacityPlacementError, got ${String(e)}`);
    assert.ok(e instanceof PreconditionError);
    assert.equal(e.kind, 'precondition');
    assert.ok(e.message.includes(`VPC ${vpcCidr} `), e.message);
    assert.match(e.message, /secondary IPv4 CIDR block.*or place the instance group in another VPC/);
    assert.ok(e.remedy && e.message.includes(e.remedy));
    assert.equal(e.problems[0]?.path, 'vpcCidr');
    return true;
  };
}

// ---- properties ---------------------------------------------------------------------------------

describe('placeComputeSubnet: properties over random placement sequences', () => {
  it("creates the lowest free /20 inside the VPC, reuses a zone's subnet, fails only when the VPC is full", () => {
    fc.assert(
      fc.property(scenarioArb, ({ vpc, existing: pre, picks }) => {
        const vpcCidr = formatCidr(vpc);
        const infra: Cidr = { base: vpc.base, prefix: 20 };
        const existing = [...pre];
        const computeByZone = new Map<string, ExistingSubnet>();
        for (const [step, zone] of picks.entries()) {
          const free = freeBlocks(vpc, existing);
          const known = computeByZone.get(zone);
          if (!known && free.length === 0) {
            assert.throws(() => placeComputeSubnet({ vpcCidr, zone, existing }), placementFailure(vpcCidr));
            continue;
          }
          const placed = placeComputeSubnet({ vpcCidr, zone, existing });
          // Order of the observed subnets never changes the answer (AWS lists them in no set order).
          assert.deepEqual(placeComputeSubnet({ vpcCidr, zone, existing: [...existing].reverse() }), placed);
          if (known) {
            assert.deepEqual(placed, { kind: 'reuse', subnetId: known.subnetId, cidr: known.cidr });
            continue;
          }
          assert.equal(placed.kind, 'create');
          const block = parseCidr(placed.cidr);
          assert.equal(block.prefix, COMPUTE_SUBNET_PREFIX);
          assert.ok(cidrContains(vpc, block), `${placed.cidr} outside ${vpcCidr}`);
          assert.ok(!cidrsOverlap(block, infra), `${placed.cidr} inside the infrastructure block`);
          for (const s of existing)
            assert.ok(!cidrsOverlap(block, parseCidr(s.cidr)), `${placed.cidr} overlaps ${s.cidr}`);
          assert.equal(placed.cidr, formatCidr(free[0]!), 'not the lowest free /20');
          const created: ExistingSubnet = { subnetId: `subnet-new-${step}`, cidr: placed.cidr, zone, role: 'compute' };
          existing.push(created);
          computeByZone.set(zone, created);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('fills exactly the free /20s of a VPC, one zone each, then fails naming the VPC and its counts', () => {
    fc.assert(
      fc.property(
        vpcArb.chain((vpc) => fc.tuple(fc.constant(vpc), preExistingArb(vpc))),
        ([vpc, pre]) => {
          const vpcCidr = formatCidr(vpc);
          const existing = [...pre];
          const expected = freeBlocks(vpc, pre).map(formatCidr);
          const created: string[] = [];
          for (let i = 0; i < expected.length; i++) {
            const placed: ComputePlacement = placeComputeSubnet({ vpcCidr, zone: `zone-${i}`, existing });
            assert.equal(placed.kind, 'create');
            created.push(placed.cidr);
            existing.push({ subnetId: `subnet-${i}`, cidr: placed.cidr, zone: `zone-${i}`, role: 'compute' });
          }
          assert.deepEqual(created, expected);
          const total = Math.max(0, subnetCount(vpc, COMPUTE_SUBNET_PREFIX) - 1);
          assert.throws(
            () => placeComputeSubnet({ vpcCidr, zone: 'zone-last', existing }),
            (e: unknown) => {
              placementFailure(vpcCidr)(e);
              const err = e as CapacityPlacementError;
              assert.deepEqual(
                { total: err.capacity.total, used: err.capacity.used, usedByCompute: err.capacity.usedByCompute },
                { total, used: total, usedByCompute: created.length },
              );
              assert.ok(err.message.includes(`holds ${total} compute /20s`), err.message);
              assert.ok(
                err.message.includes(
                  `${total} of them are in use (${created.length} by compute subnets, ${total - created.length} by other subnets)`,
                ),
                err.message,
              );
              assert.ok(err.message.includes('zone-last'));
              return true;
            },
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is pure: the same input gives the same answer and is not mutated', () => {
    fc.assert(
      fc.property(scenarioArb, ({ vpc, existing }) => {
        const frozen = Object.freeze(existing.map((s) => Object.freeze({ ...s })));
        const run = () => {
          try {
            return placeComputeSubnet({ vpcCidr: formatCidr(vpc), zone: 'us-west-2a', existing: frozen });
          } catch (e) {
            return (e as Error).message;
          }
        };
        assert.deepEqual(run(), run());
        assert.deepEqual(frozen, existing);
      }),
    );
  });
});

// ---- examples -----------------------------------------------------------------------------------

const sub = (subnetId: string, cidr: string, zone: string, role: ExistingSubnet['role']): ExistingSubnet => ({
  subnetId,
  cidr,
  zone,
  role,
});

describe('placeComputeSubnet: examples', () => {
  it('places the first compute /20 right after the infrastructure /20, the next zone after it', () => {
    const existing = [
      sub('s-pub', '10.0.0.0/24', 'us-west-2b', 'public'),
      sub('s-priv', '10.0.8.0/24', 'us-west-2b', 'private'),
    ];
    assert.deepEqual(placeComputeSubnet({ vpcCidr: '10.0.0.0/16', zone: 'us-west-2b', existing }), {
      kind: 'create',
      cidr: '10.0.16.0/20',
    });
    existing.push(sub('s-c1', '10.0.16.0/20', 'us-west-2b', 'compute'));
    assert.deepEqual(placeComputeSubnet({ vpcCidr: '10.0.0.0/16', zone: 'us-west-2b', existing }), {
      kind: 'reuse',
      subnetId: 's-c1',
      cidr: '10.0.16.0/20',
    });
    assert.deepEqual(placeComputeSubnet({ vpcCidr: '10.0.0.0/16', zone: 'us-west-2c', existing }), {
      kind: 'create',
      cidr: '10.0.32.0/20',
    });
  });

  it('never uses the infrastructure /20, even when it is empty', () => {
    assert.deepEqual(placeComputeSubnet({ vpcCidr: '10.1.0.0/16', zone: 'a', existing: [] }), {
      kind: 'create',
      cidr: '10.1.16.0/20',
    });
  });

  it('reuses the first compute /20 of the zone in CIDR order, whatever the listing order', () => {
    const existing = [
      sub('s-hi', '10.0.48.0/20', 'z', 'compute'),
      sub('s-lo', '10.0.32.0/20', 'z', 'compute'),
      sub('s-other-zone', '10.0.16.0/20', 'y', 'compute'),
    ];
    assert.deepEqual(placeComputeSubnet({ vpcCidr: '10.0.0.0/16', zone: 'z', existing }), {
      kind: 'reuse',
      subnetId: 's-lo',
      cidr: '10.0.32.0/20',
    });
  });

  it('does not reuse a compute subnet smaller than a /20, and does not overlap it either', () => {
    const existing = [sub('s-small', '10.0.16.0/24', 'z', 'compute')];
    assert.deepEqual(placeComputeSubnet({ vpcCidr: '10.0.0.0/16', zone: 'z', existing }), {
      kind: 'create',
      cidr: '10.0.32.0/20',
    });
  });

  it('reuses a larger compute subnet (a /19 holds a /20 fleet)', () => {
    const existing = [sub('s-big', '10.0.32.0/19', 'z', 'compute')];
    assert.deepEqual(placeComputeSubnet({ vpcCidr: '10.0.0.0/16', zone: 'z', existing }), {
      kind: 'reuse',
      subnetId: 's-big',
      cidr: '10.0.32.0/19',
    });
  });

  it('skips every /20 that any subnet, of any role, touches', () => {
    const existing = [
      sub('a', '10.0.16.128/25', 'x', 'other'),
      sub('b', '10.0.32.0/19', 'x', 'private'),
      sub('c', '10.0.64.16/28', 'x', 'public'),
      sub('d', '10.0.88.0/21', 'x', 'other'),
    ];
    assert.deepEqual(placeComputeSubnet({ vpcCidr: '10.0.0.0/16', zone: 'z', existing }), {
      kind: 'create',
      cidr: '10.0.96.0/20',
    });
  });

  it('ignores subnets outside the primary block (in secondary blocks) when placing in the primary', () => {
    const existing = [sub('far', '100.64.0.0/20', 'x', 'other')];
    assert.deepEqual(placeComputeSubnet({ vpcCidr: '10.0.0.0/19', zone: 'z', existing }), {
      kind: 'create',
      cidr: '10.0.16.0/20',
    });
  });

  it('moves on to secondary CIDR blocks, the documented remedy, once the primary is full', () => {
    const existing = [sub('c1', '10.0.16.0/20', 'y', 'compute'), sub('o1', '100.64.0.0/24', 'y', 'other')];
    const req = { vpcCidr: '10.0.0.0/19', zone: 'z', existing };
    assert.throws(() => placeComputeSubnet(req), placementFailure('10.0.0.0/19'));
    assert.deepEqual(placeComputeSubnet({ ...req, secondaryCidrs: ['100.64.0.0/19'] }), {
      kind: 'create',
      cidr: '100.64.16.0/20',
    });
    assert.throws(
      () => placeComputeSubnet({ ...req, secondaryCidrs: ['100.64.0.0/20'] }),
      (e: unknown) =>
        placementFailure('10.0.0.0/19')(e) &&
        /secondary: 100\.64\.0\.0\/20\) holds 2 compute \/20s/.test((e as Error).message),
    );
  });

  it('rejects a secondary block that overlaps the primary or another secondary', () => {
    assert.throws(
      () => placeComputeSubnet({ vpcCidr: '10.0.0.0/16', secondaryCidrs: ['10.0.128.0/17'], zone: 'z', existing: [] }),
      inputErrorOn('secondaryCidrs[0]', /overlaps the primary block 10\.0\.0\.0\/16/),
    );
    assert.throws(
      () =>
        placeComputeSubnet({
          vpcCidr: '10.0.0.0/16',
          secondaryCidrs: ['100.64.0.0/16', '100.64.0.0/20'],
          zone: 'z',
          existing: [],
        }),
      inputErrorOn('secondaryCidrs[1]', /overlaps the secondary block 100\.64\.0\.0\/16/),
    );
  });

  it('fails with a VPC of a single /20 (no room besides infrastructure)', () => {
    assert.throws(
      () => placeComputeSubnet({ vpcCidr: '10.0.0.0/20', zone: 'z', existing: [] }),
      (e: unknown) => placementFailure('10.0.0.0/20')(e) && /holds 0 compute \/20s/.test((e as Error).message),
    );
  });

  it('rejects malformed input with the field path', () => {
    assert.throws(
      () => placeComputeSubnet({ vpcCidr: '10.0.0.0', zone: 'z', existing: [] }),
      inputErrorOn('vpcCidr', /not a CIDR block/),
    );
    assert.throws(
      () =>
        placeComputeSubnet({
          vpcCidr: '10.0.0.0/16',
          zone: 'z',
          existing: [sub('a', '10.0.0.0/24', 'z', 'public'), sub('b', '10.0.1.1/24', 'z', 'other')],
        }),
      inputErrorOn('existing[1].cidr', /host bits set/),
    );
    assert.throws(
      () => placeComputeSubnet({ vpcCidr: '10.0.0.0/16', zone: ' ', existing: [] }),
      inputErrorOn('zone', /Availability Zone/),
    );
  });
});

describe('computeSubnetsByZone', () => {
  it('groups compute subnets by zone in name order, each in CIDR order, returning the given objects', () => {
    const c2 = sub('c2', '10.0.48.0/20', 'b', 'compute');
    const c1 = sub('c1', '10.0.32.0/20', 'b', 'compute');
    const c3 = sub('c3', '10.0.16.0/20', 'a', 'compute');
    const byZone = computeSubnetsByZone([c2, sub('p', '10.0.0.0/24', 'a', 'public'), c1, c3]);
    assert.deepEqual([...byZone.keys()], ['a', 'b']);
    assert.deepEqual(
      byZone.get('b')!.map((s) => s.subnetId),
      ['c1', 'c2'],
    );
    assert.equal(byZone.get('a')![0], c3);
    assert.equal(computeSubnetsByZone([]).size, 0);
  });
});

describe('computeCapacity', () => {
  it('counts the /20s after the infrastructure block and those any subnet touches', () => {
    assert.deepEqual(computeCapacity({ vpcCidr: '10.0.0.0/16', existing: [] }), {
      total: 15,
      used: 0,
      usedByCompute: 0,
    });
    const existing = [
      sub('infra', '10.0.0.0/24', 'a', 'public'), // inside the infrastructure block: not counted
      sub('c', '10.0.16.0/20', 'a', 'compute'),
      sub('big', '10.0.64.0/18', 'a', 'other'), // four /20s
      sub('tiny', '10.0.200.16/28', 'a', 'other'),
      sub('tiny2', '10.0.200.32/28', 'a', 'other'), // same /20 as tiny
    ];
    assert.deepEqual(computeCapacity({ vpcCidr: '10.0.0.0/16', existing }), { total: 15, used: 6, usedByCompute: 1 });
    assert.deepEqual(computeCapacity({ vpcCidr: '10.0.0.0/16', secondaryCidrs: ['100.64.0.0/18'], existing }), {
      total: 19,
      used: 6,
      usedByCompute: 1,
    });
  });
});
