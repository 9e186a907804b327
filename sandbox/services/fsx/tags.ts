import { z } from 'zod';
import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { badRequest, resourceNotFound } from './errors.js';
import { pageOf } from './paging.js';
import { nextTokenSchema, resourceArnSchema, tagsSchema, VALIDATION } from './schemas.js';
import { findFileSystem, type FsxTag, type StoredFileSystem } from './state.js';

/** TagResource, UntagResource and ListTagsForResource on file systems (addressed by ARN). */
const MAX_TAGS = 50;

export function checkTagKeys(tags: FsxTag[]): void {
  const seen = new Set<string>();
  for (const { Key } of tags) {
    if (Key.toLowerCase().startsWith('aws:'))
      throw badRequest(`Tag key '${Key}' is not valid: keys starting with 'aws:' are reserved for AWS use.`);
    if (seen.has(Key)) throw badRequest(`Tag key '${Key}' appears more than once.`);
    seen.add(Key);
  }
}

function fileSystemByArn(ctx: RequestContext, resourceArn: string): StoredFileSystem {
  const m = /^arn:aws[a-z-]*:fsx:([a-z0-9-]+):(\d{12}):file-system\/(fs-[0-9a-f]+)$/.exec(resourceArn);
  const fs =
    m && m[1] === ctx.region && m[2] === ctx.accountId ? findFileSystem(ctx.state, ctx.region, m[3]!) : undefined;
  if (!fs) throw resourceNotFound(resourceArn);
  return fs;
}

export function tagResource(input: unknown, ctx: RequestContext) {
  const req = validateInput(z.object({ ResourceARN: resourceArnSchema, Tags: tagsSchema }), input, VALIDATION);
  checkTagKeys(req.Tags);
  const fs = fileSystemByArn(ctx, req.ResourceARN);
  const merged = new Map(fs.tags.map((t) => [t.Key, t.Value]));
  for (const t of req.Tags) merged.set(t.Key, t.Value);
  if (merged.size > MAX_TAGS)
    throw badRequest(`A resource can have at most ${MAX_TAGS} tags; this request would leave ${merged.size}.`);
  fs.tags = [...merged].map(([Key, Value]) => ({ Key, Value }));
  return {};
}

export function untagResource(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({
      ResourceARN: resourceArnSchema,
      TagKeys: z
        .array(
          z
            .string()
            .min(1)
            .max(128)
            .regex(/^([\p{L}\p{Z}\p{N}_.:/=+\-@]*)$/u),
        )
        .min(1)
        .max(50),
    }),
    input,
    VALIDATION,
  );
  const fs = fileSystemByArn(ctx, req.ResourceARN);
  const drop = new Set(req.TagKeys);
  fs.tags = fs.tags.filter((t) => !drop.has(t.Key));
  return {};
}

export function listTagsForResource(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({
      ResourceARN: resourceArnSchema,
      MaxResults: z.number().int().min(1).max(2147483647).optional(),
      NextToken: nextTokenSchema.optional(),
    }),
    input,
    VALIDATION,
  );
  const fs = fileSystemByArn(ctx, req.ResourceARN);
  const { page, nextToken } = pageOf(fs.tags, req.MaxResults, req.NextToken);
  return { Tags: page.map((t) => ({ ...t })), ...(nextToken ? { NextToken: nextToken } : {}) };
}
