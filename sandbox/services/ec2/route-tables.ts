import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { AwsError } from '../../core/errors.js';
import { resourceId } from '../../core/ids.js';
import { SANDBOX_ACCOUNT_ID } from '../../core/credentials.js';
import { lookupClientToken, rememberClientToken } from '../../core/idempotency.js';
import type { OperationHandler, RequestContext } from '../../core/service.js';
import { parseCidr } from './cidr.js';
import { ec2Region, type Route, type RouteTable } from './state.js';
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

export function renderRouteTable(t: RouteTable) {
  return {
    routeTableId: t.routeTableId,
    vpcId: t.vpcId,
    ownerId: SANDBOX_ACCOUNT_ID,
    routeSet: t.routes.map((r) => ({
      destinationCidrBlock: r.destinationCidrBlock,
      destinationPrefixListId: r.destinationPrefixListId,
      gatewayId: r.gatewayId,
      natGatewayId: r.natGatewayId,
      origin: r.origin,
      state: r.blackhole ? 'blackhole' : 'active',
    })),
    associationSet: t.associations.map((a) => ({
      routeTableAssociationId: a.routeTableAssociationId,
      routeTableId: t.routeTableId,
      subnetId: a.subnetId,
      main: a.main,
      associationState: { state: 'associated' },
    })),
    propagatingVgwSet: [],
    tagSet: tagSet(t.tags),
  };
}

function table(ctx: RequestContext, id: string): RouteTable {
  const t = keyed.get(ec2Region(ctx.state, ctx.region).routeTables, id);
  if (!t) throw notFound('InvalidRouteTableID.NotFound', 'routeTable', id);
  return t;
}

const routeInput = z.object({
  RouteTableId: z.string(),
  DestinationCidrBlock: z.string().optional(),
  DestinationPrefixListId: z.string().optional(),
  GatewayId: z.string().optional(),
  NatGatewayId: z.string().optional(),
  DryRun: qBool.optional(),
});

/** Checks a route's destination and target belong with this table, and returns the route to store. */
function buildRoute(ctx: RequestContext, t: RouteTable, req: z.output<typeof routeInput>): Route {
  const r = ec2Region(ctx.state, ctx.region);
  if (!req.DestinationCidrBlock && !req.DestinationPrefixListId) {
    throw new AwsError(
      'MissingParameter',
      'The request must contain the parameter destinationCidrBlock or destinationIpv6CidrBlock',
    );
  }
  if (req.DestinationCidrBlock && !parseCidr(req.DestinationCidrBlock)) {
    throw new AwsError(
      'InvalidParameterValue',
      `Value (${req.DestinationCidrBlock}) for parameter destinationCidrBlock is invalid. This is not a valid CIDR block.`,
    );
  }
  const targets = [req.GatewayId, req.NatGatewayId].filter(Boolean);
  if (targets.length !== 1)
    throw new AwsError(
      'InvalidParameterCombination',
      'Exactly one route target (GatewayId or NatGatewayId) must be specified.',
    );
  if (req.GatewayId) {
    const igw = keyed.get(r.internetGateways, req.GatewayId);
    if (!igw) throw new AwsError('InvalidGatewayID.NotFound', `The gateway ID '${req.GatewayId}' does not exist`);
    if (igw.attachedVpcId !== t.vpcId) {
      throw new AwsError(
        'InvalidParameterValue',
        `route table ${t.routeTableId} and network gateway ${req.GatewayId} belong to different networks`,
      );
    }
  }
  if (req.NatGatewayId) {
    const nat = keyed.get(r.natGateways, req.NatGatewayId);
    if (!nat || nat.state === 'deleted' || nat.state === 'deleting') {
      throw new AwsError('InvalidNatGatewayID.NotFound', `The natGateway ID '${req.NatGatewayId}' does not exist`);
    }
    if (nat.vpcId !== t.vpcId)
      throw new AwsError(
        'InvalidParameterValue',
        `route table ${t.routeTableId} and NAT gateway ${req.NatGatewayId} belong to different networks`,
      );
  }
  return {
    origin: 'CreateRoute',
    ...(req.DestinationCidrBlock ? { destinationCidrBlock: req.DestinationCidrBlock } : {}),
    ...(req.DestinationPrefixListId ? { destinationPrefixListId: req.DestinationPrefixListId } : {}),
    ...(req.GatewayId ? { gatewayId: req.GatewayId } : {}),
    ...(req.NatGatewayId ? { natGatewayId: req.NatGatewayId } : {}),
  };
}

const sameDestination = (a: Route, cidr?: string, prefixList?: string) =>
  (cidr !== undefined && a.destinationCidrBlock === cidr) ||
  (prefixList !== undefined && a.destinationPrefixListId === prefixList);

export const routeTableOperations: Record<string, OperationHandler> = {
  CreateRouteTable(input, ctx) {
    const req = validate(
      z.object({
        VpcId: z.string(),
        ClientToken: z.string().optional(),
        TagSpecification: tagSpecificationsSchema,
        DryRun: qBool.optional(),
      }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const existing = lookupClientToken(
      ctx,
      req.ClientToken,
      req,
      () => new AwsError('IdempotentParameterMismatch', 'The client token was used with different parameters.'),
    );
    if (existing && keyed.get(r.routeTables, existing))
      return { routeTable: renderRouteTable(keyed.get(r.routeTables, existing)!), clientToken: req.ClientToken };
    const vpc = keyed.get(r.vpcs, req.VpcId);
    if (!vpc) throw notFound('InvalidVpcID.NotFound', 'vpc', req.VpcId);
    const tags = tagsFor(req.TagSpecification, 'route-table');
    const t: RouteTable = {
      routeTableId: resourceId('rtb'),
      vpcId: vpc.vpcId,
      routes: [{ destinationCidrBlock: vpc.cidrBlock, gatewayId: 'local', origin: 'CreateRouteTable' }],
      associations: [],
      tags,
    };
    keyed.set(r.routeTables, t.routeTableId, t);
    rememberClientToken(ctx, req.ClientToken, req, t.routeTableId);
    return { routeTable: renderRouteTable(t), clientToken: req.ClientToken };
  },

  DescribeRouteTables(input, ctx) {
    const req = validate(
      z.object({ RouteTableId: z.array(z.string()).optional(), Filter: filtersSchema, ...pagingSchema }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const items = selectIds(r.routeTables, req.RouteTableId, (id) =>
      notFound('InvalidRouteTableID.NotFound', 'routeTable', id),
    );
    const filtered = applyFilters(
      items,
      req.Filter,
      (t, name) =>
        ({
          'route-table-id': [t.routeTableId],
          'vpc-id': [t.vpcId],
          'association.subnet-id': t.associations.map((a) => a.subnetId),
          'association.main': t.associations.map((a) => String(a.main)),
          'association.route-table-association-id': t.associations.map((a) => a.routeTableAssociationId),
          'route.destination-cidr-block': t.routes.map((x) => x.destinationCidrBlock),
          'route.destination-prefix-list-id': t.routes.map((x) => x.destinationPrefixListId),
          'route.gateway-id': t.routes.map((x) => x.gatewayId),
          'route.nat-gateway-id': t.routes.map((x) => x.natGatewayId),
          'owner-id': [SANDBOX_ACCOUNT_ID],
        })[name],
    );
    const p = page(filtered, req.MaxResults, req.NextToken);
    return { routeTableSet: p.items.map(renderRouteTable), nextToken: p.nextToken };
  },

  DeleteRouteTable(input, ctx) {
    const req = validate(z.object({ RouteTableId: z.string(), DryRun: qBool.optional() }), input);
    const t = table(ctx, req.RouteTableId);
    if (t.associations.length)
      throw new AwsError(
        'DependencyViolation',
        `The routeTable '${t.routeTableId}' has dependencies and cannot be deleted.`,
      );
    keyed.delete(ec2Region(ctx.state, ctx.region).routeTables, t.routeTableId);
    return { return: true };
  },

  CreateRoute(input, ctx) {
    const req = validate(routeInput, input);
    const t = table(ctx, req.RouteTableId);
    const route = buildRoute(ctx, t, req);
    if (t.routes.some((x) => sameDestination(x, req.DestinationCidrBlock, req.DestinationPrefixListId))) {
      throw new AwsError(
        'RouteAlreadyExists',
        `The route identified by ${req.DestinationCidrBlock ?? req.DestinationPrefixListId} already exists.`,
      );
    }
    t.routes.push(route);
    return { return: true };
  },

  ReplaceRoute(input, ctx) {
    const req = validate(routeInput, input);
    const t = table(ctx, req.RouteTableId);
    const index = t.routes.findIndex((x) => sameDestination(x, req.DestinationCidrBlock, req.DestinationPrefixListId));
    if (index < 0) {
      throw new AwsError(
        'InvalidRoute.NotFound',
        `There is no route defined for '${req.DestinationCidrBlock ?? req.DestinationPrefixListId}' in the route table. Use CreateRoute instead.`,
      );
    }
    if (t.routes[index]!.gatewayId === 'local')
      throw new AwsError('InvalidParameterValue', 'The local route cannot be replaced.');
    t.routes[index] = buildRoute(ctx, t, req);
    return { return: true };
  },

  DeleteRoute(input, ctx) {
    const req = validate(
      z.object({
        RouteTableId: z.string(),
        DestinationCidrBlock: z.string().optional(),
        DestinationPrefixListId: z.string().optional(),
        DryRun: qBool.optional(),
      }),
      input,
    );
    const t = table(ctx, req.RouteTableId);
    const route = t.routes.find((x) => sameDestination(x, req.DestinationCidrBlock, req.DestinationPrefixListId));
    if (!route) {
      throw new AwsError(
        'InvalidRoute.NotFound',
        `no route with destination-cidr-block ${req.DestinationCidrBlock ?? req.DestinationPrefixListId} in route table ${t.routeTableId}`,
      );
    }
    if (route.gatewayId === 'local')
      throw new AwsError(
        'InvalidParameterValue',
        `cannot remove local route ${route.destinationCidrBlock} in route table ${t.routeTableId}`,
      );
    if (route.gatewayId?.startsWith('vpce-'))
      throw new AwsError(
        'InvalidParameterValue',
        'Routes of a gateway VPC endpoint are managed by the endpoint; modify the endpoint instead.',
      );
    t.routes = t.routes.filter((x) => x !== route);
    return { return: true };
  },

  AssociateRouteTable(input, ctx) {
    const req = validate(z.object({ RouteTableId: z.string(), SubnetId: z.string(), DryRun: qBool.optional() }), input);
    const r = ec2Region(ctx.state, ctx.region);
    const t = table(ctx, req.RouteTableId);
    const subnet = keyed.get(r.subnets, req.SubnetId);
    if (!subnet) throw notFound('InvalidSubnetID.NotFound', 'subnet', req.SubnetId);
    if (subnet.vpcId !== t.vpcId)
      throw new AwsError(
        'InvalidParameterValue',
        `Route table ${t.routeTableId} and subnet ${subnet.subnetId} belong to different networks`,
      );
    const current = keyed.values(r.routeTables).find((x) => x.associations.some((a) => a.subnetId === subnet.subnetId));
    if (current) {
      throw new AwsError(
        'Resource.AlreadyAssociated',
        `the specified association for route table ${current.routeTableId} conflicts with an existing association`,
      );
    }
    const association = { routeTableAssociationId: resourceId('rtbassoc'), subnetId: subnet.subnetId, main: false };
    t.associations.push(association);
    return { associationId: association.routeTableAssociationId, associationState: { state: 'associated' } };
  },

  DisassociateRouteTable(input, ctx) {
    const req = validate(z.object({ AssociationId: z.string(), DryRun: qBool.optional() }), input);
    const r = ec2Region(ctx.state, ctx.region);
    const t = keyed
      .values(r.routeTables)
      .find((x) => x.associations.some((a) => a.routeTableAssociationId === req.AssociationId));
    if (!t)
      throw new AwsError('InvalidAssociationID.NotFound', `The association ID '${req.AssociationId}' does not exist`);
    const association = t.associations.find((a) => a.routeTableAssociationId === req.AssociationId)!;
    if (association.main)
      throw new AwsError(
        'InvalidParameterValue',
        'The main route table association cannot be disassociated; replace it instead.',
      );
    t.associations = t.associations.filter((a) => a !== association);
    return { return: true };
  },
};
