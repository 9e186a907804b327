/**
 * A short-lived, shared cache of cloud reads with single-flight: while a read of a key is under way,
 * every other caller of that key waits for the same read instead of starting its own, and its answer
 * then serves every caller for `ttlMs`. A failed read is never kept (the next caller reads again).
 *
 * Invalidation is for our own changes: `invalidate` drops what is kept and also disowns a read still
 * under way (it may have started before the change), so a caller that comes after the invalidation
 * always starts a read of its own — never stale after the user's own action. Callers already waiting
 * on the disowned read get its answer: they asked before the change.
 *
 * @example
 * const clusters = new ReadCache<HyperPodClusterSummary[]>({ ttlMs: 3_000 });
 * const list = await clusters.get(region, () => cloud.hyperpod.list(region));
 * engine.on('operation', (op) => clusters.invalidate(op.region));
 */
export interface ReadCacheOptions {
  /** How long an answer serves later callers, from the moment it arrived. */
  ttlMs: number;
  /** Entries kept at most; past it the expired go first, then the oldest. */
  maxEntries?: number;
  now?: () => number;
}

interface Entry<V> {
  /** The read, shared by every caller while under way; kept after it succeeded until `expiresAt`. */
  read: Promise<V>;
  /** Infinity while the read is under way. */
  expiresAt: number;
}

export class ReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor({ ttlMs, maxEntries = 1_000, now = Date.now }: ReadCacheOptions) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.now = now;
  }

  /** The kept answer of `key` while it is fresh, the read under way, or a new read by `read`. */
  get(key: string, read: () => Promise<V>): Promise<V> {
    const found = this.entries.get(key);
    if (found && found.expiresAt > this.now()) return found.read;
    const entry: Entry<V> = { read: Promise.resolve().then(read), expiresAt: Infinity };
    this.entries.set(key, entry);
    this.trim();
    entry.read.then(
      () => {
        // Only the read still owning its key is kept: an invalidated one served its callers and goes.
        if (this.entries.get(key) === entry) entry.expiresAt = this.now() + this.ttlMs;
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.read;
  }

  /** Forgets one key, every key a predicate picks, or (without an argument) everything. */
  invalidate(which?: string | ((key: string) => boolean)): void {
    if (which === undefined) return this.entries.clear();
    if (typeof which === 'string') return void this.entries.delete(which);
    for (const key of [...this.entries.keys()]) if (which(key)) this.entries.delete(key);
  }

  /** How many keys are kept or being read (for tests of the bound). */
  get size(): number {
    return this.entries.size;
  }

  private trim(): void {
    if (this.entries.size <= this.maxEntries) return;
    const now = this.now();
    for (const [key, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(key);
    // Map order is insertion order: the oldest first. A read under way that is dropped still answers its callers.
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(key);
    }
  }
}
