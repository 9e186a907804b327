/**
 * What makes the pieces of a cluster network complete, beyond existing. Each is made by two calls —
 * a create, then an attribute change — so a crash (or a failed call) between them leaves a piece
 * that exists but does not work: a VPC without DNS hostnames (EKS private endpoints and node
 * registration need DNS names), a public subnet that gives instances no public address (the NAT
 * gateway's subnet and load balancers), a security group without its rules (nodes, pods and EFA
 * talk to each other only through them). Observing ids alone would call such a network done.
 *
 * The cloud adapter describes the attributes; these rules say what is missing, so the network phase
 * observes "needs act" and its act finishes only that.
 */

/** The VPC's DNS attributes (DescribeVpcAttribute). */
export interface VpcAttributes {
  readonly enableDnsSupport: boolean;
  readonly enableDnsHostnames: boolean;
}

/** A subnet's role and whether it maps public IPv4 addresses at launch (DescribeSubnets). */
export interface SubnetAttributes {
  readonly subnetId: string;
  readonly role: 'public' | 'private' | 'compute' | 'other';
  readonly mapPublicIpOnLaunch: boolean;
}

/** One security-group rule: `-1` is every protocol; a peer is a group id or an IPv4 CIDR. */
export interface SecurityGroupRule {
  readonly direction: 'ingress' | 'egress';
  readonly protocol: string;
  readonly peerGroupId?: string;
  readonly cidr?: string;
}

/** The node security group and its rules (DescribeSecurityGroups IpPermissions / IpPermissionsEgress). */
export interface SecurityGroupAttributes {
  readonly groupId: string;
  readonly rules: readonly SecurityGroupRule[];
}

export type MissingPiece =
  | { readonly kind: 'vpc-dns-support' }
  | { readonly kind: 'vpc-dns-hostnames' }
  | { readonly kind: 'subnet-public-ip'; readonly subnetId: string }
  | { readonly kind: 'security-group-rule'; readonly groupId: string; readonly rule: SecurityGroupRule };

/**
 * The node group's rules: all traffic within the group, in and out (HyperPod's own template; EFA
 * needs it). The default allow-all egress AWS adds does not replace the self-referencing egress rule.
 */
export function nodeSecurityGroupRules(groupId: string): SecurityGroupRule[] {
  return [
    { direction: 'ingress', protocol: '-1', peerGroupId: groupId },
    { direction: 'egress', protocol: '-1', peerGroupId: groupId },
  ];
}

const sameRule = (a: SecurityGroupRule, b: SecurityGroupRule) =>
  a.direction === b.direction && a.protocol === b.protocol && a.peerGroupId === b.peerGroupId && a.cidr === b.cidr;

/**
 * What the described pieces lack, in the order act must finish them (DNS support before hostnames:
 * EC2 refuses hostnames without it). Pieces not described (not made yet) are not judged here.
 *
 * @example
 * missingNetworkAttributes({ vpc: { enableDnsSupport: true, enableDnsHostnames: false }, subnets: [] });
 * // → [{ kind: 'vpc-dns-hostnames' }]
 */
export function missingNetworkAttributes(described: {
  vpc?: VpcAttributes;
  subnets: readonly SubnetAttributes[];
  securityGroup?: SecurityGroupAttributes;
}): MissingPiece[] {
  const missing: MissingPiece[] = [];
  if (described.vpc && !described.vpc.enableDnsSupport) missing.push({ kind: 'vpc-dns-support' });
  if (described.vpc && !described.vpc.enableDnsHostnames) missing.push({ kind: 'vpc-dns-hostnames' });
  for (const s of described.subnets)
    if (s.role === 'public' && !s.mapPublicIpOnLaunch) missing.push({ kind: 'subnet-public-ip', subnetId: s.subnetId });
  const sg = described.securityGroup;
  if (sg) {
    for (const rule of nodeSecurityGroupRules(sg.groupId)) {
      if (!sg.rules.some((r) => sameRule(r, rule)))
        missing.push({ kind: 'security-group-rule', groupId: sg.groupId, rule });
    }
  }
  return missing;
}

/** One line per missing piece, for the phase log. */
export function describeMissing(piece: MissingPiece): string {
  switch (piece.kind) {
    case 'vpc-dns-support':
      return 'VPC DNS resolution is off';
    case 'vpc-dns-hostnames':
      return 'VPC DNS hostnames are off';
    case 'subnet-public-ip':
      return `public subnet ${piece.subnetId} does not map public IPv4 addresses at launch`;
    case 'security-group-rule':
      return `security group ${piece.groupId} lacks its ${piece.rule.direction} rule (all traffic within the group)`;
  }
}
