import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { validation } from './errors.js';
import { page } from './paging.js';
import { addTagsInput, deleteTagsInput, listTagsInput } from './schemas.js';
import { findCluster, type StoredCluster } from './state.js';

/** AddTags / ListTags / DeleteTags on HyperPod cluster ARNs (at most 50 tags a resource). */
const CORAL = { style: 'coral', code: 'ValidationException' } as const;

function taggable(ctx: RequestContext, resourceArn: string): StoredCluster {
  const cluster = /:cluster\/[a-z0-9]{12}$/.test(resourceArn) ? findCluster(ctx.state, ctx.region, resourceArn) : undefined;
  if (!cluster) throw validation(`Resource '${resourceArn}' does not exist (the sandbox tags SageMaker HyperPod clusters).`);
  return cluster;
}

export function addTagsOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(addTagsInput, input, CORAL);
  const cluster = taggable(ctx, req.ResourceArn);
  const merged = new Map(cluster.tags.map((t) => [t.Key, t.Value]));
  for (const t of req.Tags) merged.set(t.Key, t.Value);
  if (merged.size > 50) throw validation(`Tags would exceed 50 on resource '${req.ResourceArn}'.`);
  cluster.tags = [...merged].map(([Key, Value]) => ({ Key, Value }));
  return { Tags: req.Tags };
}

export function listTagsOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(listTagsInput, input, CORAL);
  const cluster = taggable(ctx, req.ResourceArn);
  const p = page(cluster.tags, req, 50);
  return { Tags: p.items, ...(p.NextToken ? { NextToken: p.NextToken } : {}) };
}

export function deleteTagsOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(deleteTagsInput, input, CORAL);
  const cluster = taggable(ctx, req.ResourceArn);
  cluster.tags = cluster.tags.filter((t) => !req.TagKeys.includes(t.Key));
  return {};
}
