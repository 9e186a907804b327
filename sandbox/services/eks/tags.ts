import { keyed, type Keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { AwsError } from '../../core/errors.js';
import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { tagsSchema } from './paging.js';
import { findCluster } from './state.js';

/**
 * Tagging by ARN for clusters, add-ons, access entries and pod identity associations. These three
 * operations use EKS's generic errors: BadRequestException for a malformed ARN, NotFoundException
 * for one that names nothing.
 */
const VALIDATION = { style: 'coral', code: 'BadRequestException' } as const;

const badRequest = (message: string) => new AwsError('BadRequestException', message, 400);
const notFound = (resourceArn: string) => new AwsError('NotFoundException', `Resource not found: ${resourceArn}`, 404);

function taggable(ctx: RequestContext, resourceArn: string): { tags: Keyed<string> } {
  const m =
    /^arn:aws[a-z-]*:eks:([a-z0-9-]+):(\d{12}):(cluster|addon|access-entry|podidentityassociation)\/([^/]+)(\/.*)?$/.exec(
      resourceArn,
    );
  if (!m) throw badRequest(`Invalid resource ARN: ${resourceArn}`);
  const [, region, account, kind, clusterName] = m;
  if (region !== ctx.region || account !== ctx.accountId) throw notFound(resourceArn);
  const c = findCluster(ctx.state, ctx.region, clusterName!);
  if (!c) throw notFound(resourceArn);
  const found =
    kind === 'cluster'
      ? c.arn === resourceArn && c
      : kind === 'addon'
        ? keyed.values(c.addons).find((a) => a.addonArn === resourceArn)
        : kind === 'access-entry'
          ? keyed.values(c.accessEntries).find((e) => e.accessEntryArn === resourceArn)
          : keyed.values(c.podIdentityAssociations).find((a) => a.associationArn === resourceArn);
  if (!found) throw notFound(resourceArn);
  return found;
}

export function tagResource(input: unknown, ctx: RequestContext) {
  const req = validateInput(z.object({ resourceArn: z.string().min(1), tags: tagsSchema.unwrap() }), input, VALIDATION);
  const target = taggable(ctx, req.resourceArn);
  const merged = keyed.from([...keyed.entries(target.tags), ...Object.entries(req.tags)]);
  if (keyed.size(merged) > 50) throw badRequest('A resource can have at most 50 tags.');
  target.tags = merged;
  return {};
}

export function untagResource(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({ resourceArn: z.string().min(1), tagKeys: z.array(z.string().min(1).max(128)).min(1).max(50) }),
    input,
    VALIDATION,
  );
  const target = taggable(ctx, req.resourceArn);
  for (const k of req.tagKeys) keyed.delete(target.tags, k);
  return {};
}

export function listTagsForResource(input: unknown, ctx: RequestContext) {
  const req = validateInput(z.object({ resourceArn: z.string().min(1) }), input, VALIDATION);
  return { tags: keyed.toRecord(taggable(ctx, req.resourceArn).tags) };
}
