import type { KeptStorageRecord } from '../domain/schemas/storage.js';
import type { Database } from './database.js';
import { guardWrite } from './store-failures.js';

/**
 * Storages removed "keeping the data": what the storage list shows as kept, not mounted, and what a
 * cluster's delete keeps, until the user forgets one. Keyed by Region, cluster, namespace and name in
 * SQL (never a user's name as an object key). The data itself carries the same fact as a tag when
 * InstantStart made it (docs/STORAGE.md → Kept storage), so a delete run elsewhere keeps it too.
 */
export class KeptStorageStore {
  private readonly sql: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.sql = prepare(db);
  }

  list(region: string, cluster: string): KeptStorageRecord[] {
    return (this.sql.list.all(region, cluster) as Row[]).map(recordOf);
  }

  get(region: string, cluster: string, namespace: string, name: string): KeptStorageRecord | undefined {
    const row = this.sql.get.get(region, cluster, namespace, name) as Row | undefined;
    return row ? recordOf(row) : undefined;
  }

  /** Records (or re-records) a kept storage; its first kept time stays. */
  put(r: Omit<KeptStorageRecord, 'keptAt'>): void {
    guardWrite(this.db.name, () =>
      this.sql.put.run(
        r.region,
        r.cluster,
        r.namespace,
        r.name,
        JSON.stringify(r.data),
        r.ours ? 1 : 0,
        this.now().toISOString(),
      ),
    );
  }

  forget(region: string, cluster: string, namespace: string, name: string): boolean {
    return guardWrite(this.db.name, () => this.sql.forget.run(region, cluster, namespace, name).changes > 0);
  }
}

interface Row {
  region: string;
  cluster: string;
  namespace: string;
  name: string;
  data: string;
  ours: number;
  kept_at: string;
}

const recordOf = (r: Row): KeptStorageRecord => ({
  region: r.region,
  cluster: r.cluster,
  namespace: r.namespace,
  name: r.name,
  data: JSON.parse(r.data) as KeptStorageRecord['data'],
  ours: r.ours === 1,
  keptAt: r.kept_at,
});

function prepare(db: Database) {
  return {
    list: db.prepare('SELECT * FROM kept_storages WHERE region = ? AND cluster = ? ORDER BY namespace, name'),
    get: db.prepare('SELECT * FROM kept_storages WHERE region = ? AND cluster = ? AND namespace = ? AND name = ?'),
    put: db.prepare(
      `INSERT INTO kept_storages (region, cluster, namespace, name, data, ours, kept_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (region, cluster, namespace, name) DO UPDATE SET data = excluded.data, ours = excluded.ours`,
    ),
    forget: db.prepare('DELETE FROM kept_storages WHERE region = ? AND cluster = ? AND namespace = ? AND name = ?'),
  };
}
