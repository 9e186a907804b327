import { childShape, itemKey, KEY_DEFAULTS, itemShape, listStrategy, type Shape } from './merge-keys.js';

/**
 * Field sets, as managedFields records them (`FieldsV1`): a path is a list of segments —
 * `f:<field>` for an object's field, `k:{"name":"web"}` for a keyed list's item, `v:<json>` for a
 * set's member, `i:<index>` for a position (read, never written: the sandbox's lists are keyed,
 * sets or atomic). A set holds the paths it owns: leaves, plus every list item it names (in the
 * JSON form an owned node with children carries `".": {}`).
 */
export type FieldPath = string[];
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** metadata fields the server owns: never part of anyone's field set. */
const SYSTEM_METADATA = new Set([
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'selfLink',
  'generateName',
]);

export const pathKey = (p: FieldPath): string => JSON.stringify(p);

/**
 * The paths an object sets, following its kind's merge structure (apiVersion, kind and system
 * metadata left out): `members` are its leaves and list items; `nodes` the metadata maps and lists
 * (labels, annotations, finalizers, ownerReferences), which an update that creates them owns too,
 * as the API server records (`f:labels: {".": {}, "f:app": {}}`). The server does the same for
 * other optional maps and lists it knows from the Go types; the sandbox keeps to metadata.
 */
export function walkFields(obj: Obj, shape: Shape): { members: FieldPath[]; nodes: FieldPath[] } {
  const acc = { members: [] as FieldPath[], nodes: [] as FieldPath[] };
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'apiVersion' || k === 'kind') continue;
    if (k === 'metadata' && isObj(v)) {
      const meta = childShape(shape, 'metadata');
      for (const [mk, mv] of Object.entries(v)) {
        // Empty labels/annotations are no field at all (the API server never serializes an empty map).
        if (SYSTEM_METADATA.has(mk) || (isObj(mv) && Object.keys(mv).length === 0)) continue;
        walk(mv, ['f:metadata', `f:${mk}`], childShape(meta, mk), acc);
      }
      continue;
    }
    walk(v, [`f:${k}`], childShape(shape, k), acc);
  }
  return acc;
}

export const fieldPaths = (obj: Obj, shape: Shape): FieldPath[] => walkFields(obj, shape).members;

function walk(
  value: unknown,
  path: FieldPath,
  shape: Shape | undefined,
  acc: { members: FieldPath[]; nodes: FieldPath[] },
): void {
  const node = () => path[path.length - 2] === 'f:metadata' && acc.nodes.push(path);
  if (isObj(value) && Object.keys(value).length > 0 && !shape?.atomic) {
    node();
    for (const [k, v] of Object.entries(value)) walk(v, [...path, `f:${k}`], childShape(shape, k), acc);
    return;
  }
  if (Array.isArray(value) && value.length > 0) {
    const strategy = listStrategy(shape, 'apply');
    if (strategy.kind === 'set') {
      node();
      for (const item of value) acc.members.push([...path, `v:${JSON.stringify(item)}`]);
      return;
    }
    if (strategy.kind === 'keyed') {
      const keys = value.map((item) => itemKey(item, strategy));
      // An item without its key cannot be named: the list is then owned as a whole.
      if (keys.every((k) => k !== undefined)) {
        node();
        value.forEach((item, i) => {
          const itemPath = [...path, `k:${JSON.stringify(keys[i])}`];
          acc.members.push(itemPath);
          for (const [k, v] of Object.entries(item as Obj))
            walk(v, [...itemPath, `f:${k}`], childShape(itemShape(shape), k), acc);
        });
        return;
      }
    }
  }
  acc.members.push(path);
}

/** The `FieldsV1` JSON of a set of paths. */
export function toFieldsV1(paths: Iterable<FieldPath>): Obj {
  const root: Obj = {};
  const owned = new Set<Obj>();
  for (const p of paths) {
    let node = root;
    for (const seg of p) node = (node[seg] ??= {}) as Obj;
    owned.add(node);
  }
  return withDots(root, owned);
}

/** A node that is owned itself and also has owned children says so with a leading ".". */
function withDots(node: Obj, owned: Set<Obj>): Obj {
  const children = Object.entries(node).map(([k, v]) => [k, withDots(v as Obj, owned)] as const);
  return Object.fromEntries(owned.has(node) && children.length > 0 ? [['.', {}], ...children] : children);
}

/** The paths of a `FieldsV1` JSON. */
export function fromFieldsV1(fields: unknown, prefix: FieldPath = []): FieldPath[] {
  if (!isObj(fields)) return [];
  const out: FieldPath[] = [];
  for (const [seg, child] of Object.entries(fields)) {
    if (seg === '.') {
      if (prefix.length > 0) out.push(prefix);
      continue;
    }
    const p = [...prefix, seg];
    if (isObj(child) && Object.keys(child).length > 0) out.push(...fromFieldsV1(child, p));
    else out.push(p);
  }
  return out;
}

/** The value at a path (undefined when absent). */
export function valueAt(obj: unknown, path: FieldPath): unknown {
  let node: unknown = obj;
  for (const seg of path) {
    if (node === undefined) return undefined;
    node = step(node, seg);
  }
  return node;
}

function step(node: unknown, seg: string): unknown {
  if (seg.startsWith('f:')) return isObj(node) ? node[seg.slice(2)] : undefined;
  if (!Array.isArray(node)) return undefined;
  if (seg.startsWith('k:')) {
    const key = parseSegment(seg);
    return isObj(key)
      ? node.find(
          (i) =>
            isObj(i) &&
            Object.entries(key).every(([k, v]) => JSON.stringify(i[k] ?? KEY_DEFAULTS[k]) === JSON.stringify(v)),
        )
      : undefined;
  }
  if (seg.startsWith('v:')) return node.find((i) => JSON.stringify(i) === JSON.stringify(parseSegment(seg)));
  if (seg.startsWith('i:')) return node[Number(seg.slice(2))];
  return undefined;
}

function parseSegment(seg: string): unknown {
  try {
    return JSON.parse(seg.slice(2));
  } catch {
    return undefined;
  }
}

/** Removes the value at a path, then the objects and lists that removal left empty (never a top-level field). */
export function removeAt(obj: Obj, path: FieldPath): void {
  const parents: unknown[] = [obj];
  for (const seg of path.slice(0, -1)) parents.push(step(parents[parents.length - 1], seg));
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const parent = parents[depth];
    const seg = path[depth]!;
    if (seg.startsWith('f:') && isObj(parent)) delete parent[seg.slice(2)];
    else if (Array.isArray(parent)) {
      const at = parent.indexOf(step(parent, seg));
      if (at >= 0) parent.splice(at, 1);
    }
    const emptied = isObj(parent) ? Object.keys(parent).length === 0 : Array.isArray(parent) && parent.length === 0;
    if (!emptied || depth <= 1) return;
  }
}

/** A path as the API prints it in conflicts: `.spec.replicas`, `.spec.template.spec.containers[name="web"].image`. */
export function displayPath(path: FieldPath): string {
  return path
    .map((s) => {
      if (s.startsWith('f:')) return `.${s.slice(2)}`;
      if (s.startsWith('i:')) return `[${s.slice(2)}]`;
      const parsed = parseSegment(s);
      if (s.startsWith('k:') && isObj(parsed))
        return `[${Object.entries(parsed)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(',')}]`;
      return `[=${s.slice(2)}]`;
    })
    .join('');
}
