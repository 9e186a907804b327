import { keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';
import { resourceId } from '../../core/ids.js';
import { AwsError } from '../../core/errors.js';
import { availableIpCount, createInterface, deleteInterface, isPublicSubnet } from './network.js';
import { ec2Region, peekEc2Region, type Ec2Region, type Subnet } from './state.js';
import { newRuleId } from './security-group-rules.js';

/** What other sandbox services may know about EC2 resources (see docs/SANDBOX-INTERNALS.md). */
export interface SubnetView {
  subnetId: string;
  vpcId: string;
  cidrBlock: string;
  availabilityZone: string;
  availabilityZoneId: string;
  availableIpAddressCount: number;
  isPublic: boolean;
  tags: Record<string, string>;
}

export function getVpc(
  state: SandboxState,
  region: string,
  vpcId: string,
): { vpcId: string; cidrBlock: string; tags: Record<string, string> } | undefined {
  const vpc = keyed.get(peekEc2Region(state, region)?.vpcs, vpcId);
  return vpc ? { vpcId: vpc.vpcId, cidrBlock: vpc.cidrBlock, tags: keyed.toRecord(vpc.tags) } : undefined;
}

export function getSubnet(state: SandboxState, region: string, subnetId: string): SubnetView | undefined {
  const r = peekEc2Region(state, region);
  const s = keyed.get(r?.subnets, subnetId);
  return r && s ? subnetView(r, s) : undefined;
}

/** The VPC's subnets with their tags and reachability (what a load balancer controller's DescribeSubnets and DescribeRouteTables tell it). */
export function listVpcSubnets(state: SandboxState, region: string, vpcId: string): SubnetView[] {
  const r = peekEc2Region(state, region);
  if (!r) return [];
  return keyed
    .values(r.subnets)
    .filter((s) => s.vpcId === vpcId)
    .map((s) => subnetView(r, s));
}

function subnetView(r: Ec2Region, s: Subnet): SubnetView {
  return {
    subnetId: s.subnetId,
    vpcId: s.vpcId,
    cidrBlock: s.cidrBlock,
    availabilityZone: s.availabilityZone,
    availabilityZoneId: s.availabilityZoneId,
    availableIpAddressCount: availableIpCount(s),
    isPublic: isPublicSubnet(r, s),
    tags: keyed.toRecord(s.tags),
  };
}

export function getSecurityGroup(
  state: SandboxState,
  region: string,
  groupId: string,
): { groupId: string; groupName: string; vpcId: string } | undefined {
  const g = keyed.get(peekEc2Region(state, region)?.securityGroups, groupId);
  return g ? { groupId: g.groupId, groupName: g.groupName, vpcId: g.vpcId } : undefined;
}

/**
 * A requester-managed ENI (EKS control plane, HyperPod node, FSx file system, …) with one private
 * address from the subnet. Throws InsufficientFreeAddressesInSubnet when the subnet is full.
 */
export function createNetworkInterface(
  state: SandboxState,
  region: string,
  req: {
    subnetId: string;
    groupIds: string[];
    description: string;
    interfaceType?: 'interface' | 'efa' | 'efa-only' | 'network_load_balancer';
    requesterId: string;
    tags?: Record<string, string>;
  },
): { networkInterfaceId: string; privateIpAddress: string } {
  const eni = createInterface(ec2Region(state, region), { ...req, requesterManaged: true });
  return { networkInterfaceId: eni.networkInterfaceId, privateIpAddress: eni.privateIpAddress };
}

/** The ids of the VPC's network interfaces with this description (how ELB's own interfaces are found: `ELB net/<name>/<id>`). */
export function networkInterfacesByDescription(
  state: SandboxState,
  region: string,
  vpcId: string,
  description: string,
): string[] {
  return keyed
    .values(peekEc2Region(state, region)?.networkInterfaces)
    .filter((e) => e.vpcId === vpcId && e.description === description)
    .map((e) => e.networkInterfaceId);
}

export function deleteNetworkInterface(state: SandboxState, region: string, networkInterfaceId: string): void {
  const r = peekEc2Region(state, region);
  if (r) deleteInterface(r, networkInterfaceId);
}

/** Security groups AWS services create for themselves (the EKS cluster security group). */
export function createManagedSecurityGroup(
  state: SandboxState,
  region: string,
  req: {
    vpcId: string;
    groupName: string;
    description: string;
    selfReferencing: boolean;
    tags?: Record<string, string>;
  },
): string {
  const r = ec2Region(state, region);
  if (!keyed.get(r.vpcs, req.vpcId))
    throw new AwsError('InvalidVpcID.NotFound', `The vpc ID '${req.vpcId}' does not exist`);
  const groupId = resourceId('sg');
  keyed.set(r.securityGroups, groupId, {
    groupId,
    groupName: req.groupName,
    description: req.description,
    vpcId: req.vpcId,
    isDefault: false,
    tags: { ...(req.tags ?? {}) },
    rules: [
      { ruleId: newRuleId(), isEgress: true, ipProtocol: '-1', cidrIpv4: '0.0.0.0/0' },
      ...(req.selfReferencing
        ? [{ ruleId: newRuleId(), isEgress: false, ipProtocol: '-1', referencedGroupId: groupId }]
        : []),
    ],
  });
  return groupId;
}

export function deleteManagedSecurityGroup(state: SandboxState, region: string, groupId: string): void {
  const r = peekEc2Region(state, region);
  if (!r) return;
  keyed.delete(r.securityGroups, groupId);
  // Rules elsewhere that referenced it go stale on AWS; drop them so teardown can complete.
  for (const g of keyed.values(r.securityGroups))
    g.rules = g.rules.filter((rule) => rule.referencedGroupId !== groupId);
}
