import type { RequestContext } from '../../core/service.js';
import { lookupClientToken, rememberClientToken } from '../../core/idempotency.js';
import { validateInput } from '../../core/validation.js';
import { getSubnet } from '../ec2/public.js';
import { validation } from './errors.js';
import { requireCluster } from './ops-clusters.js';
import { checkPlanTotals, worldOf } from './ops-create.js';
import { requireOperable } from './ops-nodes.js';
import { checkQuotas } from './quotas.js';
import { reconcileGroup, setTarget } from './scaling.js';
import { batchAddNodesInput } from './schemas.js';
import { findGroup, type StoredCluster } from './state.js';

/**
 * BatchAddClusterNodes (Continuous mode only): raises groups' target counts and answers with the
 * NodeLogicalId of every node it starts. A repeated ClientToken with the same parameters answers
 * the same nodes with their latest status.
 */
const CORAL = { style: 'coral', code: 'ValidationException' } as const;

interface AddedNode {
  logicalId: string;
  group: string;
  zones?: string[];
  types?: string[];
}

function successEntry(cluster: StoredCluster, a: AddedNode) {
  const node = cluster.nodes.find((n) => n.nodeLogicalId === a.logicalId);
  return {
    NodeLogicalId: a.logicalId,
    InstanceGroupName: a.group,
    Status: node?.status ?? 'NotFound',
    ...(a.zones ? { AvailabilityZones: a.zones } : {}),
    ...(a.types ? { InstanceTypes: a.types } : {}),
  };
}

export function batchAddClusterNodesOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(batchAddNodesInput, input, CORAL);
  const cluster = requireCluster(ctx, req.ClusterName);
  if (cluster.nodeProvisioningMode !== 'Continuous') {
    throw validation(
      `BatchAddClusterNodes is only supported for clusters whose NodeProvisioningMode is Continuous; cluster '${cluster.name}' does not use it.`,
    );
  }
  const total = req.NodesToAdd.reduce((a, n) => a + n.IncrementTargetCountBy, 0);
  if (total > 50)
    throw validation(
      `NodesToAdd asks for ${total} nodes; a request can add at most 50 nodes across all instance groups.`,
    );
  const params = { cluster: cluster.arn, nodes: req.NodesToAdd };
  const mismatch = () => validation('The ClientToken was already used with different parameters.');
  const earlier = lookupClientToken(ctx, req.ClientToken, params, mismatch);
  if (earlier !== undefined) {
    const added = JSON.parse(earlier) as { nodes: AddedNode[]; failed: unknown[] };
    return { Successful: added.nodes.map((a) => successEntry(cluster, a)), Failed: added.failed };
  }
  requireOperable(cluster, 'BatchAddClusterNodes');

  const failed: Record<string, unknown>[] = [];
  const accepted: typeof req.NodesToAdd = [];
  const fail = (spec: (typeof req.NodesToAdd)[number], code: string, message: string) =>
    failed.push({
      InstanceGroupName: spec.InstanceGroupName,
      ErrorCode: code,
      FailedCount: spec.IncrementTargetCountBy,
      ...(spec.AvailabilityZones ? { AvailabilityZones: spec.AvailabilityZones } : {}),
      ...(spec.InstanceTypes ? { InstanceTypes: spec.InstanceTypes } : {}),
      Message: message,
    });
  for (const spec of req.NodesToAdd) {
    const group = findGroup(cluster, spec.InstanceGroupName);
    if (!group || group.deleting) {
      fail(
        spec,
        'InstanceGroupNotFound',
        `Instance group '${spec.InstanceGroupName}' does not exist in cluster '${cluster.name}'.`,
      );
      continue;
    }
    if (group.failureMessage) {
      fail(spec, 'InvalidInstanceGroupStatus', `Instance group '${spec.InstanceGroupName}' is Failed.`);
      continue;
    }
    const zones = group.subnets.map((id) => getSubnet(ctx.state, ctx.region, id)?.availabilityZone);
    if (spec.AvailabilityZones && !spec.AvailabilityZones.some((z) => zones.includes(z))) {
      fail(
        spec,
        'IncompatibleAvailabilityZones',
        `Instance group '${spec.InstanceGroupName}' has no subnet in ${spec.AvailabilityZones.join(', ')}.`,
      );
      continue;
    }
    if (
      spec.InstanceTypes &&
      !spec.InstanceTypes.includes(group.spec.InstanceType as (typeof spec.InstanceTypes)[number])
    ) {
      fail(
        spec,
        'IncompatibleInstanceTypes',
        `Instance group '${spec.InstanceGroupName}' runs ${group.spec.InstanceType}, not ${spec.InstanceTypes.join(', ')}.`,
      );
      continue;
    }
    accepted.push(spec);
  }
  const typeDelta = new Map<string, number>();
  for (const spec of accepted) {
    const type = findGroup(cluster, spec.InstanceGroupName)!.spec.InstanceType!;
    typeDelta.set(type, (typeDelta.get(type) ?? 0) + spec.IncrementTargetCountBy);
  }
  const world = worldOf(ctx);
  checkPlanTotals(
    world,
    accepted
      .map((s) => ({
        arn: findGroup(cluster, s.InstanceGroupName)!.spec.TrainingPlanArn,
        count: s.IncrementTargetCountBy,
      }))
      .filter((d): d is { arn: string; count: number } => d.arn !== undefined),
  );
  checkQuotas(ctx.state, ctx.region, typeDelta, cluster);

  const now = ctx.now();
  const added: AddedNode[] = [];
  for (const spec of accepted) {
    const group = findGroup(cluster, spec.InstanceGroupName)!;
    setTarget(world, group, group.targetCount + spec.IncrementTargetCountBy);
    for (const node of reconcileGroup(cluster, group, now)) {
      if (spec.AvailabilityZones) node.allowedZones = [...spec.AvailabilityZones];
      added.push({
        logicalId: node.nodeLogicalId,
        group: group.spec.InstanceGroupName,
        ...(spec.AvailabilityZones ? { zones: spec.AvailabilityZones } : {}),
        ...(spec.InstanceTypes ? { types: spec.InstanceTypes } : {}),
      });
    }
  }
  rememberClientToken(ctx, req.ClientToken, params, JSON.stringify({ nodes: added, failed }));
  return { Successful: added.map((a) => successEntry(cluster, a)), Failed: failed };
}
