import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { clusterNotFound } from './errors.js';
import { findTrainingPlan } from './training-plans/public.js';
import { recordEvent } from './events.js';
import { startShutdown } from './node-lifecycle.js';
import { page, sorted } from './paging.js';
import { clusterSummary, describeCluster } from './render.js';
import { clusterOnlyInput, listClustersInput, toMillis } from './schemas.js';
import { clustersIn, findCluster, type StoredCluster } from './state.js';
import { durations } from './timing.js';

/** DescribeCluster, ListClusters and DeleteCluster. */
const CORAL = { style: 'coral', code: 'ValidationException' } as const;

export function requireCluster(ctx: RequestContext, nameOrArn: string): StoredCluster {
  const cluster = findCluster(ctx.state, ctx.region, nameOrArn);
  if (!cluster) throw clusterNotFound(nameOrArn);
  return cluster;
}

export function describeClusterOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(clusterOnlyInput, input, CORAL);
  return describeCluster(
    requireCluster(ctx, req.ClusterName),
    (planArn) => findTrainingPlan(ctx.state, ctx.region, planArn)?.status,
  );
}

export function listClustersOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(listClustersInput, input, CORAL);
  const after = toMillis(req.CreationTimeAfter);
  const before = toMillis(req.CreationTimeBefore);
  const matching = clustersIn(ctx.state, ctx.region).filter(
    (c) =>
      (after === undefined || c.createdAt > after) &&
      (before === undefined || c.createdAt < before) &&
      (req.NameContains === undefined || c.name.includes(req.NameContains)) &&
      (req.TrainingPlanArn === undefined || c.groups.some((g) => g.spec.TrainingPlanArn === req.TrainingPlanArn)),
  );
  const ordered = sorted(matching, (c) => (req.SortBy === 'NAME' ? c.name : c.createdAt), req.SortOrder);
  const p = page(ordered, req, 10);
  return { ClusterSummaries: p.items.map(clusterSummary), ...(p.NextToken ? { NextToken: p.NextToken } : {}) };
}

/** Deleting: every node shuts down, then HyperPod removes its access entries and the cluster goes. */
export function deleteClusterOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(clusterOnlyInput, input, CORAL);
  const cluster = requireCluster(ctx, req.ClusterName);
  if (cluster.status === 'Deleting') return { ClusterArn: cluster.arn };
  const now = ctx.now();
  cluster.status = 'Deleting';
  cluster.setupDone = true;
  delete cluster.injectedFailure;
  cluster.transitionEndsAt = now + durations.deleteFinish(`${cluster.arn}:delete`);
  if (cluster.autoScaling) cluster.autoScaling.Status = 'Deleting';
  recordEvent(
    cluster,
    now,
    'Info',
    'Cluster',
    `Cluster '${cluster.name}' deletion started; its ${cluster.nodes.filter((n) => n.instanceId).length} instance(s) are terminating.`,
  );
  for (const node of [...cluster.nodes]) {
    if (node.terminating) continue;
    startShutdown(cluster, node, now);
  }
  return { ClusterArn: cluster.arn };
}
