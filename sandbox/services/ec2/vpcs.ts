import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { AwsError } from '../../core/errors.js';
import { resourceId } from '../../core/ids.js';
import { SANDBOX_ACCOUNT_ID } from '../../core/credentials.js';
import type { OperationHandler } from '../../core/service.js';
import { isCanonical, parseCidr } from './cidr.js';
import { newRuleId } from './security-group-rules.js';
import { ec2Region, type Ec2Region, type Vpc } from './state.js';
import {
  applyFilters,
  filtersSchema,
  notFound,
  page,
  pagingSchema,
  qBool,
  selectIds,
  tagSet,
  tagsFor,
  tagSpecificationsSchema,
  validate,
} from './wire.js';

export function renderVpc(v: Vpc) {
  return {
    vpcId: v.vpcId,
    ownerId: SANDBOX_ACCOUNT_ID,
    state: 'available',
    cidrBlock: v.cidrBlock,
    cidrBlockAssociationSet: [
      { associationId: v.cidrAssociationId, cidrBlock: v.cidrBlock, cidrBlockState: { state: 'associated' } },
    ],
    dhcpOptionsId: v.dhcpOptionsId,
    instanceTenancy: v.instanceTenancy,
    isDefault: false,
    tagSet: tagSet(v.tags),
  };
}

/** Why a VPC cannot be deleted yet, as AWS checks it: anything still inside it. */
function vpcDependencies(r: Ec2Region, vpc: Vpc): string[] {
  const deps: string[] = [];
  for (const s of keyed.values(r.subnets)) if (s.vpcId === vpc.vpcId) deps.push(s.subnetId);
  for (const g of keyed.values(r.internetGateways)) if (g.attachedVpcId === vpc.vpcId) deps.push(g.internetGatewayId);
  for (const sg of keyed.values(r.securityGroups)) if (sg.vpcId === vpc.vpcId && !sg.isDefault) deps.push(sg.groupId);
  for (const t of keyed.values(r.routeTables))
    if (t.vpcId === vpc.vpcId && t.routeTableId !== vpc.mainRouteTableId) deps.push(t.routeTableId);
  for (const e of keyed.values(r.vpcEndpoints)) if (e.vpcId === vpc.vpcId) deps.push(e.vpcEndpointId);
  for (const n of keyed.values(r.natGateways))
    if (n.vpcId === vpc.vpcId && n.state !== 'deleted') deps.push(n.natGatewayId);
  for (const e of keyed.values(r.networkInterfaces)) if (e.vpcId === vpc.vpcId) deps.push(e.networkInterfaceId);
  return deps;
}

const attributeValue = z.object({ Value: qBool });

export const vpcOperations: Record<string, OperationHandler> = {
  CreateVpc(input, ctx) {
    const req = validate(
      z.object({
        CidrBlock: z.string(),
        InstanceTenancy: z.enum(['default', 'dedicated']).optional(),
        TagSpecification: tagSpecificationsSchema,
        DryRun: qBool.optional(),
      }),
      input,
    );
    const cidr = parseCidr(req.CidrBlock);
    if (!cidr)
      throw new AwsError(
        'InvalidParameterValue',
        `Value (${req.CidrBlock}) for parameter cidrBlock is invalid. This is not a valid CIDR block.`,
      );
    if (cidr.prefix < 16 || cidr.prefix > 28)
      throw new AwsError('InvalidVpc.Range', `The CIDR '${req.CidrBlock}' is invalid.`);
    if (!isCanonical(req.CidrBlock))
      throw new AwsError(
        'InvalidParameterValue',
        `Value (${req.CidrBlock}) for parameter cidrBlock is invalid. This is not a valid CIDR block.`,
      );
    const tags = tagsFor(req.TagSpecification, 'vpc');
    const r = ec2Region(ctx.state, ctx.region);
    const vpcId = resourceId('vpc');
    const mainRouteTableId = resourceId('rtb');
    const defaultSecurityGroupId = resourceId('sg');
    const vpc: Vpc = {
      vpcId,
      cidrBlock: req.CidrBlock,
      cidrAssociationId: resourceId('vpc-cidr-assoc'),
      dhcpOptionsId: resourceId('dopt'),
      instanceTenancy: req.InstanceTenancy ?? 'default',
      enableDnsSupport: true,
      enableDnsHostnames: false,
      mainRouteTableId,
      defaultSecurityGroupId,
      tags,
    };
    keyed.set(r.vpcs, vpcId, vpc);
    keyed.set(r.routeTables, mainRouteTableId, {
      routeTableId: mainRouteTableId,
      vpcId,
      routes: [{ destinationCidrBlock: req.CidrBlock, gatewayId: 'local', origin: 'CreateRouteTable' }],
      associations: [{ routeTableAssociationId: resourceId('rtbassoc'), main: true }],
      tags: {},
    });
    keyed.set(r.securityGroups, defaultSecurityGroupId, {
      groupId: defaultSecurityGroupId,
      groupName: 'default',
      description: 'default VPC security group',
      vpcId,
      isDefault: true,
      tags: {},
      rules: [
        { ruleId: newRuleId(), isEgress: false, ipProtocol: '-1', referencedGroupId: defaultSecurityGroupId },
        { ruleId: newRuleId(), isEgress: true, ipProtocol: '-1', cidrIpv4: '0.0.0.0/0' },
      ],
    });
    return { vpc: { ...renderVpc(vpc), state: 'pending' } };
  },

  DescribeVpcs(input, ctx) {
    const req = validate(
      z.object({ VpcId: z.array(z.string()).optional(), Filter: filtersSchema, ...pagingSchema }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const vpcs = selectIds(r.vpcs, req.VpcId, (id) => notFound('InvalidVpcID.NotFound', 'vpc', id));
    const filtered = applyFilters(
      vpcs,
      req.Filter,
      (v, name) =>
        ({
          'vpc-id': [v.vpcId],
          'cidr-block': [v.cidrBlock],
          cidr: [v.cidrBlock],
          state: ['available'],
          'is-default': ['false'],
          'owner-id': [SANDBOX_ACCOUNT_ID],
          'dhcp-options-id': [v.dhcpOptionsId],
        })[name],
    );
    const p = page(filtered, req.MaxResults, req.NextToken);
    return { vpcSet: p.items.map(renderVpc), nextToken: p.nextToken };
  },

  DeleteVpc(input, ctx) {
    const req = validate(z.object({ VpcId: z.string(), DryRun: qBool.optional() }), input);
    const r = ec2Region(ctx.state, ctx.region);
    const vpc = keyed.get(r.vpcs, req.VpcId);
    if (!vpc) throw notFound('InvalidVpcID.NotFound', 'vpc', req.VpcId);
    const deps = vpcDependencies(r, vpc);
    if (deps.length) {
      throw new AwsError(
        'DependencyViolation',
        `The vpc '${vpc.vpcId}' has dependencies and cannot be deleted. (still in it: ${deps.slice(0, 10).join(', ')})`,
      );
    }
    keyed.delete(r.routeTables, vpc.mainRouteTableId);
    keyed.delete(r.securityGroups, vpc.defaultSecurityGroupId);
    keyed.delete(r.vpcs, vpc.vpcId);
    return { return: true };
  },

  ModifyVpcAttribute(input, ctx) {
    const req = validate(
      z.object({
        VpcId: z.string(),
        EnableDnsSupport: attributeValue.optional(),
        EnableDnsHostnames: attributeValue.optional(),
        DryRun: qBool.optional(),
      }),
      input,
    );
    const vpc = keyed.get(ec2Region(ctx.state, ctx.region).vpcs, req.VpcId);
    if (!vpc) throw notFound('InvalidVpcID.NotFound', 'vpc', req.VpcId);
    if ((req.EnableDnsSupport === undefined) === (req.EnableDnsHostnames === undefined)) {
      throw new AwsError(
        'InvalidParameterCombination',
        'Exactly one attribute may be modified per request: EnableDnsSupport or EnableDnsHostnames.',
      );
    }
    if (req.EnableDnsHostnames?.Value && !vpc.enableDnsSupport) {
      throw new AwsError('InvalidParameterValue', 'DNS hostnames require DNS support to be enabled on the VPC.');
    }
    if (req.EnableDnsSupport) vpc.enableDnsSupport = req.EnableDnsSupport.Value;
    if (req.EnableDnsHostnames) vpc.enableDnsHostnames = req.EnableDnsHostnames.Value;
    return { return: true };
  },

  DescribeVpcAttribute(input, ctx) {
    const req = validate(
      z.object({
        VpcId: z.string(),
        Attribute: z.enum(['enableDnsSupport', 'enableDnsHostnames', 'enableNetworkAddressUsageMetrics']),
        DryRun: qBool.optional(),
      }),
      input,
    );
    const vpc = keyed.get(ec2Region(ctx.state, ctx.region).vpcs, req.VpcId);
    if (!vpc) throw notFound('InvalidVpcID.NotFound', 'vpc', req.VpcId);
    const value =
      req.Attribute === 'enableDnsSupport'
        ? vpc.enableDnsSupport
        : req.Attribute === 'enableDnsHostnames'
          ? vpc.enableDnsHostnames
          : false;
    return { vpcId: vpc.vpcId, [req.Attribute]: { value } };
  },
};
