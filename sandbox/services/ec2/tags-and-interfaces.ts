import { keyed, type Keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { AwsError } from '../../core/errors.js';
import { SANDBOX_ACCOUNT_ID } from '../../core/credentials.js';
import type { OperationHandler } from '../../core/service.js';
import { ec2Region, type Ec2Region, type NetworkInterface, type Tags } from './state.js';
import { createInterface, deleteInterface } from './network.js';
import {
  applyFilters,
  filtersSchema,
  page,
  pagingSchema,
  qBool,
  tagSet,
  tagSpecificationsSchema,
  tagsFor,
  validate,
} from './wire.js';

/** Which collection a resource id lives in, by its prefix (as EC2 itself resolves tag targets). */
const RESOURCE_TYPES: Array<{ prefix: string; type: string; collection: keyof Ec2Region; notFound: string }> = [
  { prefix: 'vpc-', type: 'vpc', collection: 'vpcs', notFound: 'InvalidVpcID.NotFound' },
  { prefix: 'subnet-', type: 'subnet', collection: 'subnets', notFound: 'InvalidSubnetID.NotFound' },
  {
    prefix: 'igw-',
    type: 'internet-gateway',
    collection: 'internetGateways',
    notFound: 'InvalidInternetGatewayID.NotFound',
  },
  { prefix: 'nat-', type: 'natgateway', collection: 'natGateways', notFound: 'InvalidNatGatewayID.NotFound' },
  { prefix: 'eipalloc-', type: 'elastic-ip', collection: 'addresses', notFound: 'InvalidAllocationID.NotFound' },
  { prefix: 'rtb-', type: 'route-table', collection: 'routeTables', notFound: 'InvalidRouteTableID.NotFound' },
  { prefix: 'sg-', type: 'security-group', collection: 'securityGroups', notFound: 'InvalidGroup.NotFound' },
  { prefix: 'vpce-', type: 'vpc-endpoint', collection: 'vpcEndpoints', notFound: 'InvalidVpcEndpointId.NotFound' },
  {
    prefix: 'eni-',
    type: 'network-interface',
    collection: 'networkInterfaces',
    notFound: 'InvalidNetworkInterfaceID.NotFound',
  },
];

function taggable(r: Ec2Region, id: string): { tags: Tags; type: string } {
  const kind = RESOURCE_TYPES.find((k) => id.startsWith(k.prefix));
  if (!kind) throw new AwsError('InvalidID', `The ID '${id}' is not valid`);
  const resource = keyed.get(r[kind.collection] as Keyed<{ tags: Tags }>, id);
  if (!resource) throw new AwsError(kind.notFound, `The ID '${id}' does not exist`);
  return { tags: resource.tags, type: kind.type };
}

function renderInterface(e: NetworkInterface, r: Ec2Region) {
  const address = keyed.values(r.addresses).find((a) => a.networkInterfaceId === e.networkInterfaceId);
  return {
    networkInterfaceId: e.networkInterfaceId,
    subnetId: e.subnetId,
    vpcId: e.vpcId,
    availabilityZone: e.availabilityZone,
    description: e.description,
    ownerId: SANDBOX_ACCOUNT_ID,
    requesterId: e.requesterId,
    requesterManaged: e.requesterManaged,
    status: 'in-use',
    macAddress: e.macAddress,
    privateIpAddress: e.privateIpAddress,
    privateDnsName: `ip-${e.privateIpAddress.replace(/\./g, '-')}.ec2.internal`,
    sourceDestCheck: true,
    interfaceType: e.interfaceType,
    groupSet: e.groupIds.map((g) => ({ groupId: g, groupName: keyed.get(r.securityGroups, g)?.groupName })),
    association: address
      ? {
          allocationId: address.allocationId,
          associationId: address.associationId,
          publicIp: address.publicIp,
          ipOwnerId: 'amazon',
        }
      : undefined,
    privateIpAddressesSet: [{ privateIpAddress: e.privateIpAddress, primary: true }],
    tagSet: tagSet(e.tags),
  };
}

const tagList = z.array(z.object({ Key: z.string().min(1).max(127), Value: z.string().max(255).optional() }));

export const tagAndInterfaceOperations: Record<string, OperationHandler> = {
  CreateTags(input, ctx) {
    const req = validate(
      z.object({ ResourceId: z.array(z.string()).min(1), Tag: tagList.min(1), DryRun: qBool.optional() }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const targets = req.ResourceId.map((id) => taggable(r, id)); // all must exist before any is tagged
    for (const t of targets) {
      for (const tag of req.Tag) keyed.set(t.tags, tag.Key, tag.Value ?? '');
      if (keyed.keys(t.tags).length > 50)
        throw new AwsError('TagLimitExceeded', 'The maximum number of tags (50) for a resource has been reached.');
    }
    return { return: true };
  },

  DeleteTags(input, ctx) {
    const req = validate(
      z.object({ ResourceId: z.array(z.string()).min(1), Tag: tagList.optional(), DryRun: qBool.optional() }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const targets = req.ResourceId.map((id) => taggable(r, id));
    for (const t of targets) {
      if (!req.Tag?.length) {
        for (const key of keyed.keys(t.tags)) keyed.delete(t.tags, key);
        continue;
      }
      for (const tag of req.Tag) {
        if (tag.Value === undefined || keyed.get(t.tags, tag.Key) === tag.Value) keyed.delete(t.tags, tag.Key);
      }
    }
    return { return: true };
  },

  DescribeTags(input, ctx) {
    const req = validate(z.object({ Filter: filtersSchema, ...pagingSchema }), input);
    const r = ec2Region(ctx.state, ctx.region);
    const rows: Array<{ resourceId: string; resourceType: string; key: string; value: string }> = [];
    for (const kind of RESOURCE_TYPES) {
      for (const [id, resource] of keyed.entries(r[kind.collection] as Keyed<{ tags: Tags }>)) {
        for (const [key, value] of keyed.entries(resource.tags))
          rows.push({ resourceId: id, resourceType: kind.type, key, value });
      }
    }
    const filtered = applyFilters(
      rows,
      req.Filter,
      (row, name) =>
        ({ 'resource-id': [row.resourceId], 'resource-type': [row.resourceType], key: [row.key], value: [row.value] })[
          name
        ],
    );
    const p = page(filtered, req.MaxResults, req.NextToken);
    return { tagSet: p.items, nextToken: p.nextToken };
  },

  /**
   * A network interface of the caller's own (EC2 API reference, CreateNetworkInterface): in a subnet, with security
   * groups of the subnet's VPC, a description and tags. Not requester-managed, so DeleteNetworkInterface may remove it.
   */
  CreateNetworkInterface(input, ctx) {
    const req = validate(
      z.object({
        SubnetId: z.string(),
        Description: z.string().max(255).optional(),
        SecurityGroupId: z.array(z.string()).optional(),
        TagSpecification: tagSpecificationsSchema,
        DryRun: qBool.optional(),
      }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    const eni = createInterface(r, {
      subnetId: req.SubnetId,
      groupIds: req.SecurityGroupId ?? [],
      description: req.Description ?? '',
      requesterManaged: false,
      tags: keyed.toRecord(tagsFor(req.TagSpecification, 'network-interface')),
    });
    return { networkInterface: renderInterface(eni, r) };
  },

  /**
   * Deletes a caller's network interface. One an AWS service manages for itself (an EKS control plane's, a load
   * balancer's, a HyperPod node's) is in use by that service and is refused — it goes only with its owner (the
   * error code is EC2's for an interface in use; that it answers so for requester-managed ones is assumed).
   */
  DeleteNetworkInterface(input, ctx) {
    const req = validate(z.object({ NetworkInterfaceId: z.string(), DryRun: qBool.optional() }), input);
    const r = ec2Region(ctx.state, ctx.region);
    const eni = keyed.get(r.networkInterfaces, req.NetworkInterfaceId);
    if (!eni)
      throw new AwsError(
        'InvalidNetworkInterfaceID.NotFound',
        `The networkInterface ID '${req.NetworkInterfaceId}' does not exist`,
      );
    if (eni.requesterManaged)
      throw new AwsError(
        'InvalidNetworkInterface.InUse',
        `The network interface '${eni.networkInterfaceId}' is currently in use${eni.description ? ` (${eni.description})` : ''}.`,
      );
    deleteInterface(r, eni.networkInterfaceId);
    return { return: true };
  },

  DescribeNetworkInterfaces(input, ctx) {
    const req = validate(
      z.object({ NetworkInterfaceId: z.array(z.string()).optional(), Filter: filtersSchema, ...pagingSchema }),
      input,
    );
    const r = ec2Region(ctx.state, ctx.region);
    for (const id of req.NetworkInterfaceId ?? []) {
      if (!keyed.get(r.networkInterfaces, id))
        throw new AwsError('InvalidNetworkInterfaceID.NotFound', `The networkInterface ID '${id}' does not exist`);
    }
    const items = req.NetworkInterfaceId?.length
      ? req.NetworkInterfaceId.map((id) => keyed.get(r.networkInterfaces, id)!)
      : keyed.values(r.networkInterfaces);
    const filtered = applyFilters(
      items,
      req.Filter,
      (e, name) =>
        ({
          'network-interface-id': [e.networkInterfaceId],
          'subnet-id': [e.subnetId],
          'vpc-id': [e.vpcId],
          'group-id': e.groupIds,
          description: [e.description],
          'requester-id': [e.requesterId],
          'requester-managed': [String(e.requesterManaged)],
          'interface-type': [e.interfaceType],
          status: ['in-use'],
          'private-ip-address': [e.privateIpAddress],
          'availability-zone': [e.availabilityZone],
        })[name],
    );
    const p = page(filtered, req.MaxResults, req.NextToken);
    return { networkInterfaceSet: p.items.map((e) => renderInterface(e, r)), nextToken: p.nextToken };
  },
};
