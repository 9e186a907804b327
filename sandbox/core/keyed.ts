/**
 * Keyed sections of the sandbox's JSON state: plain JSON objects used as maps from a caller's name
 * or id to a record — clusters by name, roles by lower-cased name, buckets, objects by key, VPCs by
 * id, tags by key.
 *
 * Those names come from callers, and `constructor`, `toString` or `__proto__` are valid names of
 * many AWS resources. Indexed directly, `section[name]` finds Object.prototype's members (a cluster
 * named `constructor` "exists" and is a function) and `section['__proto__'] = record` replaces the
 * section's prototype instead of storing the record. So the type is opaque — it has no index
 * signature, and the compiler refuses `section[name]` — and every access goes through `keyed`, which
 * sees only own properties and defines them (`__proto__` too) as plain data. JSON.stringify writes
 * such keys and JSON.parse reads `"__proto__"` back as an own property, so the state file round-trips.
 *
 * @example
 * const clusters: Keyed<StoredCluster> = {};
 * keyed.set(clusters, 'constructor', cluster);
 * keyed.get(clusters, 'toString'); // undefined
 */
declare const keyedBrand: unique symbol;

/** A JSON object used as a map; read and write it only through {@link keyed}. */
export interface Keyed<T> {
  readonly [keyedBrand]?: T;
}

type Plain<T> = Record<string, T>;
const plain = <T>(section: Keyed<T>): Plain<T> => section as Plain<T>;

function get<T>(section: Keyed<T> | undefined, key: string): T | undefined {
  return section !== undefined && Object.hasOwn(section, key) ? plain(section)[key] : undefined;
}

function has(section: Keyed<unknown> | undefined, key: string): boolean {
  return section !== undefined && Object.hasOwn(section, key);
}

/** Stores `value` under `key` as an own data property (never through a setter such as `__proto__`). */
function set<T>(section: Keyed<T>, key: string, value: T): T {
  Object.defineProperty(section, key, { value, writable: true, enumerable: true, configurable: true });
  return value;
}

/** True when there was something to remove. */
function remove(section: Keyed<unknown> | undefined, key: string): boolean {
  if (!has(section, key)) return false;
  return delete plain(section!)[key];
}

/** The record under `key`, made (and stored) by `make` when there is none. */
function ensure<T>(section: Keyed<T>, key: string, make: () => T): T {
  return has(section, key) ? plain(section)[key]! : set(section, key, make());
}

const keys = (section: Keyed<unknown> | undefined): string[] => (section ? Object.keys(section) : []);
const values = <T>(section: Keyed<T> | undefined): T[] => (section ? Object.values(plain(section)) : []);
const entries = <T>(section: Keyed<T> | undefined): Array<[string, T]> =>
  section ? Object.entries(plain(section)) : [];
const size = (section: Keyed<unknown> | undefined): number => keys(section).length;

/** A new section from pairs (Object.fromEntries defines own properties, `__proto__` included). */
const from = <T>(pairs: Iterable<readonly [string, T]>): Keyed<T> => Object.fromEntries(pairs) as Keyed<T>;

/** A plain-object copy for rendering a response (JSON output, spreading into another object). */
const toRecord = <T>(section: Keyed<T> | undefined): Record<string, T> => Object.fromEntries(entries(section));

export const keyed = { get, has, set, delete: remove, ensure, keys, values, entries, size, from, toRecord };
