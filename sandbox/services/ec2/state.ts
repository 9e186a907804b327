import { keyed, type Keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';

/** EC2's slice of the sandbox world, per region. Timestamps are sandbox epoch ms. */
export type Tags = Keyed<string>;

export interface Vpc {
  vpcId: string;
  cidrBlock: string;
  cidrAssociationId: string;
  dhcpOptionsId: string;
  instanceTenancy: string;
  enableDnsSupport: boolean;
  enableDnsHostnames: boolean;
  mainRouteTableId: string;
  defaultSecurityGroupId: string;
  tags: Tags;
}

export interface Subnet {
  subnetId: string;
  vpcId: string;
  cidrBlock: string;
  availabilityZone: string;
  availabilityZoneId: string;
  mapPublicIpOnLaunch: boolean;
  /** Host offset (from the network address) → ENI id, for addresses in use. */
  usedIps: Record<string, string>;
  tags: Tags;
}

export interface InternetGateway {
  internetGatewayId: string;
  attachedVpcId?: string;
  tags: Tags;
}

export interface NatGateway {
  natGatewayId: string;
  subnetId: string;
  vpcId: string;
  connectivityType: 'public' | 'private';
  allocationId?: string;
  networkInterfaceId?: string;
  privateIp?: string;
  state: 'pending' | 'available' | 'deleting' | 'deleted' | 'failed';
  createTime: number;
  readyAt: number;
  deleteTime?: number;
  /** When a deleted gateway stops being listed (AWS keeps them visible about an hour). */
  forgetAt?: number;
  clientToken?: string;
  tags: Tags;
}

export interface Address {
  allocationId: string;
  publicIp: string;
  associationId?: string;
  networkInterfaceId?: string;
  privateIpAddress?: string;
  tags: Tags;
}

export interface Route {
  destinationCidrBlock?: string;
  destinationPrefixListId?: string;
  gatewayId?: string;
  natGatewayId?: string;
  origin: 'CreateRouteTable' | 'CreateRoute';
  /** The target is gone (a deleted NAT gateway): AWS keeps the route as a blackhole. */
  blackhole?: boolean;
}

export interface RouteTableAssociation {
  routeTableAssociationId: string;
  subnetId?: string;
  main: boolean;
}

export interface RouteTable {
  routeTableId: string;
  vpcId: string;
  routes: Route[];
  associations: RouteTableAssociation[];
  tags: Tags;
}

export interface SecurityGroupRule {
  ruleId: string;
  isEgress: boolean;
  ipProtocol: string;
  fromPort?: number;
  toPort?: number;
  cidrIpv4?: string;
  referencedGroupId?: string;
  description?: string;
}

export interface SecurityGroup {
  groupId: string;
  groupName: string;
  description: string;
  vpcId: string;
  isDefault: boolean;
  rules: SecurityGroupRule[];
  tags: Tags;
}

export interface VpcEndpoint {
  vpcEndpointId: string;
  vpcEndpointType: 'Gateway' | 'Interface';
  vpcId: string;
  serviceName: string;
  state: 'pending' | 'available' | 'deleting';
  routeTableIds: string[];
  subnetIds: string[];
  groupIds: string[];
  networkInterfaceIds: string[];
  privateDnsEnabled: boolean;
  policyDocument?: string;
  createdAt: number;
  readyAt: number;
  goneAt?: number;
  tags: Tags;
}

export interface NetworkInterface {
  networkInterfaceId: string;
  subnetId: string;
  vpcId: string;
  availabilityZone: string;
  privateIpAddress: string;
  groupIds: string[];
  description: string;
  interfaceType: 'interface' | 'efa' | 'efa-only' | 'nat_gateway' | 'vpc_endpoint' | 'network_load_balancer';
  requesterId?: string;
  requesterManaged: boolean;
  macAddress: string;
  tags: Tags;
}

export interface Ec2Region {
  vpcs: Keyed<Vpc>;
  subnets: Keyed<Subnet>;
  internetGateways: Keyed<InternetGateway>;
  natGateways: Keyed<NatGateway>;
  addresses: Keyed<Address>;
  routeTables: Keyed<RouteTable>;
  securityGroups: Keyed<SecurityGroup>;
  vpcEndpoints: Keyed<VpcEndpoint>;
  networkInterfaces: Keyed<NetworkInterface>;
}

interface Ec2State {
  regions: Keyed<Ec2Region>;
}

function section(state: SandboxState): Ec2State {
  return ((state.ec2 as Ec2State | undefined) ??= { regions: {} }) as Ec2State;
}

export function ec2Region(state: SandboxState, region: string): Ec2Region {
  const regions = section(state).regions;
  return keyed.ensure(regions, region, () => ({
    vpcs: {},
    subnets: {},
    internetGateways: {},
    natGateways: {},
    addresses: {},
    routeTables: {},
    securityGroups: {},
    vpcEndpoints: {},
    networkInterfaces: {},
  }));
}

/** Read-only lookup: does not create the region's section (reads must not change the saved state). */
export function peekEc2Region(state: SandboxState, region: string): Ec2Region | undefined {
  return keyed.get((state.ec2 as Ec2State | undefined)?.regions, region);
}

export function allEc2Regions(state: SandboxState): Array<[string, Ec2Region]> {
  return keyed.entries(section(state).regions);
}
