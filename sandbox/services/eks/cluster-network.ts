import type { SandboxState } from '../../core/store.js';
import { getSecurityGroup, getSubnet, getVpc, type SubnetView } from '../ec2/public.js';
import { invalidParameter } from './errors.js';

/**
 * The VPC checks CreateCluster makes before anything exists: subnets exist, share one VPC and span
 * at least two Availability Zones; security groups exist in that VPC; the service CIDR is private,
 * /12–/24, and does not overlap the VPC.
 */
export interface ClusterNetwork {
  vpcId: string;
  vpcCidr: string;
  subnets: SubnetView[];
  securityGroupIds: string[];
  /** Subnets for the two control-plane ENIs, in two different AZs. */
  eniSubnets: SubnetView[];
}

export function checkClusterNetwork(
  state: SandboxState,
  region: string,
  subnetIds: string[],
  securityGroupIds: string[],
): ClusterNetwork {
  if (subnetIds.length === 0)
    throw invalidParameter(
      'Subnets are required: resourcesVpcConfig.subnetIds must name at least two subnets in different Availability Zones.',
    );
  if (subnetIds.length > 16) throw invalidParameter('resourcesVpcConfig.subnetIds: at most 16 subnets are allowed.');
  const subnets: SubnetView[] = [];
  for (const id of new Set(subnetIds)) {
    const s = getSubnet(state, region, id);
    if (!s) throw invalidParameter(`The subnet ID '${id}' does not exist (resourcesVpcConfig.subnetIds).`);
    subnets.push(s);
  }
  const vpcId = subnets[0]!.vpcId;
  const stray = subnets.find((s) => s.vpcId !== vpcId);
  if (stray)
    throw invalidParameter(
      `Subnets must all belong to the same VPC: ${stray.subnetId} is in ${stray.vpcId}, ${subnets[0]!.subnetId} in ${vpcId}.`,
    );
  const zones = [...new Set(subnets.map((s) => s.availabilityZone))];
  if (zones.length < 2)
    throw invalidParameter(`Subnets specified must be in at least two different AZs (all are in ${zones[0]}).`);

  if (securityGroupIds.length > 5)
    throw invalidParameter('resourcesVpcConfig.securityGroupIds: at most 5 security groups are allowed.');
  for (const id of securityGroupIds) {
    const g = getSecurityGroup(state, region, id);
    if (!g) throw invalidParameter(`The security group '${id}' does not exist (resourcesVpcConfig.securityGroupIds).`);
    if (g.vpcId !== vpcId)
      throw invalidParameter(`Security group ${id} is in VPC ${g.vpcId}, not in the subnets' VPC ${vpcId}.`);
  }
  const vpc = getVpc(state, region, vpcId);
  if (!vpc) throw invalidParameter(`The VPC '${vpcId}' of the subnets does not exist.`);

  const eniSubnets = zones.slice(0, 2).map((z) => subnets.find((s) => s.availabilityZone === z)!);
  const full = eniSubnets.find((s) => s.availableIpAddressCount < 1);
  if (full)
    throw invalidParameter(`Subnet ${full.subnetId} has no free IP addresses for the cluster's network interfaces.`);
  return { vpcId, vpcCidr: vpc.cidrBlock, subnets, securityGroupIds: [...new Set(securityGroupIds)], eniSubnets };
}

function parseCidr(cidr: string): { base: number; bits: number } | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  if (!m) return undefined;
  const octets = m.slice(1, 5).map(Number);
  const bits = Number(m[5]);
  if (octets.some((o) => o > 255) || bits > 32) return undefined;
  const base = ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
  return { base, bits };
}

function contains(outer: { base: number; bits: number }, inner: { base: number; bits: number }): boolean {
  if (inner.bits < outer.bits) return false;
  const mask = outer.bits === 0 ? 0 : (0xffffffff << (32 - outer.bits)) >>> 0;
  return (inner.base & mask) >>> 0 === (outer.base & mask) >>> 0;
}

function overlaps(a: { base: number; bits: number }, b: { base: number; bits: number }): boolean {
  return contains(a, b) || contains(b, a);
}

const PRIVATE_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'].map((c) => parseCidr(c)!);

/** AWS's choice when no service CIDR is given: 10.100.0.0/16, or 172.20.0.0/16 when the VPC is in 10.0.0.0/8. */
export function defaultServiceCidr(vpcCidr: string): string {
  const vpc = parseCidr(vpcCidr);
  return vpc && contains(PRIVATE_RANGES[0]!, vpc) ? '172.20.0.0/16' : '10.100.0.0/16';
}

export function checkServiceCidr(cidr: string, vpcCidr: string): void {
  const parsed = parseCidr(cidr);
  if (!parsed)
    throw invalidParameter(`kubernetesNetworkConfig.serviceIpv4Cidr '${cidr}' is not a valid IPv4 CIDR block.`);
  if (parsed.bits < 12 || parsed.bits > 24)
    throw invalidParameter(
      `kubernetesNetworkConfig.serviceIpv4Cidr '${cidr}' must have a prefix length between /12 and /24.`,
    );
  const mask = (0xffffffff << (32 - parsed.bits)) >>> 0;
  if ((parsed.base & mask) >>> 0 !== parsed.base)
    throw invalidParameter(`kubernetesNetworkConfig.serviceIpv4Cidr '${cidr}' is not a network address.`);
  if (!PRIVATE_RANGES.some((r) => contains(r, parsed))) {
    throw invalidParameter(
      `kubernetesNetworkConfig.serviceIpv4Cidr '${cidr}' must be within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16.`,
    );
  }
  const vpc = parseCidr(vpcCidr);
  if (vpc && overlaps(vpc, parsed))
    throw invalidParameter(`kubernetesNetworkConfig.serviceIpv4Cidr '${cidr}' overlaps the VPC CIDR ${vpcCidr}.`);
}
