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
  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The stored value, or `undefined` when the key was never set (or was deleted). */
  getSetting<T = unknown>(key: string): T | undefined {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.value) as T);
  }

  /** Stores `value` (any JSON-serialisable value); `undefined` deletes the key. */
  setSetting(key: string, value: unknown): void {
    if (value === undefined) {
      this.deleteSetting(key);
      return;
    }
    guardWrite(this.db.name, () =>
      this.db
        .prepare(
          `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        )
        .run(key, JSON.stringify(value), this.now().toISOString()),
    );
  }

  /** Removes the key; returns whether it existed. */
  deleteSetting(key: string): boolean {
    return guardWrite(this.db.name, () => this.db.prepare('DELETE FROM settings WHERE key = ?').run(key).changes > 0);
  }
}
