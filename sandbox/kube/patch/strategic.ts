import { badRequest } from '../errors.js';
import { childShape, identity, itemShape, listStrategy, type Mode, type Shape } from './merge-keys.js';

/**
 * Kubernetes strategic merge, shared by strategic merge patch (`mode` 'patch') and server-side
 * apply ('apply'): maps merge field by field (null deletes), keyed lists merge item by item, sets
 * of primitives are unioned, other lists are replaced. In 'patch' mode the directives are honoured:
 * `$patch: replace|delete|merge` on maps and list items, `$retainKeys`,
 * `$deleteFromPrimitiveList/<field>` and `$setElementOrder/<field>`. In 'apply' mode atomic
 * objects (label selectors) are replaced instead of merged, and lists are matched by the
 * server-side apply keys.
 */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

const DELETE_FROM = '$deleteFromPrimitiveList/';
const ELEMENT_ORDER = '$setElementOrder/';

/** Merges `patch` into `original`; undefined = the patch deletes the value (`$patch: delete`). Never mutates its inputs. */
export function strategicMerge(
  original: Json | undefined,
  patch: Json,
  shape: Shape | undefined,
  mode: Mode,
): Json | undefined {
  if (!isObject(patch)) return structuredClone(patch);
  if (mode === 'apply' && shape?.atomic) return structuredClone(patch);
  const directive = mode === 'patch' ? patch.$patch : undefined;
  if (directive === 'delete') return undefined;
  if (directive === 'replace') return mergeInto({}, withoutKeys(patch, ['$patch']), shape, mode);
  if (directive !== undefined && directive !== 'merge')
    throw badRequest(`strategic merge patch: unknown $patch directive ${JSON.stringify(directive)}`);
  return mergeInto(isObject(original) ? { ...original } : {}, patch, shape, mode);
}

function mergeInto(base: JsonObject, patch: JsonObject, shape: Shape | undefined, mode: Mode): JsonObject {
  const orders: Array<[string, Json[]]> = [];
  let retain: Set<string> | undefined;
  for (const [key, value] of Object.entries(patch)) {
    if (mode === 'patch' && key === '$patch') continue;
    if (mode === 'patch' && key === '$retainKeys') {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
        throw badRequest('strategic merge patch: $retainKeys must be a list of field names');
      retain = new Set(value as string[]);
      continue;
    }
    if (mode === 'patch' && key.startsWith(DELETE_FROM)) {
      const field = key.slice(DELETE_FROM.length);
      if (!Array.isArray(value)) throw badRequest(`strategic merge patch: ${key} must be a list`);
      const drop = new Set(value.map((v) => JSON.stringify(v)));
      const current = base[field];
      if (Array.isArray(current)) base[field] = current.filter((v) => !drop.has(JSON.stringify(v)));
      continue;
    }
    if (mode === 'patch' && key.startsWith(ELEMENT_ORDER)) {
      if (!Array.isArray(value)) throw badRequest(`strategic merge patch: ${key} must be a list`);
      orders.push([key.slice(ELEMENT_ORDER.length), value]);
      continue;
    }
    const child = childShape(shape, key);
    let merged: Json | undefined;
    if (value === null) merged = undefined;
    else if (Array.isArray(value))
      merged = mergeList(key, Array.isArray(base[key]) ? (base[key] as Json[]) : [], value, child, mode);
    else merged = strategicMerge(base[key], value, child, mode);
    if (merged === undefined) delete base[key];
    else base[key] = merged;
  }
  for (const [field, order] of orders) {
    const current = base[field];
    if (Array.isArray(current)) base[field] = reorder(current, order, childShape(shape, field));
  }
  if (retain) for (const k of Object.keys(base)) if (!retain.has(k)) delete base[k];
  return base;
}

function mergeList(field: string, original: Json[], patch: Json[], shape: Shape | undefined, mode: Mode): Json[] {
  const strategy = listStrategy(shape, mode);
  if (strategy.kind === 'atomic')
    return patch
      .filter((p) => !isDirectiveOnly(p, mode))
      .map((p) => strategicMerge(undefined, p, itemShape(shape), mode) ?? null);
  if (strategy.kind === 'set') {
    const seen = new Set(original.map((v) => JSON.stringify(v)));
    const out = [...original];
    for (const v of patch) if (!seen.has(JSON.stringify(v))) seen.add(JSON.stringify(v)), out.push(v);
    return out;
  }
  const item = itemShape(shape);
  if (mode === 'patch' && patch.some((p) => isObject(p) && p.$patch === 'replace' && Object.keys(p).length === 1)) {
    return patch.filter((p) => !isDirectiveOnly(p, mode)).map((p) => strategicMerge(undefined, p, item, mode) ?? null);
  }
  const out = [...original];
  for (const p of patch) {
    const id = identity(p, strategy);
    if (id === undefined) {
      throw badRequest(
        `${mode === 'patch' ? 'strategic merge patch' : 'apply'}: an item of "${field}" does not contain the merge key ${strategy.keys.join(', ')}: ${JSON.stringify(p)}`,
      );
    }
    const at = out.findIndex((o) => identity(o, strategy) === id);
    const merged = strategicMerge(at >= 0 ? out[at] : undefined, p, item, mode);
    if (merged === undefined) {
      if (at >= 0) out.splice(at, 1);
    } else if (at >= 0) out[at] = merged;
    else out.push(merged);
  }
  return out;
}

/** A list item that is only a directive (`{"$patch": "replace"}`), not a value. */
const isDirectiveOnly = (p: Json, mode: Mode): boolean =>
  mode === 'patch' && isObject(p) && Object.keys(p).length === 1 && '$patch' in p;

/** `$setElementOrder`: items named in `order` come in that order; the others keep their relative order after them. */
function reorder(items: Json[], order: Json[], shape: Shape | undefined): Json[] {
  const strategy = listStrategy(shape, 'patch');
  const rank = new Map(order.map((o, i) => [identity(o, strategy), i]));
  return items
    .map((item, i) => ({ item, i, r: rank.get(identity(item, strategy)) ?? order.length }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.item);
}

const withoutKeys = (obj: JsonObject, keys: string[]): JsonObject =>
  Object.fromEntries(Object.entries(obj).filter(([k]) => !keys.includes(k)));

/** Removes every `$…` directive key (apply configurations and new list items must not keep them). */
export function stripDirectives(value: Json): Json {
  if (Array.isArray(value)) return value.map(stripDirectives);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !k.startsWith('$'))
      .map(([k, v]) => [k, stripDirectives(v)]),
  );
}
