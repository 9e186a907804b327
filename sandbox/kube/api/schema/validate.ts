import type { StatusCause } from '../../errors.js';
import { deref, fieldOf, isPlainObject, joinPath, jsonType, shown, type Resolver, type Schema } from './walk.js';

/**
 * Validates a value against an OpenAPI v3 schema the way the API server validates custom
 * resources: type, nullable, enum, bounds, lengths, pattern, items, required, properties,
 * additionalProperties, anyOf/oneOf/allOf/not, list types, `x-kubernetes-int-or-string`,
 * embedded resources. Causes carry the API server's field paths and wording
 * (`spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`).
 * String formats are not checked; CEL rules (`x-kubernetes-validations`) are evaluated after this, by cel-validate.ts.
 */

export interface ValidateOptions {
  resolve: Resolver;
  /**
   * Whether a schema's `required` list applies at this path. Built-in kinds' schemas list fields the
   * server fills itself (container statuses, conditions); only the spec side is enforced for them.
   */
  enforceRequired?: (path: string) => boolean;
}

const invalid = (field: string, value: unknown, detail: string): StatusCause => ({
  field,
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${shown(value)}: ${detail}`,
});
const inBody = (path: string) => path || 'body';

export function validateValue(value: unknown, schema: Schema, path: string, options: ValidateOptions): StatusCause[] {
  const out: StatusCause[] = [];
  check(value, schema, path, options, out);
  return out;
}

function check(value: unknown, raw: Schema, path: string, o: ValidateOptions, out: StatusCause[]): void {
  const s = deref(raw, o.resolve);
  if (value === null && s.nullable) return;
  const actual = jsonType(value);
  if (s['x-kubernetes-int-or-string']) {
    if (actual !== 'integer' && actual !== 'string')
      out.push(invalid(path, actual, `${inBody(path)} in body must be of type integer,string: "${actual}"`));
    return;
  }
  if (typeof s.type === 'string' && s.type !== actual && !(s.type === 'number' && actual === 'integer')) {
    out.push(invalid(path, actual, `${inBody(path)} in body must be of type ${s.type}: "${actual}"`));
    return;
  }
  combinators(value, s, path, o, out);
  if (Array.isArray(s.enum) && !s.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(value))) {
    out.push({
      field: path,
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${shown(value)}: supported values: ${s.enum.map((e: unknown) => JSON.stringify(e)).join(', ')}`,
    });
  }
  if (typeof value === 'number') numberRules(value, s, path, out);
  if (typeof value === 'string') stringRules(value, s, path, out);
  if (Array.isArray(value)) arrayRules(value, s, path, o, out);
  if (isPlainObject(value)) objectRules(value, s, path, o, out);
}

function combinators(value: unknown, s: Schema, path: string, o: ValidateOptions, out: StatusCause[]): void {
  const passes = (branch: Schema) => validateValue(value, branch, path, o).length === 0;
  if (Array.isArray(s.allOf)) for (const branch of s.allOf as Schema[]) check(value, branch, path, o, out);
  if (Array.isArray(s.anyOf) && !(s.anyOf as Schema[]).some(passes)) {
    const types = (s.anyOf as Schema[])
      .map((b) => deref(b, o.resolve))
      .filter((b) => Object.keys(b).length === 1 && typeof b.type === 'string');
    const actual = jsonType(value);
    out.push(
      types.length === s.anyOf.length
        ? invalid(
            path,
            actual,
            `${inBody(path)} in body must be of type ${types.map((b) => b.type).join(',')}: "${actual}"`,
          )
        : invalid(path, value, `${inBody(path)} in body must validate at least one schema (anyOf)`),
    );
  }
  if (Array.isArray(s.oneOf) && (s.oneOf as Schema[]).filter(passes).length !== 1)
    out.push(invalid(path, value, `${inBody(path)} in body must validate one and only one schema (oneOf)`));
  if (isPlainObject(s.not) && passes(s.not))
    out.push(invalid(path, value, `${inBody(path)} in body must not validate the schema (not)`));
}

function numberRules(value: number, s: Schema, path: string, out: StatusCause[]): void {
  if (typeof s.minimum === 'number' && (s.exclusiveMinimum ? value <= s.minimum : value < s.minimum)) {
    out.push(
      invalid(
        path,
        value,
        `${inBody(path)} in body should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${s.minimum}`,
      ),
    );
  }
  if (typeof s.maximum === 'number' && (s.exclusiveMaximum ? value >= s.maximum : value > s.maximum)) {
    out.push(
      invalid(
        path,
        value,
        `${inBody(path)} in body should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${s.maximum}`,
      ),
    );
  }
  if (typeof s.multipleOf === 'number' && s.multipleOf > 0 && !Number.isInteger(value / s.multipleOf)) {
    out.push(invalid(path, value, `${inBody(path)} in body should be a multiple of ${s.multipleOf}`));
  }
}

function stringRules(value: string, s: Schema, path: string, out: StatusCause[]): void {
  const length = [...value].length;
  if (typeof s.minLength === 'number' && length < s.minLength)
    out.push(invalid(path, value, `${inBody(path)} in body should be at least ${s.minLength} chars long`));
  if (typeof s.maxLength === 'number' && length > s.maxLength)
    out.push({
      field: path,
      reason: 'FieldValueTooLong',
      message: `Too long: may not be more than ${s.maxLength} bytes`,
    });
  if (typeof s.pattern === 'string' && patternOf(s.pattern)?.test(value) === false)
    out.push(invalid(path, value, `${inBody(path)} in body should match '${s.pattern}'`));
}

const patterns = new Map<string, RegExp | undefined>();
/**
 * CRD patterns are RE2; the shared subset compiles as JavaScript (`u` for escapes like \p{L}). RE2's
 * leading flag group (`(?i)redis|tieredstorage` in the inference operator's CRD) becomes JavaScript's
 * flags. A pattern JavaScript cannot compile at all is not checked (refusing every value would refuse
 * objects the real API server stores).
 */
function patternOf(source: string): RegExp | undefined {
  if (!patterns.has(source)) {
    let re: RegExp | undefined;
    const inline = /^\(\?([ims]+)\)/.exec(source);
    const body = inline ? source.slice(inline[0].length) : source;
    const flags = inline ? [...new Set(inline[1])].join('') : '';
    try {
      re = new RegExp(body, `u${flags}`);
    } catch {
      try {
        re = new RegExp(body, flags);
      } catch {
        re = undefined;
      }
    }
    patterns.set(source, re);
  }
  return patterns.get(source);
}

function arrayRules(value: unknown[], s: Schema, path: string, o: ValidateOptions, out: StatusCause[]): void {
  if (typeof s.minItems === 'number' && value.length < s.minItems)
    out.push(invalid(path, value.length, `${inBody(path)} in body should have at least ${s.minItems} items`));
  if (typeof s.maxItems === 'number' && value.length > s.maxItems)
    out.push({
      field: path,
      reason: 'FieldValueTooMany',
      message: `Too many: ${value.length}: must have at most ${s.maxItems} items`,
    });
  const listType = s['x-kubernetes-list-type'];
  const keys = (s['x-kubernetes-list-map-keys'] ?? []) as string[];
  if (s.uniqueItems || listType === 'set' || (listType === 'map' && keys.length > 0)) {
    const seen = new Set<string>();
    value.forEach((item, i) => {
      const identity =
        listType === 'map' && isPlainObject(item) ? JSON.stringify(keys.map((k) => item[k])) : JSON.stringify(item);
      if (seen.has(identity)) {
        const shownValue =
          listType === 'map' && isPlainObject(item) ? Object.fromEntries(keys.map((k) => [k, item[k]])) : item;
        out.push({
          field: joinPath(path, i),
          reason: 'FieldValueDuplicate',
          message: `Duplicate value: ${shown(shownValue)}`,
        });
      }
      seen.add(identity);
    });
  }
  if (isPlainObject(s.items)) value.forEach((item, i) => check(item, s.items, joinPath(path, i), o, out));
}

function objectRules(
  value: Record<string, unknown>,
  s: Schema,
  path: string,
  o: ValidateOptions,
  out: StatusCause[],
): void {
  if (Array.isArray(s.required) && (o.enforceRequired?.(path) ?? true)) {
    for (const key of s.required as string[])
      if (value[key] === undefined || value[key] === null)
        out.push({ field: joinPath(path, key), reason: 'FieldValueRequired', message: 'Required value' });
  }
  if (s['x-kubernetes-embedded-resource']) {
    for (const key of ['apiVersion', 'kind'])
      if (!value[key])
        out.push({
          field: joinPath(path, key),
          reason: 'FieldValueRequired',
          message: 'Required value: must not be empty',
        });
  }
  const count = Object.keys(value).length;
  if (typeof s.minProperties === 'number' && count < s.minProperties)
    out.push(invalid(path, count, `${inBody(path)} in body should have at least ${s.minProperties} properties`));
  if (typeof s.maxProperties === 'number' && count > s.maxProperties)
    out.push({
      field: path,
      reason: 'FieldValueTooMany',
      message: `Too many: ${count}: must have at most ${s.maxProperties} items`,
    });
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const field = fieldOf(s.properties, key);
    // A null field the schema does not allow is dropped before validation (see prune.ts), like an absent one.
    if (v === null && field && !deref(field, o.resolve).nullable) continue;
    if (field) check(v, field, joinPath(path, key), o, out);
    else if (isPlainObject(s.additionalProperties)) check(v, s.additionalProperties, joinPath(path, key), o, out);
  }
}
