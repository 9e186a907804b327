import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { AwsError } from '../../core/errors.js';
import { resourceId, unitHash } from '../../core/ids.js';
import { SANDBOX_ACCOUNT_ID } from '../../core/credentials.js';
import { lookupClientToken, rememberClientToken } from '../../core/idempotency.js';
import type { OperationHandler } from '../../core/service.js';
import { findRegion } from '../../catalog/regions.js';
import { endpointServices, prefixListId } from './endpoint-services.js';
import { createInterface, deleteInterface } from './network.js';
import { ec2Region, type Ec2Region, type VpcEndpoint } from './state.js';
import {
  applyFilters,
  filtersSchema,
  page,
  pagingSchema,
  qBool,
  tagSet,
  tagsFor,
  tagSpecificationsSchema,
  validate,
} from './wire.js';

const SECOND = 1000;

function renderEndpoint(e: VpcEndpoint, r: Ec2Region, region: string) {
  const shortName = e.serviceName.split('.').slice(3).join('.');
  return {
    vpcEndpointId: e.vpcEndpointId,
    vpcEndpointType: e.vpcEndpointType,
    vpcId: e.vpcId,
    serviceName: e.serviceName,
    state: e.state,
    policyDocument:
      e.policyDocument ??
      JSON.stringify({
        Version: '2008-10-17',
        Statement: [{ Effect: 'Allow', Principal: '*', Action: '*', Resource: '*' }],
      }),
    routeTableIdSet: e.routeTableIds,
    subnetIdSet: e.subnetIds,
    groupSet: e.groupIds.map((g) => ({ groupId: g, groupName: keyed.get(r.securityGroups, g)?.groupName })),
    privateDnsEnabled: e.privateDnsEnabled,
    requesterManaged: false,
    networkInterfaceIdSet: e.networkInterfaceIds,
    dnsEntrySet:
      e.vpcEndpointType === 'Interface'
        ? [{ dnsName: `${e.vpcEndpointId}.${shortName}.${region}.vpce.amazonaws.com`, hostedZoneId: 'Z1YSA3EXCYUU9Z' }]
        : [],
    creationTimestamp: new Date(e.createdAt),
    ownerId: SANDBOX_ACCOUNT_ID,
    tagSet: tagSet(e.tags),
  };
}

/** Removes an endpoint's footprint: its prefix-list routes and its ENIs. */
function releaseEndpoint(r: Ec2Region, e: VpcEndpoint): void {
  for (const id of e.routeTableIds) {
    const t = keyed.get(r.routeTables, id);
    if (t) t.routes = t.routes.filter((route) => route.gatewayId !== e.vpcEndpointId);
  }
  for (const eni of e.networkInterfaceIds) deleteInterface(r, eni);
  e.networkInterfaceIds = [];
}

export const endpointOperations: Record<string, OperationHandler> = {
  CreateVpcEndpoint(input, ctx) {
    const req = validate(
      z.object({
        VpcId: z.string(),
        ServiceName: z.string(),
        VpcEndpointType: z
          .enum(['Gateway', 'Interface', 'GatewayLoadBalancer', 'Resource', 'ServiceNetwork'])
          .optional(),
        RouteTableId: z.array(z.string()).optional(),
        SubnetId: z.array(z.string()).optional(),
        SecurityGroupId: z.array(z.string()).optional(),
        PrivateDnsEnabled: qBool.optional(),
        PolicyDocument: z.string().optional(),
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
    if (existing && keyed.get(r.vpcEndpoints, existing))
      return {
        vpcEndpoint: renderEndpoint(keyed.get(r.vpcEndpoints, existing)!, r, ctx.region),
        clientToken: req.ClientToken,
      };
    const vpc = keyed.get(r.vpcs, req.VpcId);
    if (!vpc) throw new AwsError('InvalidVpcId.NotFound', `The Vpc Id '${req.VpcId}' does not exist`);
    const type = req.VpcEndpointType ?? 'Gateway';
    const service = endpointServices(ctx.region).find((s) => s.serviceName === req.ServiceName);
    if (!service || !(service.types as string[]).includes(type)) {
      throw new AwsError('InvalidServiceName', `The Vpc Endpoint Service '${req.ServiceName}' does not exist`);
    }
    if (req.PolicyDocument) {
      try {
        JSON.parse(req.PolicyDocument);
      } catch {
        throw new AwsError('InvalidPolicyDocument', 'The policy document is not valid JSON.');
      }
    }
    const tags = tagsFor(req.TagSpecification, 'vpc-endpoint');
    const id = resourceId('vpce');
    const now = ctx.now();
    const endpoint: VpcEndpoint = {
      vpcEndpointId: id,
      vpcEndpointType: type === 'Interface' ? 'Interface' : 'Gateway',
      vpcId: vpc.vpcId,
      serviceName: req.ServiceName,
      state: 'pending',
      routeTableIds: [],
      subnetIds: [],
      groupIds: [],
      networkInterfaceIds: [],
      privateDnsEnabled: false,
      createdAt: now,
      readyAt: now,
      tags,
      ...(req.PolicyDocument ? { policyDocument: req.PolicyDocument } : {}),
    };
    if (type === 'Gateway') {
      if (req.SubnetId?.length)
        throw new AwsError('InvalidParameter', 'Subnets cannot be specified for a gateway endpoint.');
      const pl = prefixListId(req.ServiceName);
      for (const rtId of req.RouteTableId ?? []) {
        const t = keyed.get(r.routeTables, rtId);
        if (!t || t.vpcId !== vpc.vpcId)
          throw new AwsError(
            'InvalidRouteTableId.NotFound',
            `The routeTable ID '${rtId}' does not exist in ${vpc.vpcId}`,
          );
        if (t.routes.some((route) => route.destinationPrefixListId === pl)) {
          throw new AwsError(
            'RouteAlreadyExists',
            `route table ${rtId} already has a route with destination-prefix-list-id ${pl}`,
          );
        }
      }
      for (const rtId of req.RouteTableId ?? []) {
        keyed
          .get(r.routeTables, rtId)!
          .routes.push({ destinationPrefixListId: pl, gatewayId: id, origin: 'CreateRoute' });
      }
      endpoint.routeTableIds = [...(req.RouteTableId ?? [])];
      endpoint.readyAt = now + 5 * SECOND;
    } else {
      const subnetIds = req.SubnetId ?? [];
      const zones = new Set<string>();
      for (const sid of subnetIds) {
        const s = keyed.get(r.subnets, sid);
        if (!s || s.vpcId !== vpc.vpcId)
          throw new AwsError('InvalidSubnetId.NotFound', `The subnet ID '${sid}' does not exist in ${vpc.vpcId}`);
        if (zones.has(s.availabilityZone))
          throw new AwsError(
            'DuplicateSubnetsInSameZone',
            `Found another VPC endpoint subnet in the availability zone of ${sid}.`,
          );
        zones.add(s.availabilityZone);
      }
      const groupIds = req.SecurityGroupId?.length ? req.SecurityGroupId : [vpc.defaultSecurityGroupId];
      for (const g of groupIds)
        if (keyed.get(r.securityGroups, g)?.vpcId !== vpc.vpcId)
          throw new AwsError(
            'InvalidSecurityGroupId.NotFound',
            `The security group '${g}' does not exist in ${vpc.vpcId}`,
          );
      const privateDns = req.PrivateDnsEnabled ?? true;
      if (privateDns && !(vpc.enableDnsSupport && vpc.enableDnsHostnames)) {
        throw new AwsError(
          'InvalidParameter',
          'Enabling private DNS requires both enableDnsSupport and enableDnsHostnames VPC attributes set to true for ' +
            vpc.vpcId,
        );
      }
      endpoint.networkInterfaceIds = subnetIds.map(
        (sid) =>
          createInterface(r, {
            subnetId: sid,
            groupIds,
            description: `VPC Endpoint Interface ${id}`,
            interfaceType: 'vpc_endpoint',
            requesterId: 'amazonaws',
            requesterManaged: true,
          }).networkInterfaceId,
      );
      endpoint.subnetIds = subnetIds;
      endpoint.groupIds = groupIds;
      endpoint.privateDnsEnabled = privateDns;
      endpoint.readyAt = now + 60 * SECOND + Math.round(unitHash(id) * 60 * SECOND);
    }
    keyed.set(r.vpcEndpoints, id, endpoint);
    rememberClientToken(ctx, req.ClientToken, req, id);
    return { vpcEndpoint: renderEndpoint(endpoint, r, ctx.region), clientToken: req.ClientToken };
  },

  DescribeVpcEndpoints(input, ctx) {
    const req = validate(
      z.object({ VpcEndpointId: z.array(z.string()).optional(), Filter: filtersSchema, ...pagingSchema }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    for (const id of req.VpcEndpointId ?? []) {
      if (!keyed.get(r.vpcEndpoints, id))
        throw new AwsError('InvalidVpcEndpointId.NotFound', `The Vpc Endpoint Id '${id}' does not exist`);
    }
    const items = req.VpcEndpointId?.length
      ? req.VpcEndpointId.map((id) => keyed.get(r.vpcEndpoints, id)!)
      : keyed.values(r.vpcEndpoints);
    const filtered = applyFilters(
      items,
      req.Filter,
      (e, name) =>
        ({
          'vpc-endpoint-id': [e.vpcEndpointId],
          'vpc-id': [e.vpcId],
          'service-name': [e.serviceName],
          'vpc-endpoint-state': [e.state],
          'vpc-endpoint-type': [e.vpcEndpointType],
        })[name],
    );
    const p = page(filtered, req.MaxResults, req.NextToken);
    return { vpcEndpointSet: p.items.map((e) => renderEndpoint(e, r, ctx.region)), nextToken: p.nextToken };
  },

  DeleteVpcEndpoints(input, ctx) {
    const req = validate(z.object({ VpcEndpointId: z.array(z.string()).min(1), DryRun: qBool.optional() }), input);
    const r = ec2Region(ctx.state, ctx.region);
    const unsuccessful: Array<{ resourceId: string; error: { code: string; message: string } }> = [];
    for (const id of req.VpcEndpointId) {
      const e = keyed.get(r.vpcEndpoints, id);
      if (!e) {
        unsuccessful.push({
          resourceId: id,
          error: { code: 'InvalidVpcEndpoint.NotFound', message: `The VPC endpoint '${id}' does not exist` },
        });
        continue;
      }
      if (e.state === 'deleting') continue;
      releaseEndpoint(r, e);
      e.state = 'deleting';
      e.goneAt = ctx.now() + 30 * SECOND;
    }
    return { unsuccessful };
  },

  DescribeVpcEndpointServices(input, ctx) {
    const req = validate(
      z.object({ ServiceName: z.array(z.string()).optional(), Filter: filtersSchema, ...pagingSchema }),
      input,
    );
    const all = endpointServices(ctx.region);
    for (const name of req.ServiceName ?? []) {
      if (!all.some((s) => s.serviceName === name))
        throw new AwsError('InvalidServiceName', `The Vpc Endpoint Service '${name}' does not exist`);
    }
    const chosen = req.ServiceName?.length ? all.filter((s) => req.ServiceName!.includes(s.serviceName)) : all;
    const filtered = applyFilters(
      chosen,
      req.Filter,
      (s, name) => ({ 'service-name': [s.serviceName], 'service-type': s.types })[name],
    );
    const p = page(filtered, req.MaxResults, req.NextToken);
    const zones = findRegion(ctx.region)!.zones;
    return {
      serviceNameSet: p.items.map((s) => s.serviceName),
      serviceDetailSet: p.items.map((s) => {
        const shortName = s.serviceName.split('.').slice(3).join('.');
        return {
          serviceName: s.serviceName,
          serviceId: `vpce-svc-${prefixListId(s.serviceName).slice(3)}`,
          serviceType: s.types.map((t) => ({ serviceType: t })),
          availabilityZoneSet: zones.map((z) => z.zoneName),
          availabilityZoneIdSet: zones.map((z) => z.zoneId),
          owner: 'amazon',
          baseEndpointDnsNameSet: [`${shortName}.${ctx.region}.vpce.amazonaws.com`],
          privateDnsName: s.types.includes('Interface') ? `${shortName}.${ctx.region}.amazonaws.com` : undefined,
          vpcEndpointPolicySupported: true,
          acceptanceRequired: false,
          managesVpcEndpoints: false,
        };
      }),
      nextToken: p.nextToken,
    };
  },
};

/** pending → available; deleting → gone. */
export function tickEndpoints(r: Ec2Region, now: number): boolean {
  let changed = false;
  for (const e of keyed.values(r.vpcEndpoints)) {
    if (e.state === 'pending' && now >= e.readyAt) {
      e.state = 'available';
      changed = true;
    } else if (e.state === 'deleting' && e.goneAt !== undefined && now >= e.goneAt) {
      keyed.delete(r.vpcEndpoints, e.vpcEndpointId);
      changed = true;
    }
  }
  return changed;
}
