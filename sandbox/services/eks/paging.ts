import { z } from 'zod';
import { invalidParameter } from './errors.js';

/**
 * List paging as EKS does it: `maxResults` (1–100) and an opaque `nextToken`. The token names the
 * last key returned, so a page stays right when items are added between calls; when that item is
 * gone, paging resumes at the next greater key (lists are sorted ascending by key, except static
 * catalogues, whose keys never disappear).
 */
export const maxResults = (max = 100) => z.coerce.number().int().min(1).max(max).optional();
export const nextToken = z.string().optional();

export function page<T>(
  items: T[],
  keyOf: (item: T) => string,
  input: { maxResults?: number; nextToken?: string },
  defaultMax = 100,
): { items: T[]; nextToken?: string } {
  let start = 0;
  if (input.nextToken) {
    const after = decodeToken(input.nextToken);
    const at = items.findIndex((i) => keyOf(i) === after);
    start = at >= 0 ? at + 1 : items.findIndex((i) => keyOf(i) > after);
    if (start < 0) start = items.length;
  }
  const size = input.maxResults ?? defaultMax;
  const slice = items.slice(start, start + size);
  const more = start + size < items.length;
  return { items: slice, ...(more ? { nextToken: encodeToken(keyOf(slice[slice.length - 1]!)) } : {}) };
}

function encodeToken(key: string): string {
  return Buffer.from(JSON.stringify({ after: key })).toString('base64url');
}

function decodeToken(token: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { after?: unknown };
    if (typeof parsed.after === 'string') return parsed.after;
  } catch {
    // fall through
  }
  throw invalidParameter('The nextToken provided is invalid.');
}

/** Query-string booleans (`?preserve=true`) and JSON booleans alike. */
export const queryBoolean = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/** EKS tag rules: at most 50, keys 1–128 characters, values up to 256, no `aws:` prefix. */
export const tagsSchema = z
  .record(z.string().min(1).max(128), z.string().max(256))
  .refine((t) => Object.keys(t).length <= 50, { message: 'Tags must not exceed 50 entries' })
  .refine((t) => !Object.keys(t).some((k) => k.toLowerCase().startsWith('aws:')), {
    message: "Tag keys must not start with 'aws:'",
  })
  .optional();
