import { keyed } from '../../core/keyed.js';
import { randomBytes } from 'node:crypto';
import { AwsError } from '../../core/errors.js';
import { resourceId } from '../../core/ids.js';
import { FIRST_USABLE_OFFSET, formatIp, parseCidr, RESERVED_PER_SUBNET, size } from './cidr.js';
import type { Ec2Region, NetworkInterface, Subnet } from './state.js';

/**
 * Private addresses and ENIs: every ENI takes one address from its subnet, so a subnet can fill
 * up (which is why HyperPod compute subnets are /20s), and subnets, security groups and VPCs that
 * still have ENIs cannot be deleted.
 */
export function availableIpCount(subnet: Subnet): number {
  const cidr = parseCidr(subnet.cidrBlock)!;
  return size(cidr) - RESERVED_PER_SUBNET - Object.keys(subnet.usedIps).length;
}

function allocateIp(subnet: Subnet, owner: string): string {
  const cidr = parseCidr(subnet.cidrBlock)!;
  const last = size(cidr) - 1; // broadcast
  for (let offset = FIRST_USABLE_OFFSET; offset < last; offset++) {
    if (!(String(offset) in subnet.usedIps)) {
      subnet.usedIps[String(offset)] = owner;
      return formatIp(cidr.network + offset);
    }
  }
  throw new AwsError(
    'InsufficientFreeAddressesInSubnet',
    `There are not enough free addresses in subnet '${subnet.subnetId}' to satisfy the requested number of instances.`,
  );
}

function releaseIp(subnet: Subnet, ip: string): void {
  const cidr = parseCidr(subnet.cidrBlock)!;
  const [a, b, c, d] = ip.split('.').map(Number) as [number, number, number, number];
  const n = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
  delete subnet.usedIps[String(n - cidr.network)];
}

function macAddress(): string {
  const b = randomBytes(5);
  return ['02', ...[...b].map((x) => x.toString(16).padStart(2, '0'))].join(':');
}

export interface NewInterface {
  subnetId: string;
  groupIds: string[];
  description: string;
  interfaceType?: NetworkInterface['interfaceType'];
  requesterId?: string;
  requesterManaged: boolean;
  tags?: Record<string, string>;
}

export function createInterface(r: Ec2Region, req: NewInterface): NetworkInterface {
  const subnet = keyed.get(r.subnets, req.subnetId);
  if (!subnet) throw new AwsError('InvalidSubnetID.NotFound', `The subnet ID '${req.subnetId}' does not exist`);
  for (const g of req.groupIds) {
    const sg = keyed.get(r.securityGroups, g);
    if (!sg) throw new AwsError('InvalidGroup.NotFound', `The security group '${g}' does not exist`);
    if (sg.vpcId !== subnet.vpcId) {
      throw new AwsError(
        'InvalidParameter',
        `Security group ${g} and subnet ${subnet.subnetId} belong to different networks.`,
      );
    }
  }
  const eniId = resourceId('eni');
  const ip = allocateIp(subnet, eniId);
  const eni: NetworkInterface = {
    networkInterfaceId: eniId,
    subnetId: subnet.subnetId,
    vpcId: subnet.vpcId,
    availabilityZone: subnet.availabilityZone,
    privateIpAddress: ip,
    groupIds: [...req.groupIds],
    description: req.description,
    interfaceType: req.interfaceType ?? 'interface',
    requesterManaged: req.requesterManaged,
    macAddress: macAddress(),
    tags: { ...(req.tags ?? {}) },
    ...(req.requesterId ? { requesterId: req.requesterId } : {}),
  };
  keyed.set(r.networkInterfaces, eniId, eni);
  return eni;
}

export function deleteInterface(r: Ec2Region, eniId: string): void {
  const eni = keyed.get(r.networkInterfaces, eniId);
  if (!eni) return;
  const subnet = keyed.get(r.subnets, eni.subnetId);
  if (subnet) releaseIp(subnet, eni.privateIpAddress);
  for (const a of keyed.values(r.addresses)) {
    if (a.networkInterfaceId === eniId) {
      delete a.networkInterfaceId;
      delete a.associationId;
      delete a.privateIpAddress;
    }
  }
  keyed.delete(r.networkInterfaces, eniId);
}

/** The route table that governs a subnet: its explicit association, else the VPC's main table. */
export function routeTableOf(r: Ec2Region, subnet: Subnet) {
  const tables = keyed.values(r.routeTables).filter((t) => t.vpcId === subnet.vpcId);
  return (
    tables.find((t) => t.associations.some((a) => a.subnetId === subnet.subnetId)) ??
    tables.find((t) => t.associations.some((a) => a.main))
  );
}

/** A subnet is public when its route table sends 0.0.0.0/0 to an internet gateway. */
export function isPublicSubnet(r: Ec2Region, subnet: Subnet): boolean {
  const table = routeTableOf(r, subnet);
  return !!table?.routes.some(
    (route) => route.destinationCidrBlock === '0.0.0.0/0' && route.gatewayId?.startsWith('igw-'),
  );
}
