/**
 * A small time-to-live cache for catalogue answers (zones, instance types, quota names). They change
 * rarely, and re-reading them on every form render or agent question would spend the account's API
 * budget for nothing. It stores the promise, so concurrent callers share one request, and forgets
 * failures at once, so an error is never served from the cache.
 */
export interface CatalogCache {
  /** The value under `key`, loading (and remembering) it with `load` when absent or stale. */
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Forgets every entry, or those whose key starts with `prefix`. */
  clear(prefix?: string): void;
}

/** Five minutes: long enough to absorb bursts of look-ups, short enough to notice a new offering soon. */
export const DEFAULT_CATALOG_TTL_MS = 5 * 60_000;

/**
 * In-memory CatalogCache with a fixed time to live.
 *
 * @example
 * const cache = new TtlCache({ ttlMs: 60_000 });
 * const zones = await cache.get('us-west-2:zones', () => describeZones());
 */
export class TtlCache implements CatalogCache {
  private readonly entries = new Map<string, { at: number; value: Promise<unknown> }>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor({ ttlMs = DEFAULT_CATALOG_TTL_MS, now = Date.now }: { ttlMs?: number; now?: () => number } = {}) {
    this.ttlMs = ttlMs;
    this.now = now;
  }

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value as Promise<T>;
    const value = load();
    const entry = { at: this.now(), value };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  clear(prefix?: string): void {
    if (prefix === undefined) this.entries.clear();
    else for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}

/** A cache that never remembers: every call asks AWS (for tests that count calls or need fresh answers). */
export const NO_CACHE: CatalogCache = {
  get: (_key, load) => load(),
  clear: () => undefined,
};
