import { z } from 'zod';
import type { OperationHandler } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { invalidInput, limitExceeded } from './errors.js';
import { pageOf } from './paging.js';
import { IAM_VALIDATION, paging, roleName, tagKeys, tags } from './schemas.js';
import { requireRole, type Tag } from './state.js';

/** Role tags. IAM tag keys are case-insensitive: a new value for an existing key replaces it. */
const TAGS_PER_ENTITY = 50;

/** `existing` with `added` merged in, or the error IAM gives; never mutates. */
export function checkNewTags(existing: Tag[], added: Tag[]): Tag[] {
  const seen = new Set<string>();
  for (const t of added) {
    const k = t.Key.toLowerCase();
    if (seen.has(k)) throw invalidInput('Duplicate tag keys found. Please note that Tag keys are case insensitive.');
    seen.add(k);
  }
  const merged = existing
    .filter((t) => !seen.has(t.Key.toLowerCase()))
    .concat(added.map((t) => ({ Key: t.Key, Value: t.Value })));
  if (merged.length > TAGS_PER_ENTITY)
    throw limitExceeded(`The number of tags has reached the maximum limit of ${TAGS_PER_ENTITY}.`);
  return merged;
}

const tagRole: OperationHandler = (input, ctx) => {
  const req = validateInput(z.object({ RoleName: roleName, Tags: tags }), input, IAM_VALIDATION);
  const role = requireRole(ctx.state, req.RoleName);
  role.tags = checkNewTags(role.tags, req.Tags);
  return {};
};

const untagRole: OperationHandler = (input, ctx) => {
  const req = validateInput(z.object({ RoleName: roleName, TagKeys: tagKeys }), input, IAM_VALIDATION);
  const role = requireRole(ctx.state, req.RoleName);
  const drop = new Set(req.TagKeys.map((k) => k.toLowerCase()));
  role.tags = role.tags.filter((t) => !drop.has(t.Key.toLowerCase()));
  return {};
};

const listRoleTags: OperationHandler = (input, ctx) => {
  const req = validateInput(z.object({ RoleName: roleName, ...paging }), input, IAM_VALIDATION);
  const role = requireRole(ctx.state, req.RoleName);
  const { page, ...rest } = pageOf(role.tags, req);
  return { Tags: page, ...rest };
};

export const roleTagOperations: Record<string, OperationHandler> = {
  TagRole: tagRole,
  UntagRole: untagRole,
  ListRoleTags: listRoleTags,
};
