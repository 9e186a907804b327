import { AwsError } from '../../core/errors.js';
import { resourceId } from '../../core/ids.js';
import { SANDBOX_ACCOUNT_ID } from '../../core/credentials.js';
import type { SecurityGroup, SecurityGroupRule } from './state.js';

/** Security-group rules: from `IpPermissions` input to stored rules, and back to AWS's two views of them. */
export const newRuleId = (): string => resourceId('sgr');

export interface IpPermissionInput {
  IpProtocol?: string;
  FromPort?: number;
  ToPort?: number;
  Groups?: Array<{ GroupId?: string; Description?: string }>;
  IpRanges?: Array<{ CidrIp?: string; Description?: string }>;
}

const PROTOCOL_NAMES: Record<string, string> = { '6': 'tcp', '17': 'udp', '1': 'icmp', all: '-1' };

function normalizeProtocol(p: string): string {
  const lower = p.toLowerCase();
  const named = (Object.hasOwn(PROTOCOL_NAMES, lower) ? PROTOCOL_NAMES[lower] : undefined) ?? lower;
  if (['tcp', 'udp', 'icmp', 'icmpv6', '-1'].includes(named) || (/^\d+$/.test(named) && Number(named) <= 255))
    return named;
  throw new AwsError('InvalidParameterValue', `Invalid value '${p}' for IP protocol. Unknown protocol.`);
}

/** Expands permissions into one rule per peer, checking ports and referenced groups. */
export function rulesFromPermissions(
  permissions: IpPermissionInput[],
  isEgress: boolean,
  groupExists: (id: string) => boolean,
): SecurityGroupRule[] {
  const rules: SecurityGroupRule[] = [];
  for (const p of permissions) {
    if (!p.IpProtocol) throw new AwsError('MissingParameter', 'The request must contain the parameter ipProtocol');
    const ipProtocol = normalizeProtocol(p.IpProtocol);
    const needsPorts = ipProtocol === 'tcp' || ipProtocol === 'udp';
    if (needsPorts) {
      if (p.FromPort === undefined || p.ToPort === undefined) {
        throw new AwsError(
          'InvalidParameterValue',
          "Invalid value 'Must specify both from and to ports with TCP/UDP.' for portRange.",
        );
      }
      if (p.FromPort < 0 || p.ToPort > 65535 || p.FromPort > p.ToPort) {
        throw new AwsError(
          'InvalidParameterValue',
          `Invalid port range ${p.FromPort}-${p.ToPort}: ports must be 0-65535 and FromPort <= ToPort.`,
        );
      }
    }
    const ports =
      ipProtocol === '-1'
        ? {}
        : {
            ...(p.FromPort !== undefined ? { fromPort: p.FromPort } : {}),
            ...(p.ToPort !== undefined ? { toPort: p.ToPort } : {}),
          };
    const peers = [...(p.IpRanges ?? []), ...(p.Groups ?? [])];
    if (peers.length === 0)
      throw new AwsError('InvalidParameterValue', 'Each IP permission needs at least one IP range or security group.');
    for (const range of p.IpRanges ?? []) {
      if (!range.CidrIp || !/^\d+\.\d+\.\d+\.\d+\/\d+$/.test(range.CidrIp)) {
        throw new AwsError('InvalidParameterValue', `CIDR block ${range.CidrIp ?? '(missing)'} is malformed`);
      }
      rules.push({
        ruleId: newRuleId(),
        isEgress,
        ipProtocol,
        ...ports,
        cidrIpv4: range.CidrIp,
        ...(range.Description ? { description: range.Description } : {}),
      });
    }
    for (const g of p.Groups ?? []) {
      if (!g.GroupId) throw new AwsError('MissingParameter', 'The request must contain the parameter groupId');
      if (!groupExists(g.GroupId))
        throw new AwsError('InvalidGroup.NotFound', `The security group '${g.GroupId}' does not exist`);
      rules.push({
        ruleId: newRuleId(),
        isEgress,
        ipProtocol,
        ...ports,
        referencedGroupId: g.GroupId,
        ...(g.Description ? { description: g.Description } : {}),
      });
    }
  }
  return rules;
}

export function sameRule(a: SecurityGroupRule, b: SecurityGroupRule): boolean {
  return (
    a.isEgress === b.isEgress &&
    a.ipProtocol === b.ipProtocol &&
    a.fromPort === b.fromPort &&
    a.toPort === b.toPort &&
    a.cidrIpv4 === b.cidrIpv4 &&
    a.referencedGroupId === b.referencedGroupId
  );
}

export function describeRule(r: SecurityGroupRule): string {
  const peer = r.cidrIpv4 ?? r.referencedGroupId;
  const proto = r.ipProtocol === '-1' ? 'ALL' : r.ipProtocol.toUpperCase();
  return `peer: ${peer}, ${proto}, from port: ${r.fromPort ?? 'ALL'}, to port: ${r.toPort ?? 'ALL'}, ALLOW`;
}

/** The classic `ipPermissions` view: rules grouped by protocol and port range. */
export function renderPermissions(rules: SecurityGroupRule[], vpcId: string) {
  const groups = new Map<string, SecurityGroupRule[]>();
  for (const r of rules) {
    const key = `${r.ipProtocol}|${r.fromPort ?? ''}|${r.toPort ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((rs) => {
    const first = rs[0]!;
    const ranges = rs.filter((r) => r.cidrIpv4);
    const peers = rs.filter((r) => r.referencedGroupId);
    return {
      ipProtocol: first.ipProtocol,
      fromPort: first.fromPort,
      toPort: first.toPort,
      groups: peers.map((r) => ({
        groupId: r.referencedGroupId,
        userId: SANDBOX_ACCOUNT_ID,
        vpcId,
        description: r.description,
      })),
      ipRanges: ranges.map((r) => ({ cidrIp: r.cidrIpv4, description: r.description })),
      ipv6Ranges: [],
      prefixListIds: [],
    };
  });
}

/** The newer per-rule view (`DescribeSecurityGroupRules`, `securityGroupRuleSet`). */
export function renderRule(group: SecurityGroup, r: SecurityGroupRule, region: string) {
  return {
    securityGroupRuleId: r.ruleId,
    groupId: group.groupId,
    groupOwnerId: SANDBOX_ACCOUNT_ID,
    isEgress: r.isEgress,
    ipProtocol: r.ipProtocol,
    fromPort: r.fromPort ?? -1,
    toPort: r.toPort ?? -1,
    cidrIpv4: r.cidrIpv4,
    referencedGroupInfo: r.referencedGroupId ? { groupId: r.referencedGroupId, userId: SANDBOX_ACCOUNT_ID } : undefined,
    description: r.description,
    securityGroupRuleArn: `arn:aws:ec2:${region}:${SANDBOX_ACCOUNT_ID}:security-group-rule/${r.ruleId}`,
  };
}
