import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { DATABASE_FILE } from '../../src/store/database.js';

/** The workspace's database under a server's data directory (data-layout.ts puts it a few folders down). */
export function findDatabase(dir: string): string {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (entry === DATABASE_FILE) return path;
    if (statSync(path).isDirectory()) {
      try {
        return findDatabase(path);
      } catch {
        // not in this folder
      }
    }
  }
  throw new Error(`no ${DATABASE_FILE} under ${dir}`);
}

/** Rows of one query on the server's database, read while it runs (WAL) or after it stopped. */
export function queryDatabase(dataDir: string, sql: string, ...params: unknown[]): unknown[] {
  const db = new BetterSqlite3(findDatabase(dataDir), { readonly: true });
  try {
    return db.prepare(sql).all(...params);
  } finally {
    db.close();
  }
}
