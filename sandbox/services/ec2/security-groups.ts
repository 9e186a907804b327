import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { AwsError } from '../../core/errors.js';
import { resourceId } from '../../core/ids.js';
import { SANDBOX_ACCOUNT_ID } from '../../core/credentials.js';
import type { OperationHandler, RequestContext } from '../../core/service.js';
import {
  describeRule,
  renderPermissions,
  renderRule,
  rulesFromPermissions,
  sameRule,
  type IpPermissionInput,
} from './security-group-rules.js';
import { ec2Region, type SecurityGroup } from './state.js';
import {
  applyFilters,
  filtersSchema,
  notFound,
  page,
  pagingSchema,
  qBool,
  qInt,
  selectIds,
  tagSet,
  tagsFor,
  tagSpecificationsSchema,
  validate,
} from './wire.js';

const permissionSchema = z.object({
  IpProtocol: z.string().optional(),
  FromPort: qInt.optional(),
  ToPort: qInt.optional(),
  Groups: z.array(z.object({ GroupId: z.string().optional(), Description: z.string().optional() })).optional(),
  IpRanges: z.array(z.object({ CidrIp: z.string().optional(), Description: z.string().optional() })).optional(),
});

const ruleChangeSchema = z.object({
  GroupId: z.string().optional(),
  GroupName: z.string().optional(),
  IpPermissions: z.array(permissionSchema).optional(),
  IpProtocol: z.string().optional(),
  FromPort: qInt.optional(),
  ToPort: qInt.optional(),
  CidrIp: z.string().optional(),
  SecurityGroupRuleId: z.array(z.string()).optional(),
  DryRun: qBool.optional(),
});

export function renderGroup(g: SecurityGroup, region: string) {
  return {
    groupId: g.groupId,
    groupName: g.groupName,
    groupDescription: g.description,
    vpcId: g.vpcId,
    ownerId: SANDBOX_ACCOUNT_ID,
    securityGroupArn: `arn:aws:ec2:${region}:${SANDBOX_ACCOUNT_ID}:security-group/${g.groupId}`,
    ipPermissions: renderPermissions(
      g.rules.filter((r) => !r.isEgress),
      g.vpcId,
    ),
    ipPermissionsEgress: renderPermissions(
      g.rules.filter((r) => r.isEgress),
      g.vpcId,
    ),
    tagSet: tagSet(g.tags),
  };
}

function findGroup(ctx: RequestContext, groupId: string | undefined, groupName: string | undefined): SecurityGroup {
  const r = ec2Region(ctx.state, ctx.region);
  if (groupId) {
    const g = keyed.get(r.securityGroups, groupId);
    if (!g) throw new AwsError('InvalidGroup.NotFound', `The security group '${groupId}' does not exist`);
    return g;
  }
  if (groupName) {
    const g = keyed.values(r.securityGroups).find((x) => x.groupName === groupName);
    if (!g)
      throw new AwsError('InvalidGroup.NotFound', `The security group '${groupName}' does not exist in default VPC`);
    return g;
  }
  throw new AwsError('MissingParameter', 'The request must contain the parameter GroupId or GroupName');
}

function permissionsOf(input: z.output<typeof ruleChangeSchema>): IpPermissionInput[] {
  if (input.IpPermissions?.length) return input.IpPermissions;
  if (input.IpProtocol || input.CidrIp) {
    return [
      {
        IpProtocol: input.IpProtocol ?? '-1',
        FromPort: input.FromPort,
        ToPort: input.ToPort,
        IpRanges: [{ CidrIp: input.CidrIp }],
      } as IpPermissionInput,
    ];
  }
  throw new AwsError('MissingParameter', 'The request must contain the parameter IpPermissions');
}

function authorize(isEgress: boolean): OperationHandler {
  return (input, ctx) => {
    const req = validate(ruleChangeSchema, input);
    const r = ec2Region(ctx.state, ctx.region);
    const group = findGroup(ctx, req.GroupId, req.GroupName);
    const rules = rulesFromPermissions(permissionsOf(req), isEgress, (id) => !!keyed.get(r.securityGroups, id));
    for (const rule of rules) {
      const dup = group.rules.find((existing) => sameRule(existing, rule));
      if (dup || rules.filter((x) => sameRule(x, rule)).length > 1) {
        throw new AwsError('InvalidPermission.Duplicate', `the specified rule "${describeRule(rule)}" already exists`);
      }
    }
    group.rules.push(...rules);
    return { return: true, securityGroupRuleSet: rules.map((rule) => renderRule(group, rule, ctx.region)) };
  };
}

function revoke(isEgress: boolean): OperationHandler {
  return (input, ctx) => {
    const req = validate(ruleChangeSchema, input);
    const group = findGroup(ctx, req.GroupId, req.GroupName);
    let doomed;
    if (req.SecurityGroupRuleId?.length) {
      doomed = req.SecurityGroupRuleId.map((id) => {
        const rule = group.rules.find((x) => x.ruleId === id && x.isEgress === isEgress);
        if (!rule)
          throw new AwsError(
            'InvalidSecurityGroupRuleId.NotFound',
            `The security group rule ID '${id}' does not exist`,
          );
        return rule;
      });
    } else {
      const wanted = rulesFromPermissions(permissionsOf(req), isEgress, () => true);
      doomed = wanted.map((w) => {
        const rule = group.rules.find((x) => sameRule(x, w));
        if (!rule)
          throw new AwsError('InvalidPermission.NotFound', 'The specified rule does not exist in this security group.');
        return rule;
      });
    }
    group.rules = group.rules.filter((x) => !doomed.includes(x));
    return {
      return: true,
      revokedSecurityGroupRuleSet: doomed.map((rule) => ({
        securityGroupRuleId: rule.ruleId,
        groupId: group.groupId,
        isEgress: rule.isEgress,
        ipProtocol: rule.ipProtocol,
        fromPort: rule.fromPort,
        toPort: rule.toPort,
        cidrIpv4: rule.cidrIpv4,
        referencedGroupId: rule.referencedGroupId,
      })),
    };
  };
}

export const securityGroupOperations: Record<string, OperationHandler> = {
  CreateSecurityGroup(input, ctx) {
    const req = validate(
      z.object({
        GroupName: z.string().min(1).max(255),
        GroupDescription: z.string().min(1).max(255),
        VpcId: z.string().min(1),
        TagSpecification: tagSpecificationsSchema,
        DryRun: qBool.optional(),
      }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    if (!keyed.get(r.vpcs, req.VpcId)) throw notFound('InvalidVpcID.NotFound', 'vpc', req.VpcId);
    if (req.GroupName.toLowerCase().startsWith('sg-'))
      throw new AwsError('InvalidParameterValue', 'Group names may not be in the format sg-*.');
    if (keyed.values(r.securityGroups).some((g) => g.vpcId === req.VpcId && g.groupName === req.GroupName)) {
      throw new AwsError(
        'InvalidGroup.Duplicate',
        `The security group '${req.GroupName}' already exists for VPC '${req.VpcId}'`,
      );
    }
    const tags = tagsFor(req.TagSpecification, 'security-group');
    const groupId = resourceId('sg');
    const group: SecurityGroup = {
      groupId,
      groupName: req.GroupName,
      description: req.GroupDescription,
      vpcId: req.VpcId,
      isDefault: false,
      tags,
      rules: [{ ruleId: resourceId('sgr'), isEgress: true, ipProtocol: '-1', cidrIpv4: '0.0.0.0/0' }],
    };
    keyed.set(r.securityGroups, groupId, group);
    return {
      return: true,
      groupId,
      tagSet: tagSet(tags),
      securityGroupArn: renderGroup(group, ctx.region).securityGroupArn,
    };
  },

  DescribeSecurityGroups(input, ctx) {
    const req = validate(
      z.object({
        GroupId: z.array(z.string()).optional(),
        GroupName: z.array(z.string()).optional(),
        Filter: filtersSchema,
        ...pagingSchema,
      }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    let groups = selectIds(
      r.securityGroups,
      req.GroupId,
      (id) => new AwsError('InvalidGroup.NotFound', `The security group '${id}' does not exist`),
    );
    if (req.GroupName?.length) {
      for (const name of req.GroupName) {
        if (!groups.some((g) => g.groupName === name))
          throw new AwsError('InvalidGroup.NotFound', `The security group '${name}' does not exist in default VPC`);
      }
      groups = groups.filter((g) => req.GroupName!.includes(g.groupName));
    }
    const filtered = applyFilters(
      groups,
      req.Filter,
      (g, name) =>
        ({
          'group-id': [g.groupId],
          'group-name': [g.groupName],
          'vpc-id': [g.vpcId],
          description: [g.description],
          'owner-id': [SANDBOX_ACCOUNT_ID],
        })[name],
    );
    const p = page(filtered, req.MaxResults, req.NextToken);
    return { securityGroupInfo: p.items.map((g) => renderGroup(g, ctx.region)), nextToken: p.nextToken };
  },

  DeleteSecurityGroup(input, ctx) {
    const req = validate(
      z.object({ GroupId: z.string().optional(), GroupName: z.string().optional(), DryRun: qBool.optional() }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const group = findGroup(ctx, req.GroupId, req.GroupName);
    if (group.isDefault) {
      throw new AwsError(
        'CannotDelete',
        `the specified group: "${group.groupId}" name: "default" cannot be deleted by a user`,
      );
    }
    const inUse =
      keyed.values(r.networkInterfaces).some((e) => e.groupIds.includes(group.groupId)) ||
      keyed
        .values(r.securityGroups)
        .some((g) => g !== group && g.rules.some((rule) => rule.referencedGroupId === group.groupId)) ||
      keyed.values(r.vpcEndpoints).some((e) => e.groupIds.includes(group.groupId));
    if (inUse) throw new AwsError('DependencyViolation', `resource ${group.groupId} has a dependent object`);
    keyed.delete(r.securityGroups, group.groupId);
    return { return: true, groupId: group.groupId };
  },

  AuthorizeSecurityGroupIngress: authorize(false),
  AuthorizeSecurityGroupEgress: authorize(true),
  RevokeSecurityGroupIngress: revoke(false),
  RevokeSecurityGroupEgress: revoke(true),

  DescribeSecurityGroupRules(input, ctx) {
    const req = validate(
      z.object({ SecurityGroupRuleId: z.array(z.string()).optional(), Filter: filtersSchema, ...pagingSchema }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const all = keyed
      .values(r.securityGroups)
      .flatMap((g) => g.rules.map((rule) => ({ group: g, rule, tags: {} as Record<string, string> })));
    for (const id of req.SecurityGroupRuleId ?? []) {
      if (!all.some((x) => x.rule.ruleId === id))
        throw new AwsError('InvalidSecurityGroupRuleId.NotFound', `The security group rule ID '${id}' does not exist`);
    }
    const selected = req.SecurityGroupRuleId?.length
      ? all.filter((x) => req.SecurityGroupRuleId!.includes(x.rule.ruleId))
      : all;
    const filtered = applyFilters(
      selected,
      req.Filter,
      (x, name) => ({ 'group-id': [x.group.groupId], 'security-group-rule-id': [x.rule.ruleId] })[name],
    );
    const p = page(filtered, req.MaxResults, req.NextToken);
    return {
      securityGroupRuleSet: p.items.map((x) => renderRule(x.group, x.rule, ctx.region)),
      nextToken: p.nextToken,
    };
  },
};
