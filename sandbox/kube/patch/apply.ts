import { badRequest, KubeError } from '../errors.js';
import type { KubeObject, ResourceType } from '../types.js';
import { displayPath, fieldPaths, pathKey, removeAt, valueAt, type FieldPath } from './fieldset.js';
import { decodeEntries, encodeEntries, entryFor, pathMap, type Entry } from './managed-fields.js';
import { shapeOf } from './merge-keys.js';
import { strategicMerge, stripDirectives, type Json } from './strategic.js';

/**
 * Server-side apply. The applied configuration is the manager's whole intent: its Apply entry
 * becomes exactly the fields it sets; setting a field another manager owns with a different value
 * is a conflict unless forced (then ownership moves); fields the manager applied before and no
 * longer sets are removed unless someone else owns them.
 */
export interface ApplyOptions {
  manager: string;
  force: boolean;
  type: ResourceType;
  /** RFC 3339 time for the entry. */
  now: string;
  /** 'status' for an apply to the status subresource: only status is applied and owned. */
  subresource?: string;
}

/** The manager the API server names for fields of objects that had no managedFields before their first apply. */
const BEFORE_FIRST_APPLY = 'before-first-apply';
/** metadata the applied configuration cannot change (the server sets it). */
const SERVER_METADATA = [
  'uid',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'selfLink',
  'managedFields',
];

export function serverSideApply(
  current: KubeObject | undefined,
  applied: KubeObject,
  options: ApplyOptions,
): KubeObject {
  const managed = applied.metadata?.managedFields;
  if (Array.isArray(managed) ? managed.length > 0 : managed !== undefined && managed !== null)
    throw badRequest('metadata.managedFields must be nil');
  const shape = shapeOf(options.type);
  const intent = intentOf(applied, options);
  const wanted = pathMap(fieldPaths(intent, shape));

  const entries = decodeEntries(current?.metadata.managedFields);
  if (current && entries.length === 0) {
    entries.push({
      manager: BEFORE_FIRST_APPLY,
      operation: 'Update',
      apiVersion: current.apiVersion,
      paths: pathMap(fieldPaths(current, shape)),
    });
  }
  const mine = entryFor(entries, options.manager, 'Apply', intent.apiVersion, options.subresource);
  const others = entries.filter((e) => e !== mine);

  const conflicts = findConflicts(current, intent, wanted, others);
  if (conflicts.length > 0 && !options.force) throw conflictError(conflicts);
  for (const c of conflicts) c.entry.paths.delete(pathKey(c.path));

  const base = current
    ? structuredClone(current)
    : ({ apiVersion: intent.apiVersion, kind: intent.kind, metadata: {} } as KubeObject);
  delete base.metadata.managedFields;
  const merged = strategicMerge(
    base as unknown as Json,
    intent as unknown as Json,
    shape,
    'apply',
  ) as unknown as KubeObject;

  // What this manager applied before and no longer sets goes, unless someone else still owns it (or something inside
  // it).
  const kept = [...wanted.values(), ...others.flatMap((e) => [...e.paths.values()])];
  const dropped = [...mine.paths.values()].filter(
    (p) => !wanted.has(pathKey(p)) && !kept.some((k) => startsWith(k, p)) && !isKeyField(p),
  );
  // Outermost first: a list item must go while its key fields still name it.
  for (const p of dropped.sort((a, b) => a.length - b.length)) removeAt(merged, p);

  mine.paths = wanted;
  mine.apiVersion = intent.apiVersion;
  mine.time = options.now;
  const encoded = encodeEntries(entries, merged);
  if (encoded.length > 0) merged.metadata.managedFields = encoded;
  return merged;
}

/**
 * What the manager means to set: directives and server-set metadata left out. Through the status
 * subresource only status is applied; through the main resource, status only when the kind has no
 * status subresource (the API server ignores it otherwise).
 */
function intentOf(applied: KubeObject, options: ApplyOptions): KubeObject {
  const intent = stripDirectives(structuredClone(applied) as unknown as Json) as unknown as KubeObject;
  if (options.subresource === 'status') {
    return {
      apiVersion: intent.apiVersion,
      kind: intent.kind,
      metadata: {},
      ...(intent.status !== undefined ? { status: intent.status } : {}),
    };
  }
  intent.metadata ??= {};
  for (const k of SERVER_METADATA) delete intent.metadata[k];
  if (options.type.subresources?.status) delete intent.status;
  return intent;
}

/** A key field of a list item (`…k:{"name":"x"}/f:name`): it goes with its item, never alone. */
function isKeyField(path: FieldPath): boolean {
  const parent = path[path.length - 2];
  const last = path[path.length - 1]!;
  if (!parent?.startsWith('k:') || !last.startsWith('f:')) return false;
  try {
    return Object.hasOwn(JSON.parse(parent.slice(2)) as object, last.slice(2));
  } catch {
    return false;
  }
}

const startsWith = (path: FieldPath, prefix: FieldPath): boolean =>
  prefix.length <= path.length && prefix.every((s, i) => s === path[i]);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

interface Conflict {
  entry: Entry;
  path: FieldPath;
}

/** Fields the applier sets to a value other than the current one, owned by another manager. Item membership never conflicts. */
function findConflicts(
  current: KubeObject | undefined,
  intent: KubeObject,
  wanted: Map<string, FieldPath>,
  others: Entry[],
): Conflict[] {
  if (!current) return [];
  const out: Conflict[] = [];
  for (const [key, p] of wanted) {
    if (!p[p.length - 1]!.startsWith('f:') || same(valueAt(current, p), valueAt(intent, p))) continue;
    for (const entry of others) if (entry.paths.has(key)) out.push({ entry, path: p });
  }
  return out;
}

/** How the API server names a manager in a conflict. */
function managerName(e: Entry): string {
  const name = `${JSON.stringify(e.manager)}${e.subresource ? ` with subresource ${JSON.stringify(e.subresource)}` : ''}`;
  return e.operation === 'Update' ? `${name} using ${e.apiVersion}` : name;
}

function conflictError(conflicts: Conflict[]): KubeError {
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${managerName(c.entry)}`,
    field: displayPath(c.path),
  }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: ${causes[0]!.message}: ${causes[0]!.field}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts)
      byManager.set(managerName(c.entry), [...(byManager.get(managerName(c.entry)) ?? []), displayPath(c.path)]);
    const lines = [...byManager.keys()]
      .sort()
      .flatMap((m) => [`conflicts with ${m}:`, ...byManager.get(m)!.map((f) => `- ${f}`)]);
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new KubeError(409, 'Conflict', message, { causes });
}
