import { InputError, PreconditionError } from '../errors.js';
import { infraBlock } from './base-plan.js';
import { type Cidr, cidrEnd, cidrsOverlap, compareCidrs, formatCidr, parseCidr, subnetCount } from './ipv4.js';

/**
 * Capacity placement: where an instance group's nodes live. Every capacity path (on-demand, spot,
 * training plan, autoscaled groups) calls `placeComputeSubnet`, so they all obey one rule: one /20
 * compute subnet per zone (4,091 usable addresses — room for large accelerator fleets whose pods
 * take VPC addresses), reused by every group of that zone, placed in the lowest free /20 of the VPC
 * after the reserved infrastructure /20. Deterministic output from the observed subnets is what
 * makes a retried create find the subnet its first attempt made instead of making a second one.
 */

/** Compute subnets are /20s. */
export const COMPUTE_SUBNET_PREFIX = 20;

export type SubnetRole = 'public' | 'private' | 'compute' | 'other';

/** A subnet that exists in the VPC, as the cloud adapter observed it. */
export interface ExistingSubnet {
  readonly subnetId: string;
  readonly cidr: string;
  readonly zone: string;
  readonly role: SubnetRole;
}

export interface PlacementRequest {
  /** The VPC's primary CIDR block; its first /20 is the infrastructure block and never used for compute. */
  vpcCidr: string;
  /**
   * Secondary CIDR blocks associated with the VPC (the remedy for a full VPC). Searched after the
   * primary block, in CIDR order, wholly usable (no infrastructure block in them).
   */
  secondaryCidrs?: readonly string[];
  /** The Availability Zone the instance group runs in. */
  zone: string;
  /** Every subnet of the VPC, whatever its role: a new subnet must overlap none of them. */
  existing: readonly ExistingSubnet[];
}

export type ComputePlacement =
  | { readonly kind: 'reuse'; readonly subnetId: string; readonly cidr: string }
  | { readonly kind: 'create'; readonly cidr: string };

/** How many compute /20s the VPC can hold and how many are taken (fully or partly) by existing subnets. */
export interface ComputeCapacity {
  readonly total: number;
  readonly used: number;
  /** Of `used`: the /20s touched by compute subnets (the rest hold other subnets). */
  readonly usedByCompute: number;
}

/**
 * No free /20 is left: a precondition the user fixes by growing the VPC or choosing another.
 * The message names the VPC block(s), the /20 count and the use, so it is actionable on its own.
 */
export interface CapacityPlacementErrorOptions {
  /** The VPC's primary block. */
  vpcCidr: string;
  zone: string;
  capacity: ComputeCapacity;
  secondaryCidrs?: readonly string[];
}

export class CapacityPlacementError extends PreconditionError {
  readonly vpcCidr: string;
  readonly zone: string;
  readonly capacity: ComputeCapacity;
  readonly secondaryCidrs: readonly string[];
  constructor({ vpcCidr, zone, capacity, secondaryCidrs = [] }: CapacityPlacementErrorOptions) {
    const remedy =
      'Associate a secondary IPv4 CIDR block with the VPC (aws ec2 associate-vpc-cidr-block --vpc-id <vpc-id> --cidr-block 100.64.0.0/16) ' +
      'and retry, or place the instance group in another VPC.';
    const blocks = secondaryCidrs.length ? `${vpcCidr} (secondary: ${secondaryCidrs.join(', ')})` : vpcCidr;
    const other = capacity.used - capacity.usedByCompute;
    super({
      message:
        `No free /${COMPUTE_SUBNET_PREFIX} for a compute subnet in ${zone}: VPC ${blocks} holds ${capacity.total} compute /${COMPUTE_SUBNET_PREFIX}s ` +
        `(besides its infrastructure /${COMPUTE_SUBNET_PREFIX}) and ${capacity.used} of them are in use ` +
        `(${capacity.usedByCompute} by compute subnets, ${other} by other subnets). ${remedy}`,
      problems: [
        { path: 'vpcCidr', message: `${vpcCidr} has no free /${COMPUTE_SUBNET_PREFIX} left for a compute subnet` },
      ],
      remedy,
    });
    this.vpcCidr = vpcCidr;
    this.zone = zone;
    this.capacity = capacity;
    this.secondaryCidrs = secondaryCidrs;
    this.name = 'CapacityPlacementError';
  }
}

/** A range of the VPC where compute /20s may go: [start, end), both /20-aligned. */
interface Region {
  start: number;
  end: number;
}

const BLOCK = 2 ** (32 - COMPUTE_SUBNET_PREFIX);
const alignUp = (address: number) => Math.ceil(address / BLOCK) * BLOCK;

/** The VPC's blocks, primary first, then secondaries in CIDR order; rejects malformed or overlapping ones. */
function vpcBlocks(vpcCidr: string, secondaryCidrs: readonly string[]): { primary: Cidr; secondary: Cidr[] } {
  const primary = parseCidr(vpcCidr, 'vpcCidr');
  const secondary = secondaryCidrs
    .map((c, i) => ({ cidr: parseCidr(c, `secondaryCidrs[${i}]`), i }))
    .sort((a, b) => compareCidrs(a.cidr, b.cidr));
  const seen = [{ cidr: primary, name: 'the primary block' }];
  for (const { cidr, i } of secondary) {
    const clash = seen.find((s) => cidrsOverlap(s.cidr, cidr));
    if (clash)
      throw InputError.field(
        `secondaryCidrs[${i}]`,
        `${formatCidr(cidr)} overlaps ${clash.name} ${formatCidr(clash.cidr)}`,
      );
    seen.push({ cidr, name: 'the secondary block' });
  }
  return { primary, secondary: secondary.map((s) => s.cidr) };
}

/** Where compute /20s may go: after the infrastructure /20 of the primary block, then all of each secondary. */
function regions(vpcCidr: string, secondaryCidrs: readonly string[]): Region[] {
  const { primary, secondary } = vpcBlocks(vpcCidr, secondaryCidrs);
  const out: Region[] = [];
  // A block smaller than a /20 holds no compute subnet at all.
  if (subnetCount(primary, COMPUTE_SUBNET_PREFIX) > 1)
    out.push({ start: cidrEnd(infraBlock(primary)), end: cidrEnd(primary) });
  for (const cidr of secondary) {
    if (subnetCount(cidr, COMPUTE_SUBNET_PREFIX) > 0) out.push({ start: cidr.base, end: cidrEnd(cidr) });
  }
  return out;
}

/** Each subnet with its parsed block; the subnet object itself is kept (callers get back what they gave). */
function parseExisting(existing: readonly ExistingSubnet[]): Array<{ subnet: ExistingSubnet; block: Cidr }> {
  return existing.map((subnet, i) => ({ subnet, block: parseCidr(subnet.cidr, `existing[${i}].cidr`) }));
}

// Code-unit order, not localeCompare: the same on every machine, whatever its locale.
const compareZones = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The lowest /20 of `region` that overlaps none of `taken` (sorted by base), or undefined. */
function lowestFree(region: Region, taken: readonly Cidr[]): number | undefined {
  let cursor = region.start;
  for (const t of taken) {
    if (cursor + BLOCK > region.end) return undefined;
    if (cidrEnd(t) <= cursor) continue;
    if (t.base >= cursor + BLOCK) break;
    cursor = alignUp(cidrEnd(t));
  }
  return cursor + BLOCK <= region.end ? cursor : undefined;
}

/** How many /20 slots of `region` the blocks touch (merging index ranges, no per-slot loop). */
function slotsTouched(region: Region, blocks: readonly Cidr[]): number {
  const ranges = blocks
    .map((b) => [Math.max(region.start, b.base), Math.min(region.end, cidrEnd(b))] as const)
    .filter(([from, to]) => from < to)
    .map(([from, to]) => [Math.floor(from / BLOCK), Math.ceil(to / BLOCK)] as const)
    .sort((a, b) => a[0] - b[0]);
  let count = 0;
  let reached = -Infinity;
  for (const [from, to] of ranges) {
    const start = Math.max(from, reached);
    if (to > start) count += to - start;
    reached = Math.max(reached, to);
  }
  return count;
}

/**
 * The VPC's compute capacity in /20s; what a "VPC full" message and a capacity gauge show.
 *
 * @example
 * computeCapacity({ vpcCidr: '10.0.0.0/16', existing: [] }) // { total: 15, used: 0, usedByCompute: 0 }
 */
export function computeCapacity(req: Omit<PlacementRequest, 'zone'>): ComputeCapacity {
  const rs = regions(req.vpcCidr, req.secondaryCidrs ?? []);
  const subnets = parseExisting(req.existing);
  const all = subnets.map((s) => s.block);
  const compute = subnets.filter((s) => s.subnet.role === 'compute').map((s) => s.block);
  const sum = (f: (r: Region) => number) => rs.reduce((n, r) => n + f(r), 0);
  return {
    total: sum((r) => (r.end - r.start) / BLOCK),
    used: sum((r) => slotsTouched(r, all)),
    usedByCompute: sum((r) => slotsTouched(r, compute)),
  };
}

/**
 * Compute subnets grouped by zone (zones in name order), each list in CIDR order.
 *
 * @example
 * computeSubnetsByZone(existing).get('us-west-2b')?.[0]?.subnetId // 'subnet-0abc…'
 */
export function computeSubnetsByZone(existing: readonly ExistingSubnet[]): Map<string, ExistingSubnet[]> {
  const compute = parseExisting(existing)
    .filter((s) => s.subnet.role === 'compute')
    .sort((a, b) => compareZones(a.subnet.zone, b.subnet.zone) || compareCidrs(a.block, b.block));
  const byZone = new Map<string, ExistingSubnet[]>();
  for (const { subnet } of compute) {
    const list = byZone.get(subnet.zone) ?? [];
    list.push(subnet);
    byZone.set(subnet.zone, list);
  }
  return byZone;
}

/**
 * THE capacity-placement function. Reuses the zone's compute subnet when there is one (the first in
 * CIDR order that is at least a /20 — a smaller legacy one would starve a large fleet of addresses),
 * else picks the lowest free /20 after the infrastructure block.
 * Throws CapacityPlacementError when the VPC has no free /20, InputError on malformed CIDRs.
 *
 * @example
 * placeComputeSubnet({ vpcCidr: '10.0.0.0/16', zone: 'us-west-2b', existing: [] })
 * // { kind: 'create', cidr: '10.0.16.0/20' }
 * placeComputeSubnet({ vpcCidr: '10.0.0.0/16', zone: 'us-west-2b',
 *   existing: [{ subnetId: 'subnet-1', cidr: '10.0.16.0/20', zone: 'us-west-2b', role: 'compute' }] })
 * // { kind: 'reuse', subnetId: 'subnet-1', cidr: '10.0.16.0/20' }
 */
export function placeComputeSubnet(req: PlacementRequest): ComputePlacement {
  if (req.zone.trim() === '') throw InputError.field('zone', 'must name the Availability Zone of the instance group');
  const rs = regions(req.vpcCidr, req.secondaryCidrs ?? []);
  const subnets = parseExisting(req.existing);

  const reusable = (computeSubnetsByZone(req.existing).get(req.zone) ?? []).find(
    (s) => parseCidr(s.cidr).prefix <= COMPUTE_SUBNET_PREFIX,
  );
  if (reusable) return { kind: 'reuse', subnetId: reusable.subnetId, cidr: reusable.cidr };

  const taken = subnets.map((s) => s.block).sort(compareCidrs);
  for (const region of rs) {
    const base = lowestFree(region, taken);
    if (base !== undefined) return { kind: 'create', cidr: formatCidr({ base, prefix: COMPUTE_SUBNET_PREFIX }) };
  }
  const blocks = vpcBlocks(req.vpcCidr, req.secondaryCidrs ?? []);
  throw new CapacityPlacementError({
    vpcCidr: formatCidr(blocks.primary),
    zone: req.zone,
    capacity: computeCapacity(req),
    secondaryCidrs: blocks.secondary.map(formatCidr),
  });
}
