import { openDatabase, openMemoryDatabase, type Database } from './database.js';
import { AuditStore } from './audit-store.js';
import { IdempotencyStore } from './idempotency-store.js';
import { KeptStorageStore } from './kept-storage-store.js';
import { OperationsStore } from './operations-store.js';
import { SettingsStore } from './settings-store.js';
import { TrainingStore } from './training-store.js';

export * from './database.js';
export * from './audit-store.js';
export * from './idempotency-store.js';
export * from './operations-store.js';
export * from './settings-store.js';
export * from './training-store.js';
export * from './kept-storage-store.js';
export * from './retention.js';
export * from './retention-schedule.js';
export { unwritableStore } from './store-failures.js';

/** Everything the server keeps on disk, over one connection. */
export interface Stores {
  db: Database;
  operations: OperationsStore;
  settings: SettingsStore;
  /** Training templates and each cluster's default MLflow tracking server. */
  training: TrainingStore;
  /** The Idempotency-Key of each mutating request and its answer (src/api/idempotency.ts). */
  idempotency: IdempotencyStore;
  /** Storages removed keeping their data, until forgotten. */
  keptStorages: KeptStorageStore;
  /** The audit timeline: each mutating request and the cloud calls it made (docs/AUDIT.md). */
  audit: AuditStore;
  /** Closes the connection; call after the engine has stopped. */
  close(): void;
}

/**
 * Opens `<dataDir>/instantstart.db` (or a private in-memory database when `dataDir` is omitted)
 * and wraps it in the operation journal and the settings store.
 *
 * @example
 * const stores = openStores('.instantstart');
 * const engine = new OperationEngine({ store: stores.operations });
 */
export function openStores(dataDir?: string): Stores {
  const db = dataDir === undefined ? openMemoryDatabase() : openDatabase(dataDir);
  return {
    db,
    operations: new OperationsStore(db),
    settings: new SettingsStore(db),
    training: new TrainingStore(db),
    idempotency: new IdempotencyStore(db),
    keptStorages: new KeptStorageStore(db),
    audit: new AuditStore(db),
    close: () => db.close(),
  };
}
