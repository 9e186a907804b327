import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

/** The file whose lock says a server uses the directory (never read or written with fs: see below). */
export const LOCK_FILE = 'server.lock';
/** Who holds the lock (pid, URL), for the message a second server prints. Informational only. */
export const HOLDER_FILE = 'server.json';

/** The server that holds a data directory, as it described itself. */
export interface LockHolder {
  pid: number;
  url?: string;
  since: string;
}

/** A data directory held by this process until `release()` (or until the process dies, however it dies). */
export interface DirectoryLock {
  readonly dir: string;
  /** Records the URL this server answers on, so a second server can name it. */
  announce(url: string): void;
  release(): void;
}

/** Another server (or another `startServer` in this process) already uses the directory. */
export class DirectoryInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder | undefined,
  ) {
    const who = holder
      ? `pid ${holder.pid}${holder.url ? `, ${holder.url}` : ''}, since ${holder.since}`
      : 'its pid and URL are unknown';
    super(
      `Another InstantStart server already uses the data directory ${dir} (${who}). ` +
        'Two servers on one directory would both resume the same operations: stop that server first, or give this one another --data-dir.',
    );
    this.name = 'DirectoryInUseError';
  }
}

/**
 * Takes the one-server-per-directory lock of `dir`, or throws DirectoryInUseError naming the holder.
 *
 * The lock is an operating-system file lock, held through SQLite: a write transaction (BEGIN
 * IMMEDIATE) opened on `server.lock` and never committed. The kernel drops it when the process ends —
 * kill -9 included — so a crash never leaves a stale lock behind, and a recycled pid can never keep a
 * directory locked (a lock file checked by pid liveness can be fooled by both). SQLite also refuses the
 * lock to a second connection in the same process. Readers of the journal are not affected: the
 * journal is another file.
 *
 * @example
 * const lock = lockDirectory('.instantstart/sandbox');
 * … listen …; lock.announce('http://127.0.0.1:3099');
 * lock.release(); // on shutdown
 */
export function lockDirectory(
  dir: string,
  { pid = process.pid, now = () => new Date() }: { pid?: number; now?: () => Date } = {},
): DirectoryLock {
  mkdirSync(dir, { recursive: true });
  const db = new BetterSqlite3(join(dir, LOCK_FILE));
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('journal_mode = MEMORY'); // nothing is ever written: no -journal file to leave behind
    db.exec('BEGIN IMMEDIATE');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DirectoryInUseError(dir, readHolder(dir));
    throw err;
  }
  const holder: LockHolder = { pid, since: now().toISOString() };
  writeHolder(dir, holder);
  let released = false;
  return {
    dir,
    announce(url) {
      if (!released) writeHolder(dir, { ...holder, url });
    },
    release() {
      if (released) return;
      released = true;
      db.close(); // rolls the empty transaction back and drops the lock
    },
  };
}

/** The holder as it last described itself; undefined when the file is missing or unreadable. */
export function readHolder(dir: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, HOLDER_FILE), 'utf8')) as Partial<LockHolder>;
    return typeof parsed.pid === 'number'
      ? {
          pid: parsed.pid,
          since: String(parsed.since ?? 'unknown'),
          ...(parsed.url ? { url: String(parsed.url) } : {}),
        }
      : undefined;
  } catch {
    return undefined;
  }
}

function writeHolder(dir: string, holder: LockHolder): void {
  // Written only while holding the lock; temp file + rename so a reader never sees half a file.
  const tmp = join(dir, `${HOLDER_FILE}.${process.pid}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(holder)}\n`);
  renameSync(tmp, join(dir, HOLDER_FILE));
}
