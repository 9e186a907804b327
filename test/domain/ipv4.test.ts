import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  type Cidr,
  cidrContains,
  cidrEnd,
  cidrSize,
  cidrsOverlap,
  compareCidrs,
  formatCidr,
  formatIpv4,
  parseCidr,
  parseIpv4,
  subnetAt,
  subnetCount,
} from '../../src/domain/network/ipv4.js';
import { inputErrorOn } from './helpers.js';

const address = fc.integer({ min: 0, max: 2 ** 32 - 1 });
/** Any valid CIDR: a random address with its host bits cleared. */
const cidr: fc.Arbitrary<Cidr> = fc.tuple(address, fc.integer({ min: 0, max: 32 })).map(([a, prefix]) => {
  const size = 2 ** (32 - prefix);
  return { base: a - (a % size), prefix };
});

describe('IPv4 addresses', () => {
  it('parse and format round-trip for every 32-bit address', () => {
    fc.assert(fc.property(address, (n) => parseIpv4(formatIpv4(n)) === n));
  });

  it('format keeps the high octet above 127 positive (no signed bitwise arithmetic)', () => {
    assert.equal(formatIpv4(2 ** 32 - 1), '255.255.255.255');
    assert.equal(parseIpv4('192.168.1.10'), 3232235786);
    assert.equal(formatIpv4(0), '0.0.0.0');
  });

  it('reject malformed addresses naming the field', () => {
    for (const bad of [
      '10.0.0',
      '10.0.0.0.0',
      '256.0.0.1',
      '10.0.0.-1',
      '010.0.0.1',
      '10.0.0.1 ',
      '',
      'a.b.c.d',
      '1e1.0.0.0',
    ]) {
      assert.throws(() => parseIpv4(bad, 'gateway'), inputErrorOn('gateway', /IPv4 address/), bad);
    }
  });

  it('format refuses numbers that are not addresses', () => {
    for (const bad of [-1, 2 ** 32, 1.5, Number.NaN]) assert.throws(() => formatIpv4(bad), RangeError);
  });
});

describe('CIDR blocks', () => {
  it('parse and format round-trip for every block', () => {
    fc.assert(fc.property(cidr, (c) => assert.deepEqual(parseCidr(formatCidr(c)), c)));
  });

  it('parse the documented example', () => {
    assert.deepEqual(parseCidr('10.0.0.0/16'), { base: 167772160, prefix: 16 });
    assert.deepEqual(parseCidr('0.0.0.0/0'), { base: 0, prefix: 0 });
    assert.deepEqual(parseCidr('255.255.255.255/32'), { base: 2 ** 32 - 1, prefix: 32 });
  });

  it('reject host bits and suggest the block the user probably meant', () => {
    assert.throws(
      () => parseCidr('10.0.0.1/16', 'vpcCidr'),
      inputErrorOn('vpcCidr', /host bits set; did you mean 10\.0\.0\.0\/16\?/),
    );
    assert.throws(() => parseCidr('10.0.17.0/20'), inputErrorOn('cidr', /did you mean 10\.0\.16\.0\/20/));
  });

  it('reject malformed blocks naming the field', () => {
    for (const bad of [
      '10.0.0.0',
      '10.0.0.0/',
      '10.0.0.0/33',
      '10.0.0.0/016',
      '10.0.0.0/-1',
      '10.0.0/16',
      '300.0.0.0/8',
      ' 10.0.0.0/16',
      '10.0.0.0/16/1',
      '',
    ]) {
      assert.throws(() => parseCidr(bad, 'vpcCidr'), inputErrorOn('vpcCidr', /./), bad);
    }
    assert.throws(() => parseCidr('10.0.0.0/33', 'vpcCidr'), inputErrorOn('vpcCidr', /prefixes go from 0 to 32/));
  });

  it('size and end', () => {
    assert.equal(cidrSize(parseCidr('10.0.0.0/20')), 4096);
    assert.equal(cidrSize(parseCidr('0.0.0.0/0')), 2 ** 32);
    assert.equal(cidrEnd(parseCidr('10.0.0.0/24')), parseIpv4('10.0.1.0'));
  });

  it('two blocks overlap exactly when one contains the other', () => {
    fc.assert(
      fc.property(cidr, cidr, (a, b) => {
        assert.equal(cidrsOverlap(a, b), cidrsOverlap(b, a));
        assert.equal(cidrsOverlap(a, b), cidrContains(a, b) || cidrContains(b, a));
      }),
    );
  });

  it('containment agrees with address ranges', () => {
    fc.assert(
      fc.property(cidr, cidr, (a, b) => {
        const inside = b.base >= a.base && b.base + cidrSize(b) - 1 <= a.base + cidrSize(a) - 1;
        assert.equal(cidrContains(a, b), inside);
      }),
    );
  });

  it('examples of contains and overlaps', () => {
    const vpc = parseCidr('10.0.0.0/16');
    assert.ok(cidrContains(vpc, parseCidr('10.0.16.0/20')));
    assert.ok(cidrContains(vpc, vpc));
    assert.ok(!cidrContains(vpc, parseCidr('10.1.0.0/20')));
    assert.ok(!cidrContains(parseCidr('10.0.16.0/20'), vpc));
    assert.ok(cidrsOverlap(vpc, parseCidr('10.0.255.0/24')));
    assert.ok(!cidrsOverlap(parseCidr('10.0.0.0/20'), parseCidr('10.0.16.0/20')));
  });

  it('subnetAt tiles the parent without gaps or overlaps', () => {
    fc.assert(
      fc.property(
        cidr.filter((c) => c.prefix <= 28),
        fc.integer({ min: 0, max: 4 }),
        (parent, extra) => {
          const prefix = parent.prefix + extra;
          const count = subnetCount(parent, prefix);
          assert.equal(count, 2 ** extra);
          const blocks = Array.from({ length: count }, (_, i) => subnetAt(parent, prefix, i));
          blocks.forEach((b, i) => {
            assert.ok(cidrContains(parent, b));
            if (i > 0) assert.equal(b.base, cidrEnd(blocks[i - 1]!));
          });
          assert.equal(cidrEnd(blocks.at(-1)!), cidrEnd(parent));
        },
      ),
    );
  });

  it('subnetAt names the parent when the index is out of range', () => {
    assert.equal(formatCidr(subnetAt(parseCidr('10.0.0.0/16'), 20, 1)), '10.0.16.0/20');
    assert.throws(() => subnetAt(parseCidr('10.0.0.0/16'), 20, 16), /10\.0\.0\.0\/16 has 16 \/20 blocks/);
    assert.equal(subnetCount(parseCidr('10.0.0.0/24'), 20), 0);
  });

  it('compareCidrs orders by address, then the larger block first', () => {
    const sorted = ['10.0.16.0/20', '10.0.0.0/24', '10.0.0.0/16', '9.0.0.0/8']
      .map((c) => parseCidr(c))
      .sort(compareCidrs)
      .map(formatCidr);
    assert.deepEqual(sorted, ['9.0.0.0/8', '10.0.0.0/16', '10.0.0.0/24', '10.0.16.0/20']);
  });
});
