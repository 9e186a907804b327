import type { Database } from './database.js';
import { guardWrite } from './store-failures.js';

/**
 * Small server settings as key → JSON value, e.g. the active cluster. Resources themselves never
 * live here: the cloud is their source of truth. Writes the store cannot make throw StoreUnavailableError.
 *
 * @example
 * const settings = new SettingsStore(db);
 * settings.setSetting('activeCluster', { name: 'demo', region: 'us-west-2' });
 * settings.getSetting<{ name: string; region: string }>('activeCluster'); // → { name: 'demo', … }
 */
export class SettingsStore {
  private readonly sql: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.sql = prepare(db);
  }

  /** The stored value, or `undefined` when the key was never set (or was deleted). */
  getSetting<T = unknown>(key: string): T | undefined {
    const row = this.sql.get.get(key) as { value: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.value) as T);
  }

  /** Stores `value` (any JSON-serialisable value); `undefined` deletes the key. */
  setSetting(key: string, value: unknown): void {
    if (value === undefined) {
      this.deleteSetting(key);
      return;
    }
    guardWrite(this.db.name, () => this.sql.set.run(key, JSON.stringify(value), this.now().toISOString()));
  }

  /** Removes the key; returns whether it existed. */
  deleteSetting(key: string): boolean {
    return guardWrite(this.db.name, () => this.sql.delete.run(key).changes > 0);
  }
}

/** The settings statements, prepared once per store. */
function prepare(db: Database) {
  return {
    get: db.prepare('SELECT value FROM settings WHERE key = ?'),
    set: db.prepare(
      `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    ),
    delete: db.prepare('DELETE FROM settings WHERE key = ?'),
  };
}
