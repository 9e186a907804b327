import {
  AllocateAddressCommand,
  AssociateRouteTableCommand,
  AttachInternetGatewayCommand,
  CreateInternetGatewayCommand,
  CreateNatGatewayCommand,
  CreateRouteCommand,
  CreateRouteTableCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateTagsCommand,
  CreateVpcCommand,
  CreateVpcEndpointCommand,
  DescribeAddressesCommand,
  DescribeAvailabilityZonesCommand,
  DescribeInternetGatewaysCommand,
  DescribeNatGatewaysCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcEndpointsCommand,
  DescribeVpcsCommand,
  type Filter,
  type ResourceType,
} from '@aws-sdk/client-ec2';
import { clusterTags, TAG_CLUSTER, TAG_PART, tagList } from '../../domain/naming.js';
import type { ClusterNetwork, ClusterSubnet, Ec2RouteTable, NetworkPlan, NetworkPort, SubnetRole } from '../ports.js';
import { elasticIpHeadroom } from './account-attributes.js';
import type { AwsClients } from './clients.js';
import { awsCall } from './errors.js';
import {
  describeVpcAttributes,
  finishAttributes,
  missingAttributes,
  securityGroupRules,
} from './network-attributes.js';

export type { ClusterNetwork, ClusterSubnet, NetworkPlan, SubnetRole } from '../ports.js';

const byCluster = (cluster: string, part?: string): Filter[] => [
  { Name: `tag:${TAG_CLUSTER}`, Values: [cluster] },
  ...(part ? [{ Name: `tag:${TAG_PART}`, Values: [part] }] : []),
];
const tagSpec = (type: ResourceType, cluster: string, part: string) => [
  { ResourceType: type, Tags: tagList(clusterTags(cluster, part)) },
];

/**
 * The cluster network as EC2 resources: reads find everything by tag; `ensure*` calls find first and
 * create only what is missing, so running them again after a crash or on a retry is harmless.
 */
export class NetworkAdapter implements NetworkPort {
  constructor(private readonly clients: AwsClients) {}

  elasticIps(region: string): Promise<{ limit?: number; inUse: number }> {
    return elasticIpHeadroom(this.clients, region);
  }

  /** Reads the network of `cluster` in `region` (nothing created). */
  async find(region: string, cluster: string): Promise<ClusterNetwork> {
    const ec2 = this.clients.ec2(region);
    const vpcs = await awsCall('ec2', 'DescribeVpcs', () =>
      ec2.send(new DescribeVpcsCommand({ Filters: byCluster(cluster, 'vpc') })),
    );
    const vpc = vpcs.Vpcs?.[0];
    const net: ClusterNetwork = { subnets: [], internetGatewayAttached: false };
    if (!vpc?.VpcId) return net;
    net.vpcId = vpc.VpcId;
    net.vpcCidr = vpc.CidrBlock;
    const inVpc: Filter[] = [{ Name: 'vpc-id', Values: [vpc.VpcId] }];

    const [vpcAttributes, subnets, igws, nats, rts, sgs, endpoints, addresses] = await Promise.all([
      describeVpcAttributes(ec2, vpc.VpcId),
      awsCall('ec2', 'DescribeSubnets', () => ec2.send(new DescribeSubnetsCommand({ Filters: inVpc }))),
      awsCall('ec2', 'DescribeInternetGateways', () =>
        ec2.send(new DescribeInternetGatewaysCommand({ Filters: byCluster(cluster, 'igw') })),
      ),
      awsCall('ec2', 'DescribeNatGateways', () =>
        ec2.send(new DescribeNatGatewaysCommand({ Filter: [...inVpc, ...byCluster(cluster, 'nat')] })),
      ),
      awsCall('ec2', 'DescribeRouteTables', () =>
        ec2.send(new DescribeRouteTablesCommand({ Filters: [...inVpc, ...byCluster(cluster)] })),
      ),
      awsCall('ec2', 'DescribeSecurityGroups', () =>
        ec2.send(new DescribeSecurityGroupsCommand({ Filters: [...inVpc, ...byCluster(cluster, 'nodes')] })),
      ),
      awsCall('ec2', 'DescribeVpcEndpoints', () =>
        ec2.send(new DescribeVpcEndpointsCommand({ Filters: [...inVpc, ...byCluster(cluster, 's3-endpoint')] })),
      ),
      awsCall('ec2', 'DescribeAddresses', () =>
        ec2.send(new DescribeAddressesCommand({ Filters: byCluster(cluster, 'nat-ip') })),
      ),
    ]);
    for (const s of subnets.Subnets ?? []) {
      const part = s.Tags?.find((t) => t.Key === TAG_PART)?.Value;
      const role: ClusterSubnet['role'] =
        part === 'public' || part === 'private' || part === 'compute'
          ? part
          : part?.startsWith('compute')
            ? 'compute'
            : 'other';
      net.subnets.push({
        subnetId: s.SubnetId!,
        cidr: s.CidrBlock!,
        zone: s.AvailabilityZone!,
        role,
        mapPublicIpOnLaunch: s.MapPublicIpOnLaunch === true,
      });
    }
    const igw = igws.InternetGateways?.[0];
    net.internetGatewayId = igw?.InternetGatewayId;
    net.internetGatewayAttached = Boolean(igw?.Attachments?.some((a) => a.VpcId === vpc.VpcId));
    const nat = nats.NatGateways?.find((n) => n.State !== 'deleted' && n.State !== 'deleting' && n.State !== 'failed');
    net.natGatewayId = nat?.NatGatewayId;
    net.natGatewayState = nat?.State;
    net.allocationId = addresses.Addresses?.[0]?.AllocationId;
    const part = (t: Ec2RouteTable) => t.Tags?.find((x) => x.Key === TAG_PART)?.Value;
    net.publicRouteTable = rts.RouteTables?.find((t) => part(t) === 'public-routes');
    net.privateRouteTable = rts.RouteTables?.find((t) => part(t) === 'private-routes');
    net.vpcAttributes = vpcAttributes;
    const group = sgs.SecurityGroups?.[0];
    net.securityGroupId = group?.GroupId;
    if (group) net.securityGroupRules = securityGroupRules(group);
    net.s3EndpointId = endpoints.VpcEndpoints?.find(
      (e) => !['deleted', 'deleting'].includes(String(e.State).toLowerCase()),
    )?.VpcEndpointId;
    return net;
  }

  /**
   * Whether every piece exists with the attributes that make it work (VPC DNS, public-IP mapping
   * of public subnets, the security group's rules) and the NAT gateway is available.
   */
  static isComplete(net: ClusterNetwork, plan: NetworkPlan): boolean {
    return (
      missingAttributes(net).length === 0 &&
      Boolean(
        net.vpcId &&
          net.internetGatewayAttached &&
          net.securityGroupId &&
          net.s3EndpointId &&
          net.natGatewayState === 'available',
      ) &&
      plan.subnets.every((p) => net.subnets.some((s) => s.cidr === p.cidr)) &&
      hasDefaultRoute(net.publicRouteTable, 'igw') &&
      hasDefaultRoute(net.privateRouteTable, 'nat') &&
      associatedAll(net, net.publicRouteTable, ['public']) &&
      associatedAll(net, net.privateRouteTable, ['private', 'compute'])
    );
  }

  /**
   * Creates whatever of `plan` is missing and finishes what exists but lacks an attribute (an
   * earlier attempt stopped between a create and its attribute change); logs each. Returns the
   * network as it now is.
   */
  async ensure(region: string, cluster: string, plan: NetworkPlan, log: (m: string) => void): Promise<ClusterNetwork> {
    const ec2 = this.clients.ec2(region);
    let net = await this.find(region, cluster);
    // First what exists: from here on each new piece gets its attributes right after its create.
    await finishAttributes(ec2, net, log);
    if (!net.vpcId) {
      const r = await awsCall('ec2', 'CreateVpc', () =>
        ec2.send(new CreateVpcCommand({ CidrBlock: plan.vpcCidr, TagSpecifications: tagSpec('vpc', cluster, 'vpc') })),
      );
      log(`Created VPC ${r.Vpc!.VpcId} (${plan.vpcCidr})`);
      net = await this.find(region, cluster);
      await finishAttributes(ec2, net); // DNS hostnames (EKS private endpoints and node registration need DNS names)
    }
    const vpcId = net.vpcId!;
    for (const want of plan.subnets) {
      if (net.subnets.some((s) => s.cidr === want.cidr)) continue;
      const r = await awsCall('ec2', 'CreateSubnet', () =>
        ec2.send(
          new CreateSubnetCommand({
            VpcId: vpcId,
            CidrBlock: want.cidr,
            AvailabilityZone: want.zone,
            TagSpecifications: tagSpec('subnet', cluster, want.role),
          }),
        ),
      );
      const id = r.Subnet!.SubnetId!;
      net.subnets.push({
        subnetId: id,
        cidr: want.cidr,
        zone: want.zone,
        role: want.role,
        mapPublicIpOnLaunch: r.Subnet!.MapPublicIpOnLaunch === true,
      });
      await finishAttributes(ec2, net); // a public subnet maps public IPv4 addresses at launch
      log(`Created ${want.role} subnet ${id} ${want.cidr} in ${want.zone}`);
    }
    if (!net.internetGatewayId) {
      const r = await awsCall('ec2', 'CreateInternetGateway', () =>
        ec2.send(new CreateInternetGatewayCommand({ TagSpecifications: tagSpec('internet-gateway', cluster, 'igw') })),
      );
      net.internetGatewayId = r.InternetGateway!.InternetGatewayId!;
      log(`Created internet gateway ${net.internetGatewayId}`);
    }
    if (!net.internetGatewayAttached) {
      await awsCall('ec2', 'AttachInternetGateway', () =>
        ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: net.internetGatewayId, VpcId: vpcId })),
      );
      net.internetGatewayAttached = true;
    }
    const publicSubnet = net.subnets.find(
      (s) => s.role === 'public' && s.zone === plan.subnets.find((p) => p.role === 'public')?.zone,
    );
    if (!net.natGatewayId) {
      if (!net.allocationId) {
        const r = await awsCall('ec2', 'AllocateAddress', () =>
          ec2.send(
            new AllocateAddressCommand({ Domain: 'vpc', TagSpecifications: tagSpec('elastic-ip', cluster, 'nat-ip') }),
          ),
        );
        net.allocationId = r.AllocationId!;
      }
      const r = await awsCall('ec2', 'CreateNatGateway', () =>
        ec2.send(
          new CreateNatGatewayCommand({
            SubnetId: publicSubnet!.subnetId,
            AllocationId: net.allocationId,
            ClientToken: `${cluster}-nat-${vpcId}`,
            TagSpecifications: tagSpec('natgateway', cluster, 'nat'),
          }),
        ),
      );
      net.natGatewayId = r.NatGateway!.NatGatewayId!;
      net.natGatewayState = r.NatGateway!.State;
      log(`Created NAT gateway ${net.natGatewayId} in ${publicSubnet!.zone}`);
    }
    net.publicRouteTable = await this.ensureRouteTable(
      region,
      cluster,
      vpcId,
      net.publicRouteTable,
      'public-routes',
      { GatewayId: net.internetGatewayId },
      log,
    );
    net.privateRouteTable = await this.ensureRouteTable(
      region,
      cluster,
      vpcId,
      net.privateRouteTable,
      'private-routes',
      { NatGatewayId: net.natGatewayId },
      log,
    );
    await this.ensureAssociations(region, net, net.publicRouteTable, ['public']);
    await this.ensureAssociations(region, net, net.privateRouteTable, ['private', 'compute']);
    if (!net.securityGroupId) {
      net.securityGroupId = await this.createNodeSecurityGroup(region, cluster, vpcId);
      net.securityGroupRules = [];
      await finishAttributes(ec2, net); // its rules: all traffic within the group, in and out
      log(`Created security group ${net.securityGroupId} (self-referencing, all traffic)`);
    }
    if (!net.s3EndpointId) {
      const r = await awsCall('ec2', 'CreateVpcEndpoint', () =>
        ec2.send(
          new CreateVpcEndpointCommand({
            VpcId: vpcId,
            ServiceName: `com.amazonaws.${region}.s3`,
            VpcEndpointType: 'Gateway',
            RouteTableIds: [net.privateRouteTable!.RouteTableId!],
            ClientToken: `${cluster}-s3-${vpcId}`,
            TagSpecifications: tagSpec('vpc-endpoint', cluster, 's3-endpoint'),
          }),
        ),
      );
      net.s3EndpointId = r.VpcEndpoint!.VpcEndpointId!;
      log(`Created S3 gateway endpoint ${net.s3EndpointId}`);
    }
    return net;
  }

  /** Names of the Region's available Availability Zones (not Local or Wavelength Zones), sorted. */
  async availableZones(region: string): Promise<string[]> {
    const r = await awsCall('ec2', 'DescribeAvailabilityZones', () =>
      this.clients
        .ec2(region)
        .send(
          new DescribeAvailabilityZonesCommand({ Filters: [{ Name: 'zone-type', Values: ['availability-zone'] }] }),
        ),
    );
    return (r.AvailabilityZones ?? [])
      .filter((z) => z.State === 'available')
      .map((z) => z.ZoneName!)
      .sort();
  }

  /** The NAT gateway's state, for the await step. */
  async natGatewayState(region: string, natGatewayId: string): Promise<string | undefined> {
    const r = await awsCall('ec2', 'DescribeNatGateways', () =>
      this.clients.ec2(region).send(new DescribeNatGatewaysCommand({ NatGatewayIds: [natGatewayId] })),
    );
    return r.NatGateways?.[0]?.State;
  }

  /** CreateTags overwrites a tag's value and is harmless to repeat. */
  async tagSubnets(region: string, subnetIds: readonly string[], tags: Record<string, string>): Promise<void> {
    if (subnetIds.length === 0) return;
    await awsCall('ec2', 'CreateTags', () =>
      this.clients.ec2(region).send(new CreateTagsCommand({ Resources: [...subnetIds], Tags: tagList(tags) })),
    );
  }

  private async ensureRouteTable(
    region: string,
    cluster: string,
    vpcId: string,
    existing: Ec2RouteTable | undefined,
    part: string,
    target: { GatewayId?: string; NatGatewayId?: string },
    log: (m: string) => void,
  ): Promise<Ec2RouteTable> {
    const ec2 = this.clients.ec2(region);
    let table = existing;
    if (!table) {
      const r = await awsCall('ec2', 'CreateRouteTable', () =>
        ec2.send(
          new CreateRouteTableCommand({ VpcId: vpcId, TagSpecifications: tagSpec('route-table', cluster, part) }),
        ),
      );
      table = r.RouteTable!;
      log(`Created route table ${table.RouteTableId} (${part})`);
    }
    if (!hasDefaultRoute(table, target.GatewayId ? 'igw' : 'nat')) {
      await awsCall('ec2', 'CreateRoute', () =>
        ec2.send(
          new CreateRouteCommand({ RouteTableId: table!.RouteTableId, DestinationCidrBlock: '0.0.0.0/0', ...target }),
        ),
      );
      table = { ...table, Routes: [...(table.Routes ?? []), { DestinationCidrBlock: '0.0.0.0/0', ...target }] };
    }
    return table;
  }

  private async ensureAssociations(
    region: string,
    net: ClusterNetwork,
    table: Ec2RouteTable | undefined,
    roles: SubnetRole[],
  ): Promise<void> {
    const ec2 = this.clients.ec2(region);
    const associated = new Set((table?.Associations ?? []).map((a) => a.SubnetId));
    for (const s of net.subnets.filter((x) => roles.includes(x.role as SubnetRole) && !associated.has(x.subnetId))) {
      await awsCall('ec2', 'AssociateRouteTable', () =>
        ec2.send(new AssociateRouteTableCommand({ RouteTableId: table!.RouteTableId, SubnetId: s.subnetId })),
      );
      table!.Associations = [
        ...(table!.Associations ?? []),
        { SubnetId: s.subnetId, RouteTableId: table!.RouteTableId },
      ];
    }
  }

  /** The node security group; its rules (src/domain/network/completeness.ts) are added by the caller. */
  private async createNodeSecurityGroup(region: string, cluster: string, vpcId: string): Promise<string> {
    const ec2 = this.clients.ec2(region);
    const r = await awsCall('ec2', 'CreateSecurityGroup', () =>
      ec2.send(
        new CreateSecurityGroupCommand({
          GroupName: `${cluster}-nodes`,
          Description: `InstantStart ${cluster}: HyperPod nodes and EKS control plane (all traffic within the group, for EFA)`,
          VpcId: vpcId,
          TagSpecifications: tagSpec('security-group', cluster, 'nodes'),
        }),
      ),
    );
    return r.GroupId!;
  }
}

function hasDefaultRoute(table: Ec2RouteTable | undefined, kind: 'igw' | 'nat'): boolean {
  return Boolean(
    table?.Routes?.some(
      (r) =>
        r.DestinationCidrBlock === '0.0.0.0/0' && (kind === 'igw' ? r.GatewayId?.startsWith('igw-') : r.NatGatewayId),
    ),
  );
}

function associatedAll(net: ClusterNetwork, table: Ec2RouteTable | undefined, roles: SubnetRole[]): boolean {
  const associated = new Set((table?.Associations ?? []).map((a) => a.SubnetId));
  return net.subnets.filter((s) => roles.includes(s.role as SubnetRole)).every((s) => associated.has(s.subnetId));
}
