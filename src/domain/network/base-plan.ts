import { InputError } from '../errors.js';
import { type Cidr, formatCidr, parseCidr, subnetAt } from './ipv4.js';

/**
 * The fixed part of a cluster network. The first /20 of the VPC is reserved for infrastructure:
 * one public /24 per zone (NAT gateway, load balancers) and one private /24 per zone (EKS
 * control-plane ENIs, system pods). Everything after it is left to /20 compute subnets, placed
 * one per zone on demand by `placeComputeSubnet` — so adding capacity never has to move or
 * resize a subnet the cluster already depends on.
 *
 * Layout inside the infrastructure /20 (sixteen /24 slots):
 *   slots 0–7  public  /24, zone i → slot i
 *   slots 8–15 private /24, zone i → slot 8 + i
 * A zone keeps its slot when zones are appended, so the plan of an existing network stays valid.
 */

export const DEFAULT_VPC_CIDR = '10.0.0.0/16';
/** The infrastructure block: the first /20 of the VPC. */
export const INFRA_BLOCK_PREFIX = 20;
/** Public and private subnets: 256 addresses each, plenty for NAT, load balancers and EKS ENIs. */
export const BASE_SUBNET_PREFIX = 24;
/** EC2 refuses VPC blocks larger than /16. */
export const MIN_VPC_PREFIX = 16;
/** The VPC must hold the infrastructure /20 and at least one compute /20. */
export const MAX_VPC_PREFIX = 19;
/** Sixteen /24 slots in the infrastructure /20, half public, half private. */
export const MAX_ZONES = 8;
/** EKS requires subnets in at least two Availability Zones. */
export const MIN_ZONES = 2;

export type BaseSubnetRole = 'public' | 'private';

export interface PlannedSubnet {
  readonly cidr: string;
  readonly zone: string;
  readonly role: BaseSubnetRole;
}

export interface BaseNetworkPlan {
  /** The VPC block, normalised (e.g. '10.0.0.0/16'). */
  readonly vpcCidr: string;
  /** The reserved infrastructure block, the VPC's first /20. */
  readonly infraCidr: string;
  /** The zone of the first compute subnet: the first zone given. */
  readonly computeZone: string;
  /** One public /24 per zone, in the order of `zones`. */
  readonly public: readonly PlannedSubnet[];
  /** One private /24 per zone, in the order of `zones`. */
  readonly private: readonly PlannedSubnet[];
}

export interface BaseNetworkOptions {
  /** VPC block, /16 to /19. Defaults to 10.0.0.0/16. */
  vpcCidr?: string;
  /** Availability Zones, at least two and distinct; the first is where compute goes. */
  zones: readonly string[];
}

/** The VPC's first /20. Shared with capacity placement, which must never place compute there. */
export function infraBlock(vpc: Cidr): Cidr {
  return { base: vpc.base, prefix: INFRA_BLOCK_PREFIX };
}

/**
 * Parses and bounds-checks a VPC block for a new cluster network.
 *
 * @example
 * parseVpcCidr('10.1.0.0/16') // { base: 167837696, prefix: 16 }
 * parseVpcCidr('10.1.0.0/20') // throws InputError naming vpcCidr
 */
export function parseVpcCidr(text: string, path = 'vpcCidr'): Cidr {
  const vpc = parseCidr(text, path);
  if (vpc.prefix < MIN_VPC_PREFIX) {
    throw InputError.field(
      path,
      `${text} is larger than EC2 allows for a VPC block; use a /${MIN_VPC_PREFIX} to /${MAX_VPC_PREFIX}`,
    );
  }
  if (vpc.prefix > MAX_VPC_PREFIX) {
    throw InputError.field(
      path,
      `${text} is too small: the VPC must hold the /${INFRA_BLOCK_PREFIX} infrastructure block and at least one /${INFRA_BLOCK_PREFIX} compute subnet, so use a /${MIN_VPC_PREFIX} to /${MAX_VPC_PREFIX}`,
    );
  }
  return vpc;
}

function checkZones(zones: readonly string[]): void {
  if (zones.length < MIN_ZONES) {
    throw InputError.field(
      'zones',
      `needs at least ${MIN_ZONES} Availability Zones (EKS requires subnets in two zones); got ${zones.length}`,
    );
  }
  if (zones.length > MAX_ZONES) {
    throw InputError.field(
      'zones',
      `allows at most ${MAX_ZONES} Availability Zones (the infrastructure /${INFRA_BLOCK_PREFIX} holds ${MAX_ZONES} public and ${MAX_ZONES} private /${BASE_SUBNET_PREFIX}s); got ${zones.length}`,
    );
  }
  const seen = new Map<string, number>();
  zones.forEach((zone, i) => {
    if (zone.trim() === '' || zone.trim() !== zone) {
      throw InputError.field(`zones[${i}]`, `'${zone}' is not an Availability Zone name such as us-west-2b`);
    }
    const first = seen.get(zone);
    if (first !== undefined)
      throw InputError.field(
        `zones[${i}]`,
        `${zone} is listed twice (also zones[${first}]); each zone gets one public and one private subnet`,
      );
    seen.set(zone, i);
  });
}

/**
 * Plans the cluster network's fixed part: the infrastructure /20 with one public and one private
 * /24 per zone. Pure: it computes CIDRs, the cloud adapter creates them.
 *
 * @example
 * const plan = planBaseNetwork({ zones: ['us-west-2b', 'us-west-2a'] });
 * plan.public.map((s) => s.cidr)  // ['10.0.0.0/24', '10.0.1.0/24']
 * plan.private.map((s) => s.cidr) // ['10.0.8.0/24', '10.0.9.0/24']
 * plan.computeZone                // 'us-west-2b'
 */
export function planBaseNetwork({ vpcCidr = DEFAULT_VPC_CIDR, zones }: BaseNetworkOptions): BaseNetworkPlan {
  const vpc = parseVpcCidr(vpcCidr);
  checkZones(zones);
  const infra = infraBlock(vpc);
  const slot = (index: number) => formatCidr(subnetAt(infra, BASE_SUBNET_PREFIX, index));
  return {
    vpcCidr: formatCidr(vpc),
    infraCidr: formatCidr(infra),
    computeZone: zones[0]!,
    public: zones.map((zone, i) => ({ cidr: slot(i), zone, role: 'public' as const })),
    private: zones.map((zone, i) => ({ cidr: slot(MAX_ZONES + i), zone, role: 'private' as const })),
  };
}
