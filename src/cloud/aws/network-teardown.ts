import {
  DeleteInternetGatewayCommand,
  DeleteNatGatewayCommand,
  DeleteRouteTableCommand,
  DeleteSecurityGroupCommand,
  DeleteSubnetCommand,
  DeleteVpcCommand,
  DeleteVpcEndpointsCommand,
  DescribeNetworkInterfacesCommand,
  DetachInternetGatewayCommand,
  DisassociateRouteTableCommand,
  ReleaseAddressCommand,
  type EC2Client,
} from '@aws-sdk/client-ec2';
import { CloudError } from '../../domain/errors.js';
import type { NetworkTeardownPort } from '../ports.js';
import type { AwsClients } from './clients.js';
import { awsCall, hasCode } from './errors.js';
import type { ClusterNetwork, NetworkAdapter } from './network.js';

/** "Already gone" answers: deleting something that is not there counts as success. */
const GONE = [
  'InvalidVpcID.NotFound',
  'InvalidSubnetID.NotFound',
  'InvalidInternetGatewayID.NotFound',
  'InvalidRouteTableID.NotFound',
  'InvalidAssociationID.NotFound',
  'InvalidGroup.NotFound',
  'InvalidAllocationID.NotFound',
  'InvalidVpcEndpointId.NotFound',
  'NatGatewayNotFound',
  'Gateway.NotAttached',
];

/**
 * Tears a cluster's network down in dependency order. Two steps, because a NAT gateway takes
 * minutes to go away and its address cannot be released before: `startTeardown` removes the
 * endpoint and asks for the NAT gateway's deletion; `finishTeardown` (called while awaiting) deletes
 * the rest once nothing depends on it, and reports what still exists.
 */
export class NetworkTeardown implements NetworkTeardownPort {
  constructor(
    private readonly clients: AwsClients,
    private readonly network: NetworkAdapter,
  ) {}

  async startTeardown(region: string, cluster: string, log: (m: string) => void): Promise<void> {
    const ec2 = this.clients.ec2(region);
    const net = await this.network.find(region, cluster);
    if (net.s3EndpointId) {
      await ignoreGone(() =>
        awsCall('ec2', 'DeleteVpcEndpoints', () =>
          ec2.send(new DeleteVpcEndpointsCommand({ VpcEndpointIds: [net.s3EndpointId!] })),
        ),
      );
      log(`Deleted S3 gateway endpoint ${net.s3EndpointId}`);
    }
    if (net.natGatewayId && net.natGatewayState !== 'deleting') {
      await ignoreGone(() =>
        awsCall('ec2', 'DeleteNatGateway', () =>
          ec2.send(new DeleteNatGatewayCommand({ NatGatewayId: net.natGatewayId! })),
        ),
      );
      log(`Deleting NAT gateway ${net.natGatewayId}`);
    }
  }

  /**
   * Deletes what can be deleted now. Returns the ids still present (empty = network gone).
   * DependencyViolation (ENIs of nodes or the EKS control plane still leaving) is not an error here:
   * the caller polls again.
   */
  async finishTeardown(region: string, cluster: string, log: (m: string) => void): Promise<string[]> {
    const ec2 = this.clients.ec2(region);
    const net = await this.network.find(region, cluster);
    if (!net.vpcId) return this.releaseAddress(region, net, log);
    if (net.natGatewayId) return [`NAT gateway ${net.natGatewayId} (${net.natGatewayState})`];
    const waiting: string[] = [...(await this.releaseAddress(region, net, log))];
    for (const table of [net.publicRouteTable, net.privateRouteTable]) {
      if (!table) continue;
      for (const a of table.Associations ?? []) {
        if (a.Main || !a.RouteTableAssociationId) continue;
        await ignoreGone(() =>
          awsCall('ec2', 'DisassociateRouteTable', () =>
            ec2.send(new DisassociateRouteTableCommand({ AssociationId: a.RouteTableAssociationId })),
          ),
        );
      }
      await ignoreGone(() =>
        awsCall('ec2', 'DeleteRouteTable', () =>
          ec2.send(new DeleteRouteTableCommand({ RouteTableId: table.RouteTableId })),
        ),
      );
      log(`Deleted route table ${table.RouteTableId}`);
    }
    if (net.internetGatewayId) {
      await ignoreGone(() =>
        awsCall('ec2', 'DetachInternetGateway', () =>
          ec2.send(new DetachInternetGatewayCommand({ InternetGatewayId: net.internetGatewayId, VpcId: net.vpcId })),
        ),
      );
      await ignoreGone(() =>
        awsCall('ec2', 'DeleteInternetGateway', () =>
          ec2.send(new DeleteInternetGatewayCommand({ InternetGatewayId: net.internetGatewayId })),
        ),
      );
      log(`Deleted internet gateway ${net.internetGatewayId}`);
    }
    for (const s of net.subnets) {
      if (
        await dependent(() =>
          awsCall('ec2', 'DeleteSubnet', () => ec2.send(new DeleteSubnetCommand({ SubnetId: s.subnetId }))),
        )
      )
        waiting.push(`subnet ${s.subnetId}${await this.heldBy(ec2, s.subnetId)}`);
      else log(`Deleted subnet ${s.subnetId} (${s.cidr})`);
    }
    if (net.securityGroupId) {
      if (
        await dependent(() =>
          awsCall('ec2', 'DeleteSecurityGroup', () =>
            ec2.send(new DeleteSecurityGroupCommand({ GroupId: net.securityGroupId })),
          ),
        )
      ) {
        waiting.push(`security group ${net.securityGroupId}`);
      } else log(`Deleted security group ${net.securityGroupId}`);
    }
    if (waiting.length === 0) {
      if (
        await dependent(() => awsCall('ec2', 'DeleteVpc', () => ec2.send(new DeleteVpcCommand({ VpcId: net.vpcId }))))
      )
        waiting.push(`VPC ${net.vpcId}`);
      else log(`Deleted VPC ${net.vpcId}`);
    } else waiting.push(`VPC ${net.vpcId}`);
    return waiting;
  }

  /**
   * What keeps a subnet, in words: the network interfaces still in it, by their descriptions (`ELB net/k8s-…` is
   * a load balancer's, `Amazon EKS …` the control plane's) — so a wait that never ends names its cause.
   */
  private async heldBy(ec2: EC2Client, subnetId: string): Promise<string> {
    const found = await awsCall('ec2', 'DescribeNetworkInterfaces', () =>
      ec2.send(
        new DescribeNetworkInterfacesCommand({ Filters: [{ Name: 'subnet-id', Values: [subnetId] }], MaxResults: 5 }),
      ),
    );
    const enis = (found.NetworkInterfaces ?? []).map(
      (e) => `${e.NetworkInterfaceId}${e.Description ? ` "${e.Description}"` : ''}`,
    );
    return enis.length ? ` (held by ${enis.join(', ')}${found.NextToken ? ', …' : ''})` : '';
  }

  private async releaseAddress(region: string, net: ClusterNetwork, log: (m: string) => void): Promise<string[]> {
    if (!net.allocationId || net.natGatewayId) return net.allocationId ? [`Elastic IP ${net.allocationId}`] : [];
    const ec2 = this.clients.ec2(region);
    if (
      await dependent(() =>
        awsCall('ec2', 'ReleaseAddress', () => ec2.send(new ReleaseAddressCommand({ AllocationId: net.allocationId }))),
      )
    ) {
      return [`Elastic IP ${net.allocationId}`];
    }
    log(`Released Elastic IP ${net.allocationId}`);
    return [];
  }
}

async function ignoreGone(call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (err) {
    if (!hasCode(err, ...GONE)) throw err;
  }
}

/** Runs a delete; true when something still depends on the resource (try again later). */
async function dependent(call: () => Promise<unknown>): Promise<boolean> {
  try {
    await call();
    return false;
  } catch (err) {
    if (hasCode(err, ...GONE)) return false;
    if (err instanceof CloudError && (err.code === 'DependencyViolation' || err.code === 'InvalidIPAddress.InUse'))
      return true;
    throw err;
  }
}
