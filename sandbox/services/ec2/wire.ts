import { z } from 'zod';
import { AwsError } from '../../core/errors.js';
import { offsetPage } from '../../core/paging.js';
import { ec2Errors } from '../../core/error-styles.js';
import { validateInput } from '../../core/validation.js';
import { keyed, type Keyed } from '../../core/keyed.js';
import type { Tags } from './state.js';

/**
 * Helpers for EC2's query protocol: every value arrives as a string, lists arrive numbered, and
 * responses use lower-camel elements with `<item>` lists.
 */
export const EC2_ERRORS = ec2Errors();

export const qInt = z
  .string()
  .regex(/^-?\d+$/, 'must be an integer')
  .transform(Number);
export const qBool = z.enum(['true', 'false']).transform((v) => v === 'true');
export const qList = <T extends z.ZodType>(item: T) => z.array(item);

const tagSchema = z.object({ Key: z.string().min(1).max(127), Value: z.string().max(255).optional() });
export const tagSpecificationsSchema = z
  .array(z.object({ ResourceType: z.string().min(1), Tag: z.array(tagSchema).max(50).optional() }))
  .optional();
export const filtersSchema = z
  .array(z.object({ Name: z.string().min(1), Value: z.array(z.string()).optional() }))
  .optional();
export const pagingSchema = { MaxResults: qInt.optional(), NextToken: z.string().optional(), DryRun: qBool.optional() };

export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const data = validateInput(schema, input, EC2_ERRORS.validation) as z.output<S> & { DryRun?: boolean };
  if (data && typeof data === 'object' && data.DryRun) {
    throw new AwsError('DryRunOperation', 'Request would have succeeded, but DryRun flag is set.', 412);
  }
  return data;
}

/** Tags from `TagSpecification.N` for the resource type being created; other types are refused. */
export function tagsFor(specs: z.output<typeof tagSpecificationsSchema>, resourceType: string): Tags {
  const tags: Tags = {};
  for (const spec of specs ?? []) {
    if (spec.ResourceType !== resourceType) {
      throw new AwsError(
        'InvalidParameterValue',
        `'${spec.ResourceType}' is not a valid taggable resource type for this operation.`,
      );
    }
    for (const t of spec.Tag ?? []) keyed.set(tags, t.Key, t.Value ?? '');
  }
  return tags;
}

export function tagSet(tags: Tags): Array<{ key: string; value: string }> | undefined {
  const entries = keyed.entries(tags);
  return entries.length ? entries.map(([key, value]) => ({ key, value })) : undefined;
}

export function notFound(code: string, kind: string, id: string): AwsError {
  return new AwsError(code, `The ${kind} ID '${id}' does not exist`);
}

/** `*` and `?` wildcards as EC2 filters use them. */
function wildcard(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
}

/**
 * Applies EC2 filters. `fields(resource, name)` returns the resource's values for a filter name,
 * or `undefined` when the name is not a filter of this resource type (→ InvalidParameterValue).
 * Tag filters (`tag:Key`, `tag-key`, `tag-value`) work on every taggable resource.
 */
export function applyFilters<T extends object>(
  items: T[],
  filters: z.output<typeof filtersSchema>,
  fields: (item: T, name: string) => Array<string | undefined> | undefined,
): T[] {
  if (!filters?.length) return items;
  return items.filter((item) =>
    filters.every((f) => {
      const tags = (item as { tags?: Tags }).tags;
      const values = (f.Value ?? []).map(wildcard);
      let actual: Array<string | undefined> | undefined;
      if (f.Name.startsWith('tag:'))
        actual = keyed.has(tags, f.Name.slice(4)) ? [keyed.get(tags, f.Name.slice(4))] : [];
      else if (f.Name === 'tag-key') actual = keyed.keys(tags);
      else if (f.Name === 'tag-value') actual = keyed.values(tags);
      else {
        // `fields` looks the name up in an object literal: a name like `constructor` finds a
        // prototype member, not a filter, and is refused like any other unknown name.
        const found: unknown = fields(item, f.Name);
        actual = Array.isArray(found) ? found : undefined;
      }
      if (actual === undefined) throw new AwsError('InvalidParameterValue', `The filter '${f.Name}' is invalid`);
      return actual.some((a) => a !== undefined && values.some((re) => re.test(a)));
    }),
  );
}

/** Keeps only the listed ids; an id that does not exist is an error, as in every EC2 Describe call. */
export function selectIds<T>(all: Keyed<T>, ids: string[] | undefined, onMissing: (id: string) => AwsError): T[] {
  if (!ids?.length) return keyed.values(all);
  return ids.map((id) => {
    const found = keyed.get(all, id);
    if (!found) throw onMissing(id);
    return found;
  });
}

/** `MaxResults`/`NextToken` paging with an opaque token; without MaxResults everything is returned. */
export function page<T>(
  items: T[],
  maxResults: number | undefined,
  nextToken: string | undefined,
  limits = { min: 5, max: 1000 },
): { items: T[]; nextToken?: string } {
  if (maxResults !== undefined && (maxResults < limits.min || maxResults > limits.max)) {
    throw new AwsError(
      'InvalidParameterValue',
      `Value (${maxResults}) for parameter maxResults is invalid. Expecting a value between ${limits.min} and ${limits.max}.`,
    );
  }
  const { items: slice, next } = offsetPage(
    items,
    nextToken,
    maxResults,
    () => new AwsError('InvalidNextToken', 'The token provided is invalid.'),
  );
  return next ? { items: slice, nextToken: next } : { items: slice };
}
