import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { notFound, validation } from './errors.js';
import { requireCluster } from './ops-clusters.js';
import { startDeepHealthCheck } from './node-lifecycle.js';
import { page, sorted } from './paging.js';
import { describeClusterEventInput, listClusterEventsInput, startHealthCheckInput, toMillis } from './schemas.js';
import { findGroup, type StoredCluster, type StoredEvent, type StoredNode } from './state.js';

/** StartClusterHealthCheck, ListClusterEvents and DescribeClusterEvent. */
const CORAL = { style: 'coral', code: 'ValidationException' } as const;

/** On-demand deep health checks: the named (or all Running) nodes of each group go DeepHealthCheckInProgress. */
export function startClusterHealthCheckOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(startHealthCheckInput, input, CORAL);
  const cluster = requireCluster(ctx, req.ClusterName);
  if (cluster.status !== 'InService')
    throw validation(`Deep health checks need an InService cluster; cluster '${cluster.name}' is ${cluster.status}.`);
  const plan: { node: StoredNode; checks: string[] }[] = [];
  for (const cfg of req.DeepHealthCheckConfigurations) {
    const group = findGroup(cluster, cfg.InstanceGroupName);
    if (!group || group.deleting)
      throw validation(`Instance group '${cfg.InstanceGroupName}' does not exist in cluster '${cluster.name}'.`);
    const members = cluster.nodes.filter(
      (n) => n.groupName === cfg.InstanceGroupName && n.instanceId && !n.terminating,
    );
    const chosen = cfg.InstanceIds
      ? cfg.InstanceIds.map((id) => {
          const node = members.find((n) => n.instanceId === id);
          if (!node) throw validation(`Instance '${id}' is not a node of instance group '${cfg.InstanceGroupName}'.`);
          return node;
        })
      : members.filter((n) => n.status === 'Running');
    if (chosen.length === 0)
      throw validation(`Instance group '${cfg.InstanceGroupName}' has no Running nodes to check.`);
    for (const node of chosen) {
      if (node.status !== 'Running' || node.recoveryAt !== undefined) {
        throw validation(
          `Instance '${node.instanceId}' is ${node.status}; deep health checks run on Running nodes only.`,
        );
      }
      plan.push({ node, checks: [...new Set(cfg.DeepHealthChecks)] });
    }
  }
  const now = ctx.now();
  for (const { node, checks } of plan) startDeepHealthCheck(cluster, node, checks, now);
  return { ClusterArn: cluster.arn };
}

function requireContinuous(cluster: StoredCluster, operation: string): void {
  if (cluster.nodeProvisioningMode !== 'Continuous') {
    throw validation(
      `${operation} is only supported for clusters whose NodeProvisioningMode is Continuous; cluster '${cluster.name}' does not use it.`,
    );
  }
}

function eventSummary(cluster: StoredCluster, e: StoredEvent) {
  return {
    EventId: e.eventId,
    ClusterArn: cluster.arn,
    ClusterName: cluster.name,
    ...(e.instanceGroupName ? { InstanceGroupName: e.instanceGroupName } : {}),
    ...(e.instanceId ? { InstanceId: e.instanceId } : {}),
    ResourceType: e.resourceType,
    EventTime: new Date(e.time),
    Description: e.description,
    EventLevel: e.level,
  };
}

export function listClusterEventsOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(listClusterEventsInput, input, CORAL);
  const cluster = requireCluster(ctx, req.ClusterName);
  requireContinuous(cluster, 'ListClusterEvents');
  const after = toMillis(req.EventTimeAfter);
  const before = toMillis(req.EventTimeBefore);
  const matching = cluster.events.filter(
    (e) =>
      (req.InstanceGroupName === undefined || e.instanceGroupName === req.InstanceGroupName) &&
      (req.NodeId === undefined || e.instanceId === req.NodeId) &&
      (req.ResourceType === undefined || e.resourceType === req.ResourceType) &&
      (after === undefined || e.time > after) &&
      (before === undefined || e.time < before),
  );
  // Events recorded at the same instant keep the order they happened in.
  const indexed = matching.map((e, i) => ({ e, key: e.time * 100_000 + i }));
  const ordered = sorted(indexed, (x) => x.key, req.SortOrder ?? 'Descending').map((x) => x.e);
  const p = page(ordered, req, 100);
  return { Events: p.items.map((e) => eventSummary(cluster, e)), ...(p.NextToken ? { NextToken: p.NextToken } : {}) };
}

export function describeClusterEventOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(describeClusterEventInput, input, CORAL);
  const cluster = requireCluster(ctx, req.ClusterName);
  requireContinuous(cluster, 'DescribeClusterEvent');
  const event = cluster.events.find((e) => e.eventId === req.EventId);
  if (!event) throw notFound(`Event '${req.EventId}' not found for cluster '${cluster.name}'.`);
  return { EventDetails: eventSummary(cluster, event) };
}
