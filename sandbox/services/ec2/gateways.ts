import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { AwsError } from '../../core/errors.js';
import { resourceId, unitHash } from '../../core/ids.js';
import { SANDBOX_ACCOUNT_ID } from '../../core/credentials.js';
import { lookupClientToken, rememberClientToken } from '../../core/idempotency.js';
import type { OperationHandler } from '../../core/service.js';
import { createInterface, deleteInterface } from './network.js';
import { ec2Region, type Address, type InternetGateway, type NatGateway } from './state.js';
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

/** Internet gateways, Elastic IPs and NAT gateways: the public side of a VPC. */
const MINUTE = 60_000;

function renderIgw(g: InternetGateway) {
  return {
    internetGatewayId: g.internetGatewayId,
    ownerId: SANDBOX_ACCOUNT_ID,
    attachmentSet: g.attachedVpcId ? [{ vpcId: g.attachedVpcId, state: 'available' }] : [],
    tagSet: tagSet(g.tags),
  };
}

function renderAddress(a: Address, region: string) {
  return {
    allocationId: a.allocationId,
    publicIp: a.publicIp,
    domain: 'vpc',
    associationId: a.associationId,
    networkInterfaceId: a.networkInterfaceId,
    networkInterfaceOwnerId: a.networkInterfaceId ? SANDBOX_ACCOUNT_ID : undefined,
    privateIpAddress: a.privateIpAddress,
    publicIpv4Pool: 'amazon',
    networkBorderGroup: region,
    tagSet: tagSet(a.tags),
  };
}

export function renderNat(n: NatGateway, r: ReturnType<typeof ec2Region>) {
  const address = n.allocationId ? keyed.get(r.addresses, n.allocationId) : undefined;
  return {
    natGatewayId: n.natGatewayId,
    subnetId: n.subnetId,
    vpcId: n.vpcId,
    state: n.state,
    connectivityType: n.connectivityType,
    createTime: new Date(n.createTime),
    deleteTime: n.deleteTime ? new Date(n.deleteTime) : undefined,
    natGatewayAddressSet: [
      {
        allocationId: n.allocationId,
        networkInterfaceId: n.networkInterfaceId,
        privateIp: n.privateIp,
        publicIp: address?.publicIp,
        isPrimary: true,
        status: n.state === 'available' ? 'succeeded' : n.state === 'pending' ? 'associating' : 'disassociating',
      },
    ],
    tagSet: tagSet(n.tags),
  };
}

function publicIp(): string {
  const n = Math.floor(Math.random() * 0xffff);
  return `54.${(n >> 8) & 255}.${n & 255}.${1 + Math.floor(Math.random() * 253)}`;
}

export const gatewayOperations: Record<string, OperationHandler> = {
  CreateInternetGateway(input, ctx) {
    const req = validate(z.object({ TagSpecification: tagSpecificationsSchema, DryRun: qBool.optional() }), input);
    const tags = tagsFor(req.TagSpecification, 'internet-gateway');
    const g: InternetGateway = { internetGatewayId: resourceId('igw'), tags };
    keyed.set(ec2Region(ctx.state, ctx.region).internetGateways, g.internetGatewayId, g);
    return { internetGateway: renderIgw(g) };
  },

  DescribeInternetGateways(input, ctx) {
    const req = validate(
      z.object({ InternetGatewayId: z.array(z.string()).optional(), Filter: filtersSchema, ...pagingSchema }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const items = selectIds(r.internetGateways, req.InternetGatewayId, (id) =>
      notFound('InvalidInternetGatewayID.NotFound', 'internetGateway', id),
    );
    const filtered = applyFilters(
      items,
      req.Filter,
      (g, name) =>
        ({
          'internet-gateway-id': [g.internetGatewayId],
          'attachment.vpc-id': [g.attachedVpcId],
          'attachment.state': [g.attachedVpcId ? 'available' : undefined],
          'owner-id': [SANDBOX_ACCOUNT_ID],
        })[name],
    );
    const p = page(filtered, req.MaxResults, req.NextToken);
    return { internetGatewaySet: p.items.map(renderIgw), nextToken: p.nextToken };
  },

  AttachInternetGateway(input, ctx) {
    const req = validate(
      z.object({ InternetGatewayId: z.string(), VpcId: z.string(), DryRun: qBool.optional() }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const g = keyed.get(r.internetGateways, req.InternetGatewayId);
    if (!g) throw notFound('InvalidInternetGatewayID.NotFound', 'internet gateway', req.InternetGatewayId);
    if (!keyed.get(r.vpcs, req.VpcId)) throw notFound('InvalidVpcID.NotFound', 'vpc', req.VpcId);
    if (g.attachedVpcId)
      throw new AwsError(
        'Resource.AlreadyAssociated',
        `resource ${g.internetGatewayId} is already attached to network ${g.attachedVpcId}`,
      );
    const other = keyed.values(r.internetGateways).find((x) => x.attachedVpcId === req.VpcId);
    if (other)
      throw new AwsError('Resource.AlreadyAssociated', `Network ${req.VpcId} already has an internet gateway attached`);
    g.attachedVpcId = req.VpcId;
    return { return: true };
  },

  DetachInternetGateway(input, ctx) {
    const req = validate(
      z.object({ InternetGatewayId: z.string(), VpcId: z.string(), DryRun: qBool.optional() }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const g = keyed.get(r.internetGateways, req.InternetGatewayId);
    if (!g) throw notFound('InvalidInternetGatewayID.NotFound', 'internet gateway', req.InternetGatewayId);
    if (g.attachedVpcId !== req.VpcId)
      throw new AwsError(
        'Gateway.NotAttached',
        `resource ${g.internetGatewayId} is not attached to network ${req.VpcId}`,
      );
    const mapped = keyed
      .values(r.addresses)
      .some((a) => a.networkInterfaceId && keyed.get(r.networkInterfaces, a.networkInterfaceId)?.vpcId === req.VpcId);
    if (mapped) {
      throw new AwsError(
        'DependencyViolation',
        `Network ${req.VpcId} has some mapped public address(es). Please unmap those public address(es) before detaching the gateway.`,
      );
    }
    delete g.attachedVpcId;
    return { return: true };
  },

  DeleteInternetGateway(input, ctx) {
    const req = validate(z.object({ InternetGatewayId: z.string(), DryRun: qBool.optional() }), input);
    const r = ec2Region(ctx.state, ctx.region);
    const g = keyed.get(r.internetGateways, req.InternetGatewayId);
    if (!g) throw notFound('InvalidInternetGatewayID.NotFound', 'internet gateway', req.InternetGatewayId);
    if (g.attachedVpcId)
      throw new AwsError(
        'DependencyViolation',
        `The internetGateway '${g.internetGatewayId}' has dependencies and cannot be deleted.`,
      );
    keyed.delete(r.internetGateways, g.internetGatewayId);
    return { return: true };
  },

  AllocateAddress(input, ctx) {
    const req = validate(
      z.object({
        Domain: z.enum(['vpc', 'standard']).optional(),
        TagSpecification: tagSpecificationsSchema,
        DryRun: qBool.optional(),
      }),
      input,
    );
    const tags = tagsFor(req.TagSpecification, 'elastic-ip');
    const a: Address = { allocationId: resourceId('eipalloc'), publicIp: publicIp(), tags };
    keyed.set(ec2Region(ctx.state, ctx.region).addresses, a.allocationId, a);
    return {
      allocationId: a.allocationId,
      publicIp: a.publicIp,
      domain: 'vpc',
      publicIpv4Pool: 'amazon',
      networkBorderGroup: ctx.region,
    };
  },

  DescribeAddresses(input, ctx) {
    const req = validate(
      z.object({
        AllocationId: z.array(z.string()).optional(),
        PublicIp: z.array(z.string()).optional(),
        Filter: filtersSchema,
        DryRun: qBool.optional(),
      }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    let items = selectIds(
      r.addresses,
      req.AllocationId,
      (id) => new AwsError('InvalidAllocationID.NotFound', `The allocation ID '${id}' does not exist`),
    );
    if (req.PublicIp?.length) {
      for (const ip of req.PublicIp)
        if (!items.some((a) => a.publicIp === ip))
          throw new AwsError('InvalidAddress.NotFound', `Address '${ip}' not found.`);
      items = items.filter((a) => req.PublicIp!.includes(a.publicIp));
    }
    const filtered = applyFilters(
      items,
      req.Filter,
      (a, name) =>
        ({
          'allocation-id': [a.allocationId],
          'public-ip': [a.publicIp],
          domain: ['vpc'],
          'association-id': [a.associationId],
          'network-interface-id': [a.networkInterfaceId],
          'private-ip-address': [a.privateIpAddress],
        })[name],
    );
    return { addressesSet: filtered.map((a) => renderAddress(a, ctx.region)) };
  },

  ReleaseAddress(input, ctx) {
    const req = validate(
      z.object({ AllocationId: z.string().optional(), PublicIp: z.string().optional(), DryRun: qBool.optional() }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const a = req.AllocationId
      ? keyed.get(r.addresses, req.AllocationId)
      : keyed.values(r.addresses).find((x) => x.publicIp === req.PublicIp);
    if (!a) {
      if (!req.AllocationId && !req.PublicIp)
        throw new AwsError('MissingParameter', 'The request must contain the parameter AllocationId');
      throw new AwsError(
        'InvalidAllocationID.NotFound',
        `The allocation ID '${req.AllocationId ?? req.PublicIp}' does not exist`,
      );
    }
    const usedByNat = keyed
      .values(r.natGateways)
      .some((n) => n.allocationId === a.allocationId && n.state !== 'deleted');
    if (a.associationId || usedByNat) throw new AwsError('InvalidIPAddress.InUse', `Address ${a.publicIp} is in use.`);
    keyed.delete(r.addresses, a.allocationId);
    return { return: true };
  },

  CreateNatGateway(input, ctx) {
    const req = validate(
      z.object({
        SubnetId: z.string(),
        AllocationId: z.string().optional(),
        ConnectivityType: z.enum(['public', 'private']).optional(),
        ClientToken: z.string().max(64).optional(),
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
      () =>
        new AwsError(
          'IdempotentParameterMismatch',
          'The client token you provided is associated with a resource that is already deleted or was created with different parameters.',
        ),
    );
    if (existing && keyed.get(r.natGateways, existing))
      return { clientToken: req.ClientToken, natGateway: renderNat(keyed.get(r.natGateways, existing)!, r) };
    const subnet = keyed.get(r.subnets, req.SubnetId);
    if (!subnet) throw notFound('InvalidSubnetID.NotFound', 'subnet', req.SubnetId);
    const connectivityType = req.ConnectivityType ?? 'public';
    if (connectivityType === 'public') {
      if (!req.AllocationId)
        throw new AwsError(
          'MissingParameter',
          'The request must contain the parameter AllocationId for a public NAT gateway',
        );
      const a = keyed.get(r.addresses, req.AllocationId);
      if (!a)
        throw new AwsError('InvalidAllocationID.NotFound', `The allocation ID '${req.AllocationId}' does not exist`);
      if (
        a.associationId ||
        keyed
          .values(r.natGateways)
          .some((n) => n.allocationId === a.allocationId && n.state !== 'deleted' && n.state !== 'failed')
      ) {
        throw new AwsError(
          'InvalidAllocationID.InUse',
          `Elastic IP address [${req.AllocationId}] is already associated`,
        );
      }
    }
    const tags = tagsFor(req.TagSpecification, 'natgateway');
    const natGatewayId = resourceId('nat');
    const eni = createInterface(r, {
      subnetId: subnet.subnetId,
      groupIds: [],
      description: `Interface for NAT Gateway ${natGatewayId}`,
      interfaceType: 'nat_gateway',
      requesterId: 'amazon-nat',
      requesterManaged: true,
    });
    const now = ctx.now();
    const nat: NatGateway = {
      natGatewayId,
      subnetId: subnet.subnetId,
      vpcId: subnet.vpcId,
      connectivityType,
      networkInterfaceId: eni.networkInterfaceId,
      privateIp: eni.privateIpAddress,
      state: 'pending',
      createTime: now,
      readyAt: now + MINUTE + Math.round(unitHash(natGatewayId) * MINUTE), // 1–2 minutes, as AWS takes
      tags,
      ...(req.AllocationId ? { allocationId: req.AllocationId } : {}),
      ...(req.ClientToken ? { clientToken: req.ClientToken } : {}),
    };
    keyed.set(r.natGateways, natGatewayId, nat);
    rememberClientToken(ctx, req.ClientToken, req, natGatewayId);
    return { clientToken: req.ClientToken, natGateway: renderNat(nat, r) };
  },

  DescribeNatGateways(input, ctx) {
    const req = validate(
      z.object({ NatGatewayId: z.array(z.string()).optional(), Filter: filtersSchema, ...pagingSchema }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const items = selectIds(
      r.natGateways,
      req.NatGatewayId,
      (id) => new AwsError('NatGatewayNotFound', `NAT gateway ${id} was not found`),
    );
    const filtered = applyFilters(
      items,
      req.Filter,
      (n, name) =>
        ({ 'nat-gateway-id': [n.natGatewayId], state: [n.state], 'subnet-id': [n.subnetId], 'vpc-id': [n.vpcId] })[
          name
        ],
    );
    const p = page(filtered, req.MaxResults, req.NextToken);
    return { natGatewaySet: p.items.map((n) => renderNat(n, r)), nextToken: p.nextToken };
  },

  DeleteNatGateway(input, ctx) {
    const req = validate(z.object({ NatGatewayId: z.string(), DryRun: qBool.optional() }), input);
    const r = ec2Region(ctx.state, ctx.region);
    const nat = keyed.get(r.natGateways, req.NatGatewayId);
    if (!nat || nat.state === 'deleted')
      throw new AwsError('NatGatewayNotFound', `NAT gateway ${req.NatGatewayId} was not found`);
    if (nat.state !== 'deleting') {
      nat.state = 'deleting';
      nat.deleteTime = ctx.now() + MINUTE; // it finishes deleting about a minute later
    }
    return { natGatewayId: nat.natGatewayId };
  },
};

/** Moves NAT gateways through pending → available and deleting → deleted (→ forgotten an hour later). */
export function tickNatGateways(r: ReturnType<typeof ec2Region>, now: number): boolean {
  let changed = false;
  for (const nat of keyed.values(r.natGateways)) {
    if (nat.state === 'pending' && now >= nat.readyAt) {
      nat.state = 'available';
      changed = true;
    } else if (nat.state === 'deleting' && nat.deleteTime !== undefined && now >= nat.deleteTime) {
      nat.state = 'deleted';
      nat.forgetAt = now + 60 * MINUTE;
      if (nat.networkInterfaceId) deleteInterface(r, nat.networkInterfaceId);
      for (const t of keyed.values(r.routeTables)) {
        for (const route of t.routes) if (route.natGatewayId === nat.natGatewayId) route.blackhole = true;
      }
      changed = true;
    } else if (nat.state === 'deleted' && nat.forgetAt !== undefined && now >= nat.forgetAt) {
      keyed.delete(r.natGateways, nat.natGatewayId);
      changed = true;
    }
  }
  return changed;
}
