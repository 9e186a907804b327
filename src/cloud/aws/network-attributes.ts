import {
  AuthorizeSecurityGroupEgressCommand,
  AuthorizeSecurityGroupIngressCommand,
  DescribeVpcAttributeCommand,
  ModifySubnetAttributeCommand,
  ModifyVpcAttributeCommand,
  type EC2Client,
  type IpPermission,
  type SecurityGroup,
} from '@aws-sdk/client-ec2';
import {
  describeMissing,
  missingNetworkAttributes,
  type MissingPiece,
  type SecurityGroupRule,
  type VpcAttributes,
} from '../../domain/network/completeness.js';
import type { ClusterNetwork } from '../ports.js';
import { awsCall } from './errors.js';

/**
 * The attributes that make VPC, subnets and security group complete: read them (the judging is
 * src/domain/network/completeness.ts) and set exactly those that are missing, so finishing a
 * network a crash left half-made changes only what it lacks.
 */

/** enableDnsSupport and enableDnsHostnames: DescribeVpcAttribute answers one attribute per call. */
export async function describeVpcAttributes(ec2: EC2Client, vpcId: string): Promise<VpcAttributes> {
  const read = (Attribute: 'enableDnsSupport' | 'enableDnsHostnames') =>
    awsCall('ec2', 'DescribeVpcAttribute', () =>
      ec2.send(new DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute })),
    );
  const [support, hostnames] = await Promise.all([read('enableDnsSupport'), read('enableDnsHostnames')]);
  return {
    enableDnsSupport: support.EnableDnsSupport?.Value === true,
    enableDnsHostnames: hostnames.EnableDnsHostnames?.Value === true,
  };
}

/** The rules of a described group, one per peer (group or IPv4 range), both directions. */
export function securityGroupRules(group: SecurityGroup): SecurityGroupRule[] {
  const expand = (
    direction: SecurityGroupRule['direction'],
    permissions: IpPermission[] | undefined,
  ): SecurityGroupRule[] =>
    (permissions ?? []).flatMap((p) => {
      const protocol = p.IpProtocol ?? '-1';
      return [
        ...(p.UserIdGroupPairs ?? []).map((g) => ({ direction, protocol, peerGroupId: g.GroupId })),
        ...(p.IpRanges ?? []).map((r) => ({ direction, protocol, cidr: r.CidrIp })),
      ];
    });
  return [...expand('ingress', group.IpPermissions), ...expand('egress', group.IpPermissionsEgress)];
}

/** What the network's existing pieces lack. */
export function missingAttributes(net: ClusterNetwork): MissingPiece[] {
  return missingNetworkAttributes({
    vpc: net.vpcAttributes,
    subnets: net.subnets,
    securityGroup: net.securityGroupId
      ? { groupId: net.securityGroupId, rules: net.securityGroupRules ?? [] }
      : undefined,
  });
}

/**
 * Sets every missing attribute of `net`, in order, and records it in `net`. With `log`, says what
 * each was: pieces an earlier attempt made and left unfinished. Without, it completes a piece just
 * made (the only one then missing: everything older was finished first).
 */
export async function finishAttributes(ec2: EC2Client, net: ClusterNetwork, log?: (m: string) => void): Promise<void> {
  for (const piece of missingAttributes(net)) {
    await finish(ec2, net, piece);
    log?.(`Finished what an earlier attempt left undone: ${describeMissing(piece)} — set now`);
  }
}

async function finish(ec2: EC2Client, net: ClusterNetwork, piece: MissingPiece): Promise<void> {
  switch (piece.kind) {
    case 'vpc-dns-support':
    case 'vpc-dns-hostnames': {
      // EKS private endpoints and node registration need DNS names inside the VPC. One attribute per call.
      const support = piece.kind === 'vpc-dns-support';
      await awsCall('ec2', 'ModifyVpcAttribute', () =>
        ec2.send(
          new ModifyVpcAttributeCommand({
            VpcId: net.vpcId,
            ...(support ? { EnableDnsSupport: { Value: true } } : { EnableDnsHostnames: { Value: true } }),
          }),
        ),
      );
      const now = net.vpcAttributes ?? { enableDnsSupport: true, enableDnsHostnames: false };
      net.vpcAttributes = support ? { ...now, enableDnsSupport: true } : { ...now, enableDnsHostnames: true };
      return;
    }
    case 'subnet-public-ip': {
      await awsCall('ec2', 'ModifySubnetAttribute', () =>
        ec2.send(new ModifySubnetAttributeCommand({ SubnetId: piece.subnetId, MapPublicIpOnLaunch: { Value: true } })),
      );
      const subnet = net.subnets.find((s) => s.subnetId === piece.subnetId);
      if (subnet) subnet.mapPublicIpOnLaunch = true;
      return;
    }
    case 'security-group-rule': {
      const { rule, groupId } = piece;
      const peer = rule.peerGroupId
        ? { UserIdGroupPairs: [{ GroupId: rule.peerGroupId }] }
        : { IpRanges: [{ CidrIp: rule.cidr }] };
      const IpPermissions = [{ IpProtocol: rule.protocol, ...peer }];
      if (rule.direction === 'ingress') {
        await awsCall('ec2', 'AuthorizeSecurityGroupIngress', () =>
          ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions })),
        );
      } else {
        await awsCall('ec2', 'AuthorizeSecurityGroupEgress', () =>
          ec2.send(new AuthorizeSecurityGroupEgressCommand({ GroupId: groupId, IpPermissions })),
        );
      }
      net.securityGroupRules = [...(net.securityGroupRules ?? []), rule];
      return;
    }
  }
}
