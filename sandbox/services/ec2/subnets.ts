import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { AwsError } from '../../core/errors.js';
import { resourceId } from '../../core/ids.js';
import { SANDBOX_ACCOUNT_ID } from '../../core/credentials.js';
import type { OperationHandler } from '../../core/service.js';
import { findZone } from '../../catalog/regions.js';
import { contains, isCanonical, overlaps, parseCidr } from './cidr.js';
import { availableIpCount } from './network.js';
import { ec2Region, type Subnet } from './state.js';
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

export function renderSubnet(s: Subnet, region: string) {
  return {
    subnetId: s.subnetId,
    subnetArn: `arn:aws:ec2:${region}:${SANDBOX_ACCOUNT_ID}:subnet/${s.subnetId}`,
    state: 'available',
    vpcId: s.vpcId,
    cidrBlock: s.cidrBlock,
    availableIpAddressCount: availableIpCount(s),
    availabilityZone: s.availabilityZone,
    availabilityZoneId: s.availabilityZoneId,
    defaultForAz: false,
    mapPublicIpOnLaunch: s.mapPublicIpOnLaunch,
    ownerId: SANDBOX_ACCOUNT_ID,
    assignIpv6AddressOnCreation: false,
    ipv6Native: false,
    tagSet: tagSet(s.tags),
  };
}

export const subnetOperations: Record<string, OperationHandler> = {
  CreateSubnet(input, ctx) {
    const req = validate(
      z.object({
        VpcId: z.string(),
        CidrBlock: z.string(),
        AvailabilityZone: z.string().optional(),
        AvailabilityZoneId: z.string().optional(),
        TagSpecification: tagSpecificationsSchema,
        DryRun: qBool.optional(),
      }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const vpc = keyed.get(r.vpcs, req.VpcId);
    if (!vpc) throw notFound('InvalidVpcID.NotFound', 'vpc', req.VpcId);
    const cidr = parseCidr(req.CidrBlock);
    if (!cidr || !isCanonical(req.CidrBlock)) {
      throw new AwsError(
        'InvalidParameterValue',
        `Value (${req.CidrBlock}) for parameter cidrBlock is invalid. This is not a valid CIDR block.`,
      );
    }
    if (cidr.prefix < 16 || cidr.prefix > 28 || !contains(parseCidr(vpc.cidrBlock)!, cidr)) {
      throw new AwsError('InvalidSubnet.Range', `The CIDR '${req.CidrBlock}' is invalid.`);
    }
    const clash = keyed.values(r.subnets).find((s) => s.vpcId === vpc.vpcId && overlaps(parseCidr(s.cidrBlock)!, cidr));
    if (clash)
      throw new AwsError('InvalidSubnet.Conflict', `The CIDR '${req.CidrBlock}' conflicts with another subnet`);
    if (req.AvailabilityZone && req.AvailabilityZoneId) {
      throw new AwsError(
        'InvalidParameterCombination',
        'Only one of AvailabilityZone or AvailabilityZoneId may be given.',
      );
    }
    const zoneKey = req.AvailabilityZone ?? req.AvailabilityZoneId;
    const zone = zoneKey ? findZone(ctx.region, zoneKey) : findZone(ctx.region, `${ctx.region}a`);
    if (
      !zone ||
      (req.AvailabilityZone && zone.zoneName !== req.AvailabilityZone) ||
      (req.AvailabilityZoneId && zone.zoneId !== req.AvailabilityZoneId)
    ) {
      throw new AwsError(
        'InvalidParameterValue',
        `Value (${zoneKey}) for parameter availabilityZone is invalid. Subnets can currently only be created in the following availability zones: ${ctx.region}.`,
      );
    }
    const tags = tagsFor(req.TagSpecification, 'subnet');
    const subnet: Subnet = {
      subnetId: resourceId('subnet'),
      vpcId: vpc.vpcId,
      cidrBlock: req.CidrBlock,
      availabilityZone: zone.zoneName,
      availabilityZoneId: zone.zoneId,
      mapPublicIpOnLaunch: false,
      usedIps: {},
      tags,
    };
    keyed.set(r.subnets, subnet.subnetId, subnet);
    return { subnet: renderSubnet(subnet, ctx.region) };
  },

  DescribeSubnets(input, ctx) {
    const req = validate(
      z.object({ SubnetId: z.array(z.string()).optional(), Filter: filtersSchema, ...pagingSchema }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const subnets = selectIds(r.subnets, req.SubnetId, (id) => notFound('InvalidSubnetID.NotFound', 'subnet', id));
    const filtered = applyFilters(
      subnets,
      req.Filter,
      (s, name) =>
        ({
          'subnet-id': [s.subnetId],
          'vpc-id': [s.vpcId],
          'cidr-block': [s.cidrBlock],
          cidr: [s.cidrBlock],
          cidrBlock: [s.cidrBlock],
          'availability-zone': [s.availabilityZone],
          availabilityZone: [s.availabilityZone],
          'availability-zone-id': [s.availabilityZoneId],
          'map-public-ip-on-launch': [String(s.mapPublicIpOnLaunch)],
          state: ['available'],
          'default-for-az': ['false'],
          'owner-id': [SANDBOX_ACCOUNT_ID],
        })[name],
    );
    const p = page(filtered, req.MaxResults, req.NextToken);
    return { subnetSet: p.items.map((s) => renderSubnet(s, ctx.region)), nextToken: p.nextToken };
  },

  DeleteSubnet(input, ctx) {
    const req = validate(z.object({ SubnetId: z.string(), DryRun: qBool.optional() }), input);
    const r = ec2Region(ctx.state, ctx.region);
    const subnet = keyed.get(r.subnets, req.SubnetId);
    if (!subnet) throw notFound('InvalidSubnetID.NotFound', 'subnet', req.SubnetId);
    const enis = keyed.values(r.networkInterfaces).filter((e) => e.subnetId === subnet.subnetId);
    const nats = keyed.values(r.natGateways).filter((n) => n.subnetId === subnet.subnetId && n.state !== 'deleted');
    if (enis.length || nats.length) {
      throw new AwsError(
        'DependencyViolation',
        `The subnet '${subnet.subnetId}' has dependencies and cannot be deleted.`,
      );
    }
    for (const t of keyed.values(r.routeTables))
      t.associations = t.associations.filter((a) => a.subnetId !== subnet.subnetId);
    for (const e of keyed.values(r.vpcEndpoints)) e.subnetIds = e.subnetIds.filter((id) => id !== subnet.subnetId);
    keyed.delete(r.subnets, subnet.subnetId);
    return { return: true };
  },

  ModifySubnetAttribute(input, ctx) {
    const req = validate(
      z.object({
        SubnetId: z.string(),
        MapPublicIpOnLaunch: z.object({ Value: qBool }).optional(),
        DryRun: qBool.optional(),
      }),
      input,
    );
    const subnet = keyed.get(ec2Region(ctx.state, ctx.region).subnets, req.SubnetId);
    if (!subnet) throw notFound('InvalidSubnetID.NotFound', 'subnet', req.SubnetId);
    if (req.MapPublicIpOnLaunch) subnet.mapPublicIpOnLaunch = req.MapPublicIpOnLaunch.Value;
    return { return: true };
  },
};
