import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { notFound, validation } from './errors.js';
import { recordEvent } from './events.js';
import { requireCluster } from './ops-clusters.js';
import { worldOf } from './ops-create.js';
import { batchResponse, resolveNodes, type Resolved } from './node-ids.js';
import { startReboot, startReplace, startShutdown } from './node-lifecycle.js';
import { page, sorted } from './paging.js';
import { nodeDetails, nodeSummary } from './render.js';
import { setTarget } from './scaling.js';
import {
  batchDeleteNodesInput,
  batchNodeActionInput,
  describeClusterNodeInput,
  listClusterNodesInput,
  toMillis,
} from './schemas.js';
import type { StoredCluster, StoredNode } from './state.js';

/** ListClusterNodes, DescribeClusterNode, BatchDeleteClusterNodes, BatchRebootClusterNodes, BatchReplaceClusterNodes. */
const CORAL = { style: 'coral', code: 'ValidationException' } as const;

/** Node operations need a cluster that is running (Continuous clusters accept them while they change). */
export function requireOperable(cluster: StoredCluster, operation: string): void {
  const ok =
    cluster.status === 'InService' ||
    cluster.status === 'Updating' ||
    (cluster.nodeProvisioningMode === 'Continuous' && cluster.status === 'Creating');
  if (!ok) throw validation(`${operation} is not possible while cluster '${cluster.name}' is ${cluster.status}.`);
}

export function listClusterNodesOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(listClusterNodesInput, input, CORAL);
  const cluster = requireCluster(ctx, req.ClusterName);
  const after = toMillis(req.CreationTimeAfter);
  const before = toMillis(req.CreationTimeBefore);
  const created = (n: StoredNode) => n.launchTime ?? n.createdAt;
  const matching = cluster.nodes.filter(
    (n) =>
      (req.IncludeNodeLogicalIds || n.instanceId !== undefined) &&
      (req.InstanceGroupNameContains === undefined || n.groupName.includes(req.InstanceGroupNameContains)) &&
      (after === undefined || created(n) > after) &&
      (before === undefined || created(n) < before),
  );
  const ordered = sorted(
    matching,
    (n) => (req.SortBy === 'NAME' ? `${n.groupName}\u0000${n.instanceId ?? n.nodeLogicalId}` : created(n)),
    req.SortOrder,
  );
  const p = page(ordered, req, 100);
  return {
    ClusterNodeSummaries: p.items.map((n) => nodeSummary(n, req.IncludeNodeLogicalIds === true)),
    ...(p.NextToken ? { NextToken: p.NextToken } : {}),
  };
}

export function describeClusterNodeOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(describeClusterNodeInput, input, CORAL);
  if ((req.NodeId === undefined) === (req.NodeLogicalId === undefined)) {
    throw validation('Specify either NodeId or NodeLogicalId, but not both.');
  }
  const cluster = requireCluster(ctx, req.ClusterName);
  const node = req.NodeId
    ? cluster.nodes.find((n) => n.instanceId === req.NodeId)
    : cluster.nodes.find((n) => n.nodeLogicalId === req.NodeLogicalId);
  if (!node) throw notFound(`Node '${req.NodeId ?? req.NodeLogicalId}' not found in cluster '${cluster.name}'.`);
  return { NodeDetails: nodeDetails(cluster, node) };
}

function requireSomeIds(req: { NodeIds?: string[]; NodeLogicalIds?: string[] }): void {
  if (!req.NodeIds && !req.NodeLogicalIds) throw validation('Specify at least one of NodeIds or NodeLogicalIds.');
}

/** BatchDeleteClusterNodes: each named node shuts down and its group's target count drops by one. */
export function batchDeleteClusterNodesOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(batchDeleteNodesInput, input, CORAL);
  requireSomeIds(req);
  const cluster = requireCluster(ctx, req.ClusterName);
  requireOperable(cluster, 'BatchDeleteClusterNodes');
  const world = worldOf(ctx);
  const now = ctx.now();
  const results = resolveNodes(cluster, req.NodeIds, req.NodeLogicalIds).map((r) => {
    const node = r.node;
    if (!node)
      return {
        r,
        error: { code: 'NodeIdNotFound', message: `Node '${r.id}' was not found in cluster '${cluster.name}'.` },
      };
    if (node.terminating)
      return { r, error: { code: 'InvalidNodeStatus', message: `Node '${r.id}' is already shutting down.` } };
    if (node.phase === 'reboot' || node.replacing)
      return {
        r,
        error: {
          code: 'NodeIdInUse',
          message: `Node '${r.id}' is being ${node.replacing ? 'replaced' : 'rebooted'}; retry when it is Running.`,
        },
      };
    const group = cluster.groups.find((g) => g.spec.InstanceGroupName === node.groupName);
    if (group) setTarget(world, group, Math.max(0, group.targetCount - 1));
    recordEvent(
      cluster,
      now,
      'Info',
      'Instance',
      `Node '${r.id}' deleted by BatchDeleteClusterNodes; instance group '${node.groupName}' target count is now ${group?.targetCount ?? 0}.`,
      {
        instanceGroupName: node.groupName,
        ...(node.instanceId ? { instanceId: node.instanceId } : {}),
      },
    );
    startShutdown(cluster, node, now);
    return { r };
  });
  if (results.some((x) => !x.error)) cluster.transitionEndsAt ??= now;
  return batchResponse(results, 'Code', {
    nodeIds: req.NodeIds !== undefined,
    logicalIds: req.NodeLogicalIds !== undefined,
  });
}

/** Why a node cannot be rebooted or replaced now, if it cannot. */
function actionError(r: Resolved, clusterName: string): { code: string; message: string } | undefined {
  const node = r.node;
  if (!node || !node.instanceId || node.terminating)
    return { code: 'InstanceIdNotFound', message: `Node '${r.id}' was not found in cluster '${clusterName}'.` };
  if (node.phase === 'reboot' || node.replacing || node.recoveryAt !== undefined) {
    return {
      code: 'InstanceIdInUse',
      message: `Another operation is in progress for node '${r.id}'; retry when it completes.`,
    };
  }
  if (node.status !== 'Running')
    return {
      code: 'InvalidInstanceStatus',
      message: `Node '${r.id}' is ${node.status}; only Running nodes can be rebooted or replaced.`,
    };
  return undefined;
}

function nodeAction(
  input: unknown,
  ctx: RequestContext,
  operation: string,
  act: (cluster: StoredCluster, node: StoredNode, now: number) => void,
) {
  const req = validateInput(batchNodeActionInput, input, CORAL);
  requireSomeIds(req);
  const cluster = requireCluster(ctx, req.ClusterName);
  requireOperable(cluster, operation);
  const now = ctx.now();
  const results = resolveNodes(cluster, req.NodeIds, req.NodeLogicalIds).map((r) => {
    const error = actionError(r, cluster.name);
    if (!error) act(cluster, r.node!, now);
    return error ? { r, error } : { r };
  });
  return batchResponse(results, 'ErrorCode', {
    nodeIds: req.NodeIds !== undefined,
    logicalIds: req.NodeLogicalIds !== undefined,
  });
}

/** A soft reboot: the node is unschedulable for a couple of minutes and comes back Running. */
export function batchRebootClusterNodesOp(input: unknown, ctx: RequestContext) {
  return nodeAction(input, ctx, 'BatchRebootClusterNodes', (cluster, node, now) => startReboot(cluster, node, now));
}

/** Fresh hardware: the instance is terminated and the node comes back with a new instance id. */
export function batchReplaceClusterNodesOp(input: unknown, ctx: RequestContext) {
  const world = worldOf(ctx);
  return nodeAction(input, ctx, 'BatchReplaceClusterNodes', (cluster, node, now) =>
    startReplace(world, cluster, node, now),
  );
}
