import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { unusableStore } from './store-failures.js';

/** An open SQLite connection (better-sqlite3 v12: synchronous, one connection per process). */
export type Database = BetterSqlite3.Database;

/** The file inside the data directory that holds every table. */
export const DATABASE_FILE = 'instantstart.db';

/**
 * Schema migrations, applied in order. `PRAGMA user_version` records how many have run, so each
 * runs exactly once per database. Never edit a shipped entry: append a new one instead.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE operations (
    id              TEXT PRIMARY KEY,
    kind            TEXT NOT NULL,
    target          TEXT NOT NULL,
    status          TEXT NOT NULL,
    input           TEXT NOT NULL,
    state           TEXT NOT NULL,
    result          TEXT,
    error           TEXT,
    idempotency_key TEXT UNIQUE,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    finished_at     TEXT
  );
  CREATE INDEX operations_by_target ON operations (target, status);
  CREATE INDEX operations_by_status ON operations (status);

  CREATE TABLE phases (
    operation_id     TEXT NOT NULL REFERENCES operations (id) ON DELETE CASCADE,
    idx              INTEGER NOT NULL,
    name             TEXT NOT NULL,
    title            TEXT NOT NULL,
    status           TEXT NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    acted            INTEGER NOT NULL DEFAULT 0,
    started_at       TEXT,
    finished_at      TEXT,
    progress         TEXT,
    error            TEXT,
    expected_seconds REAL NOT NULL,
    PRIMARY KEY (operation_id, idx),
    UNIQUE (operation_id, name)
  );

  CREATE TABLE operation_log (
    operation_id TEXT NOT NULL REFERENCES operations (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    at           TEXT NOT NULL,
    phase        TEXT,
    level        TEXT NOT NULL,
    message      TEXT NOT NULL,
    PRIMARY KEY (operation_id, seq)
  ) WITHOUT ROWID;

  CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  `,
  // Where each operation acts: a journal must never resume an operation against another cloud or
  // account (issue 13). Rows written before this migration keep NULL: unknown.
  `
  ALTER TABLE operations ADD COLUMN cloud TEXT;
  ALTER TABLE operations ADD COLUMN account_id TEXT;
  ALTER TABLE operations ADD COLUMN region TEXT;
  `,
  // Training (issue 17): saved job requests per cluster, and the MLflow tracking server a cluster's
  // jobs report to by default. Keyed by Region and cluster (names are only unique per Region).
  `
  CREATE TABLE training_templates (
    region      TEXT NOT NULL,
    cluster     TEXT NOT NULL,
    name        TEXT NOT NULL,
    description TEXT,
    request     TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (region, cluster, name)
  ) WITHOUT ROWID;

  CREATE TABLE cluster_mlflow (
    region              TEXT NOT NULL,
    cluster             TEXT NOT NULL,
    tracking_server_arn TEXT NOT NULL,
    updated_at          TEXT NOT NULL,
    PRIMARY KEY (region, cluster)
  ) WITHOUT ROWID;
  `,
  // Replays (issue 26): every mutating request sent with an Idempotency-Key, by key: a digest of the
  // request it named (method, route, parameters, canonical body) and, once answered with success,
  // that answer. A row without an answer is a request under way — or, after a crash, interrupted.
  `
  CREATE TABLE idempotency_keys (
    key          TEXT PRIMARY KEY,
    fingerprint  TEXT NOT NULL,
    request      TEXT NOT NULL,
    status       INTEGER,
    answer       TEXT,
    operation_id TEXT,
    created_at   TEXT NOT NULL,
    answered_at  TEXT
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
  `,
  // Storages removed "keeping the data" (issue 26): listed as kept, not mounted, until forgotten, and
  // kept by the cluster's delete. `data` is the StorageData JSON (bucket and prefix, or file system).
  `
  CREATE TABLE kept_storages (
    region    TEXT NOT NULL,
    cluster   TEXT NOT NULL,
    namespace TEXT NOT NULL,
    name      TEXT NOT NULL,
    data      TEXT NOT NULL,
    ours      INTEGER NOT NULL,
    kept_at   TEXT NOT NULL,
    PRIMARY KEY (region, cluster, namespace, name)
  ) WITHOUT ROWID;
  `,
  // Phase deadlines (issue 27): when the current change of a phase first acted and when its wait began, journaled so
  // that a deadline counts from them across restarts. NULL: not acted / not waiting in this attempt.
  `
  ALTER TABLE phases ADD COLUMN act_started_at TEXT;
  ALTER TABLE phases ADD COLUMN wait_started_at TEXT;
  `,
  // The audit timeline (issue 30, docs/AUDIT.md): one row per mutating request (its input secret-free), and the
  // mutating cloud calls filed under a request (event_id) or under the operation it started (operation_id: phases
  // run after their request ended). `detail` is the call's JSON (service, operation, request id; or the object ref).
  `
  CREATE TABLE audit_events (
    seq            INTEGER PRIMARY KEY AUTOINCREMENT,
    id             TEXT NOT NULL UNIQUE,
    at             TEXT NOT NULL,
    actor          TEXT NOT NULL,
    face           TEXT NOT NULL,
    client         TEXT,
    method         TEXT NOT NULL,
    route          TEXT NOT NULL,
    action         TEXT NOT NULL,
    target         TEXT NOT NULL,
    input          TEXT,
    input_digest   TEXT,
    status         INTEGER NOT NULL,
    outcome        TEXT NOT NULL,
    replay         INTEGER NOT NULL,
    error          TEXT,
    operation_id   TEXT,
    operation_kind TEXT
  );
  CREATE INDEX audit_events_by_at ON audit_events (at);
  CREATE TABLE audit_calls (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id     TEXT,
    operation_id TEXT,
    type         TEXT NOT NULL,
    at           TEXT NOT NULL,
    detail       TEXT NOT NULL
  );
  CREATE INDEX audit_calls_by_event ON audit_calls (event_id) WHERE event_id IS NOT NULL;
  CREATE INDEX audit_calls_by_operation ON audit_calls (operation_id) WHERE operation_id IS NOT NULL;
  CREATE INDEX audit_calls_by_age ON audit_calls (at);
  `,
];

/**
 * Opens (creating if needed) `<dataDir>/instantstart.db`, checks it is sound and writable, and
 * brings its schema up to date.
 *
 * WAL lets readers (a second engine in a test, the sqlite3 shell) work beside the writer;
 * `synchronous = FULL` makes each journal write durable before the engine calls the cloud, which is
 * the whole point of writing "acting" first.
 *
 * A damaged file or a data directory that cannot be written is refused here, with a message naming
 * the file, what is wrong and what to do ({@link StoreUnavailableError}) — otherwise reads would
 * work and the first mutation would fail long after start.
 *
 * @example
 * const db = openDatabase('.instantstart');
 * const operations = new OperationsStore(db);
 */
export function openDatabase(dataDir: string): Database {
  const file = join(dataDir, DATABASE_FILE);
  let db: Database | undefined;
  try {
    mkdirSync(dataDir, { recursive: true });
    db = new BetterSqlite3(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    checkIntegrity(db);
    prepare(db);
    probeWrite(db);
    return db;
  } catch (err) {
    db?.close();
    throw unusableStore(err, file);
  }
}

/**
 * `PRAGMA quick_check`: every page and index entry readable and well formed (it skips the slow
 * index-content comparison of `integrity_check`). Throws SQLITE_CORRUPT with SQLite's first findings.
 */
function checkIntegrity(db: Database): void {
  const rows = db.pragma('quick_check') as Array<{ quick_check: string }>;
  const findings = rows.map((r) => r.quick_check.replace(/\s+/g, ' ').trim()).filter((r) => r !== 'ok');
  if (findings.length > 0) {
    throw Object.assign(
      new Error(`quick_check found ${findings.length} problem(s): ${findings.slice(0, 3).join('; ')}`),
      { code: 'SQLITE_CORRUPT' },
    );
  }
}

/**
 * A real, committed write that changes nothing: rewriting `user_version` with its own value takes
 * the write lock and writes the database header. It fails exactly as a journal write would
 * (SQLITE_READONLY, SQLITE_FULL, SQLITE_IOERR…, SQLITE_BUSY after the busy timeout).
 */
export function probeWrite(db: Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  db.pragma(`user_version = ${version}`);
}

/** A private in-memory database with the full schema, for tests. */
export function openMemoryDatabase(): Database {
  return prepare(new BetterSqlite3(':memory:'));
}

function prepare(db: Database): Database {
  // Another process (or a dying one) may hold the write lock briefly; wait instead of failing.
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

/** Applies the migrations this database has not seen yet, each in its own transaction. */
export function migrate(db: Database): void {
  const applied = db.pragma('user_version', { simple: true }) as number;
  if (applied > MIGRATIONS.length) {
    throw new Error(
      `The database was written by a newer InstantStart (schema ${applied}, this build knows ${MIGRATIONS.length}); upgrade InstantStart or use another --data-dir.`,
    );
  }
  for (let version = applied; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;
