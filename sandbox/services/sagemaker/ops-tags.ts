import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { validation } from './errors.js';
import { page } from './paging.js';
import { addTagsInput, deleteTagsInput, listTagsInput } from './schemas.js';
import { findServerByArn } from './mlflow/state.js';
import { findCluster } from './state.js';

/**
 * AddTags / ListTags / DeleteTags on HyperPod cluster and MLflow tracking server ARNs (at most 50
 * tags a resource), both kept as SageMaker's `[{Key, Value}]` list.
 */
const CORAL = { style: 'coral', code: 'ValidationException' } as const;

function taggable(ctx: RequestContext, resourceArn: string): { tags: Array<{ Key: string; Value: string }> } {
  const cluster = /:cluster\/[a-z0-9]{12}$/.test(resourceArn)
    ? findCluster(ctx.state, ctx.region, resourceArn)
    : undefined;
  const server = /:mlflow-tracking-server\//.test(resourceArn) ? findServerByArn(ctx.state, resourceArn) : undefined;
  const found = cluster ?? (server?.region === ctx.region ? server : undefined);
  if (!found)
    throw validation(
      `Resource '${resourceArn}' does not exist (the sandbox tags SageMaker HyperPod clusters and MLflow tracking servers).`,
    );
  return found;
}

export function addTagsOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(addTagsInput, input, CORAL);
  const resource = taggable(ctx, req.ResourceArn);
  const merged = new Map(resource.tags.map((t) => [t.Key, t.Value]));
  for (const t of req.Tags) merged.set(t.Key, t.Value);
  if (merged.size > 50) throw validation(`Tags would exceed 50 on resource '${req.ResourceArn}'.`);
  resource.tags = [...merged].map(([Key, Value]) => ({ Key, Value }));
  return { Tags: req.Tags };
}

export function listTagsOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(listTagsInput, input, CORAL);
  const resource = taggable(ctx, req.ResourceArn);
  const p = page(resource.tags, req, 50);
  return { Tags: p.items, ...(p.NextToken ? { NextToken: p.NextToken } : {}) };
}

export function deleteTagsOp(input: unknown, ctx: RequestContext) {
  const req = validateInput(deleteTagsInput, input, CORAL);
  const resource = taggable(ctx, req.ResourceArn);
  resource.tags = resource.tags.filter((t) => !req.TagKeys.includes(t.Key));
  return {};
}
