import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { CloudIdentity } from '../domain/operation-owner.js';
import { DATABASE_FILE } from '../store/database.js';
import { LOCK_FILE } from '../store/directory-lock.js';

/**
 * The layout of `--data-dir` (default `.instantstart`): one directory per cloud and account, so a
 * server on real AWS never sees — let alone resumes — the sandbox's operations, nor one account another's.
 *
 * ```
 * <dataDir>/sandbox/              the sandbox cloud (the default)
 *   instantstart.db               its operations journal and settings
 *   server.lock, server.json      one server at a time (directory-lock.ts)
 *   cloud/                        the embedded sandbox cloud's own state (state.json, ca/, blobs/)
 * <dataDir>/aws/<account-id>/     one real AWS account
 *   instantstart.db, server.lock, server.json
 * ```
 * The sandbox's journal and the sandbox cloud's resources live and die together: removing
 * `<dataDir>/sandbox` resets both, never leaving operations that point at resources that vanished,
 * and the directory's one lock also keeps a second server from starting a second embedded sandbox
 * on the same state.
 */
export function sandboxDirectory(dataDir: string): string {
  return join(dataDir, 'sandbox');
}

/** Where the embedded sandbox cloud keeps its state (`instantstart sandbox --state-dir` uses the same default). */
export function sandboxCloudStateDirectory(dataDir: string): string {
  return join(sandboxDirectory(dataDir), 'cloud');
}

/** `<dataDir>/aws/<account-id>`; the id is checked so it can never walk out of the data directory. */
export function awsAccountDirectory(dataDir: string, accountId: string): string {
  if (!/^\d{12}$/.test(accountId)) throw new Error(`'${accountId}' is not an AWS account id (12 digits).`);
  return join(dataDir, 'aws', accountId);
}

/** The directory of the journal of a server acting as `identity`. */
export function workspaceDirectory(dataDir: string, identity: Pick<CloudIdentity, 'cloud' | 'accountId'>): string {
  return identity.cloud === 'sandbox' ? sandboxDirectory(dataDir) : awsAccountDirectory(dataDir, identity.accountId);
}

/** Files the sandbox cloud wrote at the top of `<dataDir>/sandbox` before it moved into `cloud/`. */
const LEGACY_SANDBOX_ENTRIES = ['state.json', 'ca', 'blobs'];
/** Where the legacy sandbox state waits between the two renames that move it (a crash between them is resumed). */
const MOVING_SANDBOX_STATE = '.sandbox-cloud-moving';

/**
 * Brings a data directory written by an older InstantStart to the per-cloud layout, once; idempotent.
 *
 * - `<dataDir>/instantstart.db` (+ `-wal`, `-shm`) belongs to the sandbox, the default cloud of older
 *   versions: it moves to `<dataDir>/sandbox/`. It is never opened for AWS. Its write-ahead log is folded
 *   into it first, so one rename moves the whole journal; a log that survives (an older server still has
 *   the file open) stops the start instead.
 * - The sandbox cloud's state at the top of `<dataDir>/sandbox` moves to `<dataDir>/sandbox/cloud/`.
 *
 * `log` receives one sentence per move.
 */
export function migrateLegacyLayout(dataDir: string, log: (message: string) => void): void {
  const legacyDb = join(dataDir, DATABASE_FILE);
  const hasLegacyDb = existsSync(legacyDb);
  if (hasLegacyDb) foldWriteAheadLog(legacyDb);
  moveLegacySandboxState(dataDir, log);
  if (!hasLegacyDb) return;
  const target = join(sandboxDirectory(dataDir), DATABASE_FILE);
  if (existsSync(target)) {
    log(
      `${legacyDb} (from an older InstantStart) was left where it is and is not used: ${target} already exists. Move its operations by hand if you need them.`,
    );
    return;
  }
  mkdirSync(sandboxDirectory(dataDir), { recursive: true });
  renameSync(legacyDb, target);
  log(
    `Moved the operations journal of an older InstantStart from ${legacyDb} to ${target}: it belongs to the sandbox cloud ` +
      '(the default of older versions), so a server on real AWS never sees or resumes its operations.',
  );
}

/** Checkpoints and closes `file` so its -wal/-shm files go away; throws when another process keeps them. */
function foldWriteAheadLog(file: string): void {
  const db = new BetterSqlite3(file);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  if (existsSync(`${file}-wal`)) {
    throw new Error(
      `${file} is still in use (its write-ahead log ${file}-wal stayed open): stop the older InstantStart server using it, then start again; ` +
        "this version keeps each cloud's journal in its own directory and moves the old one once.",
    );
  }
}

function moveLegacySandboxState(dataDir: string, log: (message: string) => void): void {
  const sandbox = sandboxDirectory(dataDir);
  const moving = join(dataDir, MOVING_SANDBOX_STATE);
  const isLegacy =
    !existsSync(moving) &&
    LEGACY_SANDBOX_ENTRIES.some((name) => existsSync(join(sandbox, name))) &&
    ![DATABASE_FILE, LOCK_FILE, 'cloud'].some((name) => existsSync(join(sandbox, name)));
  if (isLegacy) renameSync(sandbox, moving);
  if (!existsSync(moving)) return;
  const target = sandboxCloudStateDirectory(dataDir);
  if (existsSync(target))
    throw new Error(
      `${moving} holds sandbox state from an older InstantStart, but ${target} exists too; keep one of them and start again.`,
    );
  mkdirSync(sandbox, { recursive: true });
  renameSync(moving, target);
  log(`Moved the sandbox cloud's state of an older InstantStart from ${sandbox} to ${target}.`);
}
