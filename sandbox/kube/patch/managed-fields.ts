import { badRequest } from '../errors.js';
import type { KubeObject, ManagedFieldsEntry, ResourceType } from '../types.js';
import { fromFieldsV1, pathKey, toFieldsV1, valueAt, walkFields, type FieldPath } from './fieldset.js';
import { shapeOf } from './merge-keys.js';

/**
 * metadata.managedFields: who owns which field. A manager owns the fields it applied (operation
 * Apply) or last changed (operation Update). Writes other than apply never conflict: the fields
 * they change simply move to their manager.
 */

/** A managedFields entry with its field set decoded. */
export interface Entry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  subresource?: string;
  paths: Map<string, FieldPath>;
}

export const pathMap = (paths: FieldPath[]): Map<string, FieldPath> => new Map(paths.map((p) => [pathKey(p), p]));

export function decodeEntries(list: ManagedFieldsEntry[] | undefined): Entry[] {
  return (list ?? []).map((e) => ({
    manager: e.manager,
    operation: e.operation,
    apiVersion: e.apiVersion,
    ...(e.time ? { time: e.time } : {}),
    ...(e.subresource ? { subresource: e.subresource } : {}),
    paths: pathMap(fromFieldsV1(e.fieldsV1)),
  }));
}

/** Encodes the entries for `obj`: paths whose field no longer exists are dropped, and so are entries left empty. */
export function encodeEntries(entries: Entry[], obj: KubeObject): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const e of entries) {
    const live = [...e.paths.values()].filter((p) => valueAt(obj, p) !== undefined);
    if (live.length === 0) continue;
    out.push({
      manager: e.manager,
      operation: e.operation,
      apiVersion: e.apiVersion,
      ...(e.time ? { time: e.time } : {}),
      fieldsType: 'FieldsV1',
      fieldsV1: toFieldsV1(live),
      ...(e.subresource ? { subresource: e.subresource } : {}),
    });
  }
  return out;
}

/** Finds (or adds, at the end) the entry of a manager for an operation and subresource. */
export function entryFor(
  entries: Entry[],
  manager: string,
  operation: Entry['operation'],
  apiVersion: string,
  subresource: string | undefined,
): Entry {
  const found = entries.find(
    (e) => e.manager === manager && e.operation === operation && e.subresource === subresource,
  );
  if (found) return found;
  const added: Entry = { manager, operation, apiVersion, ...(subresource ? { subresource } : {}), paths: new Map() };
  entries.push(added);
  return added;
}

/** Did the write change what `path` names? A list item changes only by appearing. */
export function changedAt(before: unknown, after: unknown, path: FieldPath): boolean {
  const last = path[path.length - 1]!;
  if (last.startsWith('k:') || last.startsWith('v:')) return valueAt(before, path) === undefined;
  return JSON.stringify(valueAt(before, path)) !== JSON.stringify(valueAt(after, path));
}

export interface UpdateOptions {
  manager: string;
  type: ResourceType;
  /** RFC 3339 time for the entry. */
  now: string;
  subresource?: string;
}

/**
 * Records a create, update or patch by `manager`: the fields it set or changed join its Update
 * entry and leave every other entry. A client may replace managedFields by sending different ones
 * (a list of one empty entry, `[{}]`, clears them); sending them back unchanged or empty keeps the
 * stored ones, as the API server does.
 */
export function recordUpdate(previous: KubeObject | undefined, next: KubeObject, options: UpdateOptions): KubeObject {
  const out = structuredClone(next);
  const sent = out.metadata.managedFields;
  const stored = previous?.metadata.managedFields;
  if (
    Array.isArray(sent) &&
    sent.length > 0 &&
    sent.every((e) => typeof e === 'object' && e !== null && Object.keys(e).length === 0)
  ) {
    delete out.metadata.managedFields;
    return out;
  }
  const replaced = Array.isArray(sent) && sent.length > 0 && JSON.stringify(sent) !== JSON.stringify(stored);
  if (replaced) checkEntries(sent);
  const entries = decodeEntries(replaced ? sent : stored);
  const { members, nodes } = walkFields(out, shapeOf(options.type));
  const changed = [
    ...members.filter((p) => changedAt(previous, out, p)),
    ...nodes.filter((p) => valueAt(previous, p) === undefined),
  ];
  if (changed.length > 0) {
    for (const e of entries) for (const p of changed) e.paths.delete(pathKey(p));
    const mine = entryFor(entries, options.manager, 'Update', out.apiVersion, options.subresource);
    mine.apiVersion = out.apiVersion;
    mine.time = options.now;
    for (const p of changed) mine.paths.set(pathKey(p), p);
  }
  const encoded = encodeEntries(entries, out);
  if (encoded.length > 0) out.metadata.managedFields = encoded;
  else delete out.metadata.managedFields;
  return out;
}

function checkEntries(list: unknown[]): asserts list is ManagedFieldsEntry[] {
  list.forEach((e, i) => {
    const entry = e as Partial<ManagedFieldsEntry>;
    const ok =
      typeof entry.manager === 'string' &&
      (entry.operation === 'Apply' || entry.operation === 'Update') &&
      (entry.fieldsV1 === undefined || (typeof entry.fieldsV1 === 'object' && entry.fieldsV1 !== null));
    if (!ok)
      throw badRequest(
        `metadata.managedFields[${i}]: each entry needs a manager, an operation (Apply or Update) and fieldsV1`,
      );
  });
}
