import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { cloneJson } from '../core/clone-json.js';
import { alreadyExists, conflict, gone, notFound } from './errors.js';
import { apiVersionOf, type KubeObject, type ResourceType, type WatchEvent } from './types.js';

/**
 * One cluster's objects: the etcd of a sandbox EKS cluster. Objects live in the sandbox state
 * (so a restart keeps them); each change gets the next resourceVersion and is kept in a bounded
 * in-memory history that watches replay from. A watch from a version older than that history
 * gets 410 Gone, as from a compacted etcd.
 *
 * This layer stores and versions; it does not validate, authorise or run finalizers — the API
 * layer and the controllers do.
 */
export interface ClusterKubeState {
  resourceVersion: number;
  objects: Record<string, KubeObject>;
}

export const emptyClusterKubeState = (): ClusterKubeState => ({ resourceVersion: 0, objects: {} });

interface Change {
  rv: number;
  typeKey: string;
  namespace: string | undefined;
  event: WatchEvent;
}

export interface WatchFilter {
  type: ResourceType;
  /** Only this namespace; all when undefined. */
  namespace?: string;
}

type Listener = (event: WatchEvent) => void;

const typeKeyOf = (t: ResourceType) => `${t.group}/${t.resource}`;
type TypeIndex = Map<string, { keys: Set<string>; sorted?: string[] }>;
const INDEXES = new WeakMap<ClusterKubeState, TypeIndex>();
const HISTORY = 5000;

export class ClusterObjects {
  private readonly history: Change[] = [];
  private readonly listeners = new Set<{ typeKey: string; namespace?: string; listener: Listener }>();
  /** The oldest resourceVersion a watch may resume from (history before it is gone). */
  private oldestWatchable: number;
  /**
   * The keys of each type, with their sorted order cached until a key comes or goes: a list of one
   * type must not scan (and sort) every object of the cluster, which at thousands of nodes (and
   * their DaemonSet pods) is what made every controller tick slow.
   */
  private readonly keysByType: TypeIndex;

  constructor(
    private readonly data: ClusterKubeState,
    private readonly hooks: { now(): number; changed(): void },
  ) {
    this.oldestWatchable = data.resourceVersion;
    // One index per stored state, shared by every view of it (a test may open a second view).
    const shared = INDEXES.get(data);
    this.keysByType = shared ?? new Map();
    if (!shared) {
      INDEXES.set(data, this.keysByType);
      for (const key of Object.keys(data.objects)) this.indexKey(key);
    }
  }

  /** `<group>/<resource>` of an object key (group may be empty, neither contains a slash). */
  private static typeKeyOfKey(key: string): string {
    const second = key.indexOf('/', key.indexOf('/') + 1);
    return key.slice(0, second);
  }

  private indexKey(key: string): void {
    const typeKey = ClusterObjects.typeKeyOfKey(key);
    let entry = this.keysByType.get(typeKey);
    if (!entry) this.keysByType.set(typeKey, (entry = { keys: new Set() }));
    entry.keys.add(key);
    delete entry.sorted;
  }

  private unindexKey(key: string): void {
    const entry = this.keysByType.get(ClusterObjects.typeKeyOfKey(key));
    if (!entry) return;
    entry.keys.delete(key);
    delete entry.sorted;
  }

  static key(t: ResourceType, namespace: string | undefined, name: string): string {
    return `${typeKeyOf(t)}/${t.namespaced ? (namespace ?? '') : ''}/${name}`;
  }

  get resourceVersion(): string {
    return String(this.data.resourceVersion);
  }

  get(t: ResourceType, namespace: string | undefined, name: string): KubeObject | undefined {
    const found = this.data.objects[ClusterObjects.key(t, namespace, name)];
    return found ? cloneJson(found) : undefined;
  }

  /** Every object of a type (in one namespace, or all), ordered by namespace then name. */
  list(t: ResourceType, namespace?: string): KubeObject[] {
    const typeKey = typeKeyOf(t);
    const entry = this.keysByType.get(typeKey);
    if (!entry) return [];
    const sorted = (entry.sorted ??= [...entry.keys].sort());
    const prefix = t.namespaced && namespace !== undefined ? `${typeKey}/${namespace}/` : undefined;
    return (prefix ? sorted.filter((k) => k.startsWith(prefix)) : sorted).map((k) => cloneJson(this.data.objects[k]!));
  }

  /** Visits the stored objects of a type (one namespace, or all), in key order, without copying; `visit` must not change them. */
  scan(t: ResourceType, namespace: string | undefined, visit: (o: Readonly<KubeObject>) => void): void {
    this.select(t, namespace, (o) => (visit(o), false));
  }

  /**
   * The objects of a type (one namespace, or all) that `match` accepts, in key order. `match` sees
   * the stored object and must not change it; only the first `limit` matches (all without a limit)
   * are copied, and `total` counts every match — so a paged list of 30,000 pods copies one page.
   */
  select(
    t: ResourceType,
    namespace: string | undefined,
    match: (o: Readonly<KubeObject>) => boolean,
    limit?: number,
  ): { items: KubeObject[]; total: number } {
    const typeKey = typeKeyOf(t);
    const entry = this.keysByType.get(typeKey);
    if (!entry) return { items: [], total: 0 };
    const sorted = (entry.sorted ??= [...entry.keys].sort());
    const prefix = t.namespaced && namespace !== undefined ? `${typeKey}/${namespace}/` : undefined;
    const items: KubeObject[] = [];
    let total = 0;
    for (const k of sorted) {
      if (prefix && !k.startsWith(prefix)) continue;
      const o = this.data.objects[k]!;
      if (!match(o)) continue;
      total++;
      if (limit === undefined || items.length < limit) items.push(cloneJson(o));
    }
    return { items, total };
  }

  /** Stores a new object: uid, resourceVersion, generation 1, creationTimestamp; `generateName` honoured. */
  create(t: ResourceType, input: KubeObject): KubeObject {
    const obj = cloneJson(input);
    obj.apiVersion = apiVersionOf(t);
    obj.kind = t.kind;
    const meta = obj.metadata;
    if (!meta.name && meta.generateName) meta.name = this.generatedName(t, meta.namespace, meta.generateName);
    const key = ClusterObjects.key(t, meta.namespace, meta.name!);
    if (this.data.objects[key]) throw alreadyExists(t, meta.name!);
    if (!t.namespaced) delete meta.namespace;
    meta.uid = randomUUID();
    meta.generation = 1;
    meta.creationTimestamp = new Date(this.hooks.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    delete meta.deletionTimestamp;
    return this.commit(t, key, obj, 'ADDED');
  }

  /**
   * Replaces a stored object. `metadata.resourceVersion`, when given, must match (optimistic
   * concurrency → 409 Conflict). uid and creationTimestamp are kept; generation moves when anything
   * outside metadata and status changes.
   */
  update(t: ResourceType, input: KubeObject): KubeObject {
    const meta = input.metadata;
    const key = ClusterObjects.key(t, meta.namespace, meta.name!);
    const current = this.data.objects[key];
    if (!current) throw notFound(t, meta.name!);
    if (meta.resourceVersion && meta.resourceVersion !== current.metadata.resourceVersion)
      throw conflict(t, meta.name!);
    const obj = cloneJson(input);
    obj.apiVersion = apiVersionOf(t);
    obj.kind = t.kind;
    obj.metadata.uid = current.metadata.uid;
    obj.metadata.creationTimestamp = current.metadata.creationTimestamp;
    if (current.metadata.deletionTimestamp) obj.metadata.deletionTimestamp = current.metadata.deletionTimestamp;
    if (!t.namespaced) delete obj.metadata.namespace;
    obj.metadata.generation = (current.metadata.generation ?? 1) + (specChanged(current, obj) ? 1 : 0);
    if (isDeepStrictEqual(withoutVersion(current), withoutVersion(obj))) return cloneJson(current);
    return this.commit(t, key, obj, 'MODIFIED');
  }

  /** Removes an object for good (finalizers are the caller's business) and tells watchers. */
  remove(t: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const key = ClusterObjects.key(t, namespace, name);
    const current = this.data.objects[key];
    if (!current) throw notFound(t, name);
    delete this.data.objects[key];
    this.unindexKey(key);
    const gone = cloneJson(current);
    gone.metadata.resourceVersion = String(++this.data.resourceVersion);
    this.record(t, gone, 'DELETED');
    this.hooks.changed();
    return gone;
  }

  /**
   * Streams changes after `fromResourceVersion` (replayed from history, then live). With no
   * version, the caller lists first and passes the list's version. Too old → 410 Gone.
   */
  watch(filter: WatchFilter, fromResourceVersion: number, listener: Listener): () => void {
    if (fromResourceVersion < this.oldestWatchable) {
      throw gone(`too old resource version: ${fromResourceVersion} (${this.oldestWatchable})`);
    }
    const typeKey = typeKeyOf(filter.type);
    for (const c of this.history) {
      if (
        c.rv > fromResourceVersion &&
        c.typeKey === typeKey &&
        (filter.namespace === undefined || c.namespace === filter.namespace)
      ) {
        listener(cloneJson(c.event));
      }
    }
    const entry = { typeKey, ...(filter.namespace !== undefined ? { namespace: filter.namespace } : {}), listener };
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  /**
   * Compacts the history as etcd does on a busy cluster: every version up to now is gone, so a
   * watch or a continue token from before this moment gets 410 Expired. The store's revision moves
   * on (as some other write would have moved it), so a list taken after the compaction pages fine.
   */
  compact(): void {
    this.data.resourceVersion++;
    this.history.length = 0;
    this.oldestWatchable = this.data.resourceVersion;
    this.hooks.changed();
  }

  /**
   * Every stored object of every type (for garbage collection and the inventory). With
   * `copy: false` the stored objects themselves, for a reader that changes nothing (a change goes
   * through update, which copies).
   */
  all(options: { copy?: boolean } = {}): KubeObject[] {
    const stored = Object.values(this.data.objects);
    return options.copy === false ? stored : stored.map((o) => cloneJson(o));
  }

  private commit(t: ResourceType, key: string, obj: KubeObject, type: 'ADDED' | 'MODIFIED'): KubeObject {
    obj.metadata.resourceVersion = String(++this.data.resourceVersion);
    if (!this.data.objects[key]) this.indexKey(key);
    this.data.objects[key] = obj;
    this.record(t, obj, type);
    this.hooks.changed();
    return cloneJson(obj);
  }

  private record(t: ResourceType, obj: KubeObject, type: WatchEvent['type']): void {
    const change: Change = {
      rv: Number(obj.metadata.resourceVersion),
      typeKey: typeKeyOf(t),
      namespace: obj.metadata.namespace,
      event: { type, object: cloneJson(obj) },
    };
    this.history.push(change);
    if (this.history.length > HISTORY) this.oldestWatchable = this.history.shift()!.rv;
    for (const l of this.listeners) {
      if (l.typeKey === change.typeKey && (l.namespace === undefined || l.namespace === change.namespace))
        l.listener(cloneJson(change.event));
    }
  }

  private generatedName(t: ResourceType, namespace: string | undefined, prefix: string): string {
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    for (;;) {
      let suffix = '';
      for (let i = 0; i < 5; i++) suffix += alphabet[Math.floor(Math.random() * alphabet.length)];
      const name = `${prefix}${suffix}`;
      if (!this.data.objects[ClusterObjects.key(t, namespace, name)]) return name;
    }
  }
}

function specChanged(a: KubeObject, b: KubeObject): boolean {
  const strip = ({ metadata: _m, status: _s, ...rest }: KubeObject) => rest;
  return !isDeepStrictEqual(strip(a), strip(b));
}

function withoutVersion(o: KubeObject): unknown {
  const { resourceVersion: _rv, managedFields: _mf, ...meta } = o.metadata;
  return { ...o, metadata: meta };
}
