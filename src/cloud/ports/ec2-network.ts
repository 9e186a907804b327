import type { SecurityGroupRule, VpcAttributes } from '../../domain/network/completeness.js';
import type { Log } from './log.js';

/** A cluster's VPC and what makes it work (EC2), found and made by our tags. */

export type SubnetRole = 'public' | 'private' | 'compute';

export interface ClusterSubnet {
  subnetId: string;
  cidr: string;
  zone: string;
  role: SubnetRole | 'other';
  /** Whether instances launched here get a public IPv4 address (public subnets must). */
  mapPublicIpOnLaunch: boolean;
}

/**
 * A route table as DescribeRouteTables answers it (EC2's member names), with what the network's
 * completeness check and its teardown read: the default route's target and the subnet associations.
 */
export interface Ec2RouteTable {
  RouteTableId?: string;
  Routes?: Array<{ DestinationCidrBlock?: string; GatewayId?: string; NatGatewayId?: string }>;
  Associations?: Array<{ RouteTableAssociationId?: string; RouteTableId?: string; SubnetId?: string; Main?: boolean }>;
  Tags?: Array<{ Key?: string; Value?: string }>;
}

/**
 * Everything of a cluster's network that exists now, found by our tags, with the attributes that
 * make its pieces complete (judged by src/domain/network/completeness.ts).
 */
export interface ClusterNetwork {
  vpcId?: string;
  vpcCidr?: string;
  /** The VPC's DNS attributes; present when the VPC is. */
  vpcAttributes?: VpcAttributes;
  subnets: ClusterSubnet[];
  internetGatewayId?: string;
  internetGatewayAttached: boolean;
  allocationId?: string;
  natGatewayId?: string;
  natGatewayState?: string;
  publicRouteTable?: Ec2RouteTable;
  privateRouteTable?: Ec2RouteTable;
  securityGroupId?: string;
  /** The node security group's rules; present when the group is. */
  securityGroupRules?: SecurityGroupRule[];
  s3EndpointId?: string;
}

/** The subnets to make: computed by the pure planner in src/domain/network. */
export interface NetworkPlan {
  vpcCidr: string;
  subnets: Array<{ cidr: string; zone: string; role: SubnetRole }>;
}

export interface NetworkPort {
  find(region: string, cluster: string): Promise<ClusterNetwork>;
  /**
   * The Region's Elastic IP limit (EC2 DescribeAccountAttributes `vpc-max-elastic-ips`; undefined when EC2 does not
   * answer it) and how many addresses the account holds (DescribeAddresses): a new cluster's NAT gateway takes one.
   */
  elasticIps(region: string): Promise<{ limit?: number; inUse: number }>;
  ensure(region: string, cluster: string, plan: NetworkPlan, log: Log): Promise<ClusterNetwork>;
  availableZones(region: string): Promise<string[]>;
  natGatewayState(region: string, natGatewayId: string): Promise<string | undefined>;
  /** Adds (or overwrites) tags on subnets (CreateTags), e.g. the load balancer controller's role tags. */
  tagSubnets(region: string, subnetIds: readonly string[], tags: Record<string, string>): Promise<void>;
}
