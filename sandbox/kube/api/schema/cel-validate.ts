import { isDeepStrictEqual } from 'node:util';
import type { StatusCause } from '../../errors.js';
import { compile, rulesOf, type ValidationRule } from './cel-rules.js';
import { fieldOf, isPlainObject, joinPath, type Schema } from './walk.js';

/**
 * Evaluates a custom resource's `x-kubernetes-validations` rules as apiextensions-apiserver does
 * (k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel/validation.go):
 * - every schema node with rules and a value: `self` is the value (integers as CEL ints, numbers
 *   as doubles, `date-time` strings as timestamps; at the root `metadata` has only `name` and
 *   `generateName`);
 * - a rule that reads `oldSelf` (a transition rule) runs only on update, where the old object has
 *   a value at the same place: through object fields, map keys and the keyed items of
 *   `x-kubernetes-list-type: map` lists (other lists' items are not correlated);
 * - on update, a rule whose value did not change is not evaluated again (validation ratcheting,
 *   on by default since Kubernetes 1.30 — what lets objects stored before a stricter CRD be updated);
 * - a failed rule is `<path>[.fieldPath]: Invalid value: "<schema type>": <message>` (or
 *   `Forbidden:`, `Required value:`, `Duplicate value:` by `reason`), the message from
 *   `messageExpression`, else `message`, else `failed rule: <rule>`; a rule that errors says
 *   `<error> evaluating rule: <rule>`.
 * Not played: the cost budget, `optionalOldSelf` (such rules run only on update).
 */

/** No value at this place in the old object (a create, or a place the old object does not have). */
const NO_OLD = Symbol('no old value');
type Old = unknown | typeof NO_OLD;

/** Whether a schema has any rule (the API server builds a CEL validator only then). */
export function hasRules(s: unknown): boolean {
  if (Array.isArray(s)) return s.some(hasRules);
  if (!isPlainObject(s)) return false;
  if (rulesOf(s).length > 0) return true;
  return [
    s.properties ? Object.values(s.properties) : [],
    s.items,
    s.additionalProperties,
    s.allOf,
    s.anyOf,
    s.oneOf,
  ].some(hasRules);
}

/** The rule causes of `value` (validated at `path` by `schema`), `old` being the stored object on update. */
export function celCauses(schema: Schema, value: unknown, old: unknown, path: string, root = true): StatusCause[] {
  const out: StatusCause[] = [];
  walk(schema, value, old === undefined ? NO_OLD : old, path, root, out);
  return out;
}

function walk(s: Schema, value: unknown, old: Old, path: string, root: boolean, out: StatusCause[]): void {
  if (value === undefined || value === null || !isPlainObject(s)) return;
  const rules = rulesOf(s);
  if (rules.length > 0) evaluate(s, rules, value, old, path, root, out);
  if (Array.isArray(value)) {
    if (!isPlainObject(s.items)) return;
    const keys = s['x-kubernetes-list-type'] === 'map' ? ((s['x-kubernetes-list-map-keys'] ?? []) as string[]) : [];
    const olds = keys.length > 0 && Array.isArray(old) ? old : [];
    value.forEach((item, i) => {
      const match = olds.find(
        (o) => isPlainObject(o) && isPlainObject(item) && keys.every((k) => isDeepStrictEqual(o[k], item[k])),
      );
      walk(s.items, item, match === undefined ? NO_OLD : match, joinPath(path, i), false, out);
    });
    return;
  }
  if (!isPlainObject(value)) return;
  const olds = isPlainObject(old) ? old : undefined;
  for (const [key, v] of Object.entries(value)) {
    if (root && key === 'metadata') continue;
    const field =
      fieldOf(s.properties, key) ?? (isPlainObject(s.additionalProperties) ? s.additionalProperties : undefined);
    if (field) walk(field, v, olds && Object.hasOwn(olds, key) ? olds[key] : NO_OLD, joinPath(path, key), false, out);
  }
}

function evaluate(
  s: Schema,
  rules: ValidationRule[],
  value: unknown,
  old: Old,
  path: string,
  root: boolean,
  out: StatusCause[],
): void {
  const unchanged = old !== NO_OLD && isDeepStrictEqual(value, old);
  let self: unknown;
  let oldSelf: unknown;
  for (const r of rules) {
    const rule = compile(r.rule, 'bool');
    if (!('compiled' in rule)) {
      // The API refuses such a CRD; one a sandbox controller stored directly must still not pass unchecked.
      out.push({
        field: path,
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${typeof s.type === 'string' ? s.type : ''}": rule compilation failed: ${rule.error}: ${r.rule.trim()}`,
      });
      continue;
    }
    if (rule.compiled.usesOldSelf ? old === NO_OLD : unchanged) continue;
    self ??= toCel(value, s, root);
    if (rule.compiled.usesOldSelf) oldSelf ??= toCel(old, s, root);
    const field = r.fieldPath ? `${path}${fieldPathSuffix(r.fieldPath)}` : path;
    const type = typeof s.type === 'string' ? s.type : '';
    let result: unknown;
    try {
      result = rule.compiled.run({ self, oldSelf });
    } catch (err) {
      const why = err instanceof Error ? err.message.split('\n')[0]!.trim() : String(err);
      out.push({
        field,
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${type}": ${why} evaluating rule: ${r.rule.trim()}`,
      });
      continue;
    }
    if (result === true) continue;
    out.push(failure(r, field, type, messageOf(r, { self, oldSelf })));
  }
}

function messageOf(r: ValidationRule, vars: { self: unknown; oldSelf: unknown }): string {
  const fallback = r.message ? r.message : `failed rule: ${r.rule.trim()}`;
  if (r.messageExpression === undefined) return fallback;
  const expr = compile(r.messageExpression, 'string');
  if (!('compiled' in expr)) return fallback;
  try {
    const text = expr.compiled.run(vars);
    return typeof text === 'string' && text.trim() !== '' && !text.includes('\n') ? text : fallback;
  } catch {
    return fallback;
  }
}

function failure(r: ValidationRule, field: string, type: string, message: string): StatusCause {
  switch (r.reason) {
    case 'FieldValueForbidden':
      return { field, reason: 'FieldValueForbidden', message: `Forbidden: ${message}` };
    case 'FieldValueRequired':
      return { field, reason: 'FieldValueRequired', message: `Required value: ${message}` };
    case 'FieldValueDuplicate':
      return { field, reason: 'FieldValueDuplicate', message: `Duplicate value: "${type}"` };
    default:
      return { field, reason: 'FieldValueInvalid', message: `Invalid value: "${type}": ${message}` };
  }
}

/** A rule's `fieldPath` (`.spec.replicas`, `.labels['a.b/c']`) appended as the API server writes paths. */
const fieldPathSuffix = (p: string): string => p.replace(/\['([^']*)'\]/g, '[$1]').replace(/^([^.[])/, '.$1');

/** A JSON value as CEL sees it under `schema`: integers as int (BigInt), `date-time` strings as timestamps. */
export function toCel(value: unknown, s: Schema | undefined, root = false): unknown {
  if (typeof value === 'number') {
    if (s?.type === 'number') return value;
    return Number.isInteger(value) ? BigInt(value) : value;
  }
  if (typeof value === 'string')
    return s?.format === 'date-time' && !Number.isNaN(Date.parse(value)) ? new Date(value) : value;
  if (Array.isArray(value)) return value.map((item) => toCel(item, isPlainObject(s?.items) ? s.items : undefined));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (root && key === 'metadata') {
      const meta = isPlainObject(v) ? v : {};
      out.metadata = Object.fromEntries(
        ['name', 'generateName'].filter((k) => typeof meta[k] === 'string').map((k) => [k, meta[k]]),
      );
      continue;
    }
    const field =
      fieldOf(s?.properties, key) ?? (isPlainObject(s?.additionalProperties) ? s.additionalProperties : undefined);
    Object.defineProperty(out, key, { value: toCel(v, field), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
