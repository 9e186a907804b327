import { deref, fieldOf, isPlainObject, joinPath, setField, type Resolver, type Schema } from './walk.js';

/**
 * Pruning, as the API server does it: fields a schema does not declare are dropped instead of
 * refused (built-in kinds lose them when the server decodes the JSON; custom resources by their
 * structural schema), unless the schema says `x-kubernetes-preserve-unknown-fields` or allows
 * `additionalProperties`. Null fields the schema does not mark `nullable` are dropped too. The
 * paths of the unknown fields are collected, for clients that ask for strict field validation.
 */

const EMBEDDED_KEEP = new Set(['apiVersion', 'kind', 'metadata']);

export interface Pruned {
  value: unknown;
  /** Dropped unknown fields, as `spec.template.spec.containers[0].imagePullPolice`. */
  unknown: string[];
}

export function pruneValue(value: unknown, schema: Schema, path: string, resolve: Resolver): Pruned {
  const unknown: string[] = [];
  return { value: walk(value, schema, path, resolve, unknown), unknown };
}

function walk(value: unknown, raw: Schema, path: string, resolve: Resolver, unknown: string[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  const s = deref(raw, resolve);
  if (Array.isArray(value))
    return isPlainObject(s.items)
      ? value.map((item, i) => walk(item, s.items, joinPath(path, i), resolve, unknown))
      : value;
  const properties = s.properties as Record<string, Schema> | undefined;
  const additional = s.additionalProperties as Schema | boolean | undefined;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  // A schema that says nothing about objects (no type, no fields) is no ground for dropping anything.
  if (s.type === undefined && !properties && additional === undefined) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const field = fieldOf(properties, key);
    if (field) {
      if (v === null && !deref(field, resolve).nullable) continue;
      setField(out, key, walk(v, field, joinPath(path, key), resolve, unknown));
    } else if (s['x-kubernetes-embedded-resource'] && EMBEDDED_KEEP.has(key)) {
      setField(out, key, v);
    } else if (isPlainObject(additional)) {
      setField(out, key, walk(v, additional, joinPath(path, key), resolve, unknown));
    } else if (additional === true || preserve) {
      setField(out, key, v);
    } else {
      unknown.push(joinPath(path, key));
    }
  }
  return out;
}
