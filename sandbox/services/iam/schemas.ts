import { z } from 'zod';
import type { ValidationStyle } from '../../core/validation.js';

/**
 * IAM's request members with the constraints of its API model. awsQuery sends every value as text,
 * so numbers and booleans are parsed here; patterns are full-match and reported in IAM's own form
 * (`[\w+=,.@-]+`, without anchors).
 */
export const IAM_VALIDATION: ValidationStyle = { style: 'coral', code: 'ValidationError' };

/** A string that must wholly match `source`; the error quotes the bare pattern, as IAM does. */
export function fullMatch(source: string) {
  const re = new RegExp(`^(?:${source})$`, 'u');
  return z.string().check((ctx) => {
    if (!re.test(ctx.value))
      ctx.issues.push({ code: 'invalid_format', format: 'regex', pattern: source, input: ctx.value });
  });
}

/** awsQuery integers: `MaxItems=50`. */
export function queryInt(min: number, max: number) {
  return z
    .union([
      z.number(),
      z
        .string()
        .regex(/^-?\d+$/)
        .transform(Number),
    ])
    .pipe(z.number().int().min(min).max(max));
}

export const queryBool = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** An empty awsQuery list arrives as `Tags=` (an empty string). */
export const queryList = <T extends z.ZodType>(item: T, max: number) =>
  z.preprocess((v) => (v === '' ? [] : v), z.array(item).max(max));

export const roleName = fullMatch('[\\w+=,.@-]+').min(1).max(64);
export const policyName = fullMatch('[\\w+=,.@-]+').min(1).max(128);
export const path = fullMatch('(\\u002F)|(\\u002F[\\u0021-\\u007E]+\\u002F)').min(1).max(512);
export const pathPrefix = fullMatch('\\u002F[\\u0021-\\u007E]*').min(1).max(512);
export const policyDocument = fullMatch('[\\u0009\\u000A\\u000D\\u0020-\\u00FF]+').min(1).max(131072);
export const description = fullMatch('[\\u0009\\u000A\\u000D\\u0020-\\u007E\\u00A1-\\u00FF]*').max(1000);
export const arnType = z.string().min(20).max(2048);
export const marker = fullMatch('[\\u0020-\\u00FF]+').min(1).max(320);
export const maxItems = queryInt(1, 1000);

const tagKey = fullMatch('[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]+').min(1).max(128);
const tagValue = fullMatch('[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*').max(256);
export const tags = queryList(z.object({ Key: tagKey, Value: tagValue }), 50);
export const tagKeys = queryList(tagKey, 50);

export const paging = { Marker: marker.optional(), MaxItems: maxItems.optional() };

export const oidcUrl = z.string().min(1).max(255);
export const clientIdList = queryList(z.string().min(1).max(255), 100);
export const thumbprintList = queryList(fullMatch('[a-fA-F0-9]+').length(40), 5);
