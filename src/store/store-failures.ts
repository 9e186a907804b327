import { dirname } from 'node:path';
import { StoreUnavailableError } from '../domain/errors.js';

/**
 * SQLite answers that mean "this database cannot be written now" — as opposed to a bug in a
 * statement (SQLITE_CONSTRAINT, SQLITE_ERROR…). Extended codes (SQLITE_IOERR_WRITE,
 * SQLITE_READONLY_DBMOVED, SQLITE_BUSY_SNAPSHOT…) match by prefix.
 */
const UNWRITABLE = /^SQLITE_(FULL|IOERR|READONLY|BUSY|LOCKED|CANTOPEN|PERM|PROTOCOL|NOLFS|CORRUPT|NOTADB)/;
/** The same, from the file system while creating the data directory. */
const UNWRITABLE_FS = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'EIO', 'ENOTDIR', 'EEXIST']);

interface Diagnosis {
  /** What is wrong, as a phrase: "the disk is full". */
  problem: string;
  remedy: string;
}

function diagnose(code: string, file: string): Diagnosis {
  const dir = dirname(file);
  if (/^SQLITE_FULL|^ENOSPC|^EDQUOT/.test(code)) {
    return { problem: 'the disk is full', remedy: `Free space on the disk that holds ${dir}.` };
  }
  if (/^SQLITE_(READONLY|PERM|CANTOPEN)|^E(ACCES|PERM|ROFS|NOTDIR|EXIST)$/.test(code)) {
    return {
      problem: 'it cannot be written',
      remedy: `Make ${dir} and the files in it writable by the user running InstantStart (and check that its disk is not mounted read-only), or give another --data-dir.`,
    };
  }
  if (/^SQLITE_(BUSY|LOCKED)/.test(code)) {
    return {
      problem: 'another process holds its write lock',
      remedy: `Stop the other process using ${file} (one InstantStart server per data directory), or give this one another --data-dir.`,
    };
  }
  if (/^SQLITE_(CORRUPT|NOTADB)/.test(code)) {
    return {
      problem: 'it is damaged',
      remedy:
        `Stop InstantStart, move ${file} (with its -wal and -shm files) aside and restore a backup, or start with an empty one ` +
        '(unfinished operations are then forgotten; whatever they made in the cloud stays there and can be deleted by name). Or give another --data-dir.',
    };
  }
  return {
    problem: 'its disk reports an I/O error',
    remedy: `Check the disk that holds ${dir} (the system log names the error), then free or repair it.`,
  };
}

/**
 * The domain error for a SQLite or file-system error that means the store cannot be written, or
 * `undefined` for any other error (a bug must stay a bug, not become a 503).
 *
 * @example
 * try { stmt.run(); } catch (err) { throw unwritableStore(err, db.name) ?? err; }
 */
export function unwritableStore(err: unknown, file: string): StoreUnavailableError | undefined {
  if (err instanceof StoreUnavailableError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !(UNWRITABLE.test(code) || UNWRITABLE_FS.has(code))) return undefined;
  const { problem, remedy } = diagnose(code, file);
  const detail = err instanceof Error ? err.message : String(err);
  return new StoreUnavailableError({
    message: `InstantStart cannot write its journal ${file}: ${problem} (${code}: ${detail}).`,
    code,
    file,
    remedy,
  });
}

/**
 * Runs a write; a failure of the store itself comes out as {@link StoreUnavailableError} (which the
 * engine pauses on and the API answers 503 with), anything else unchanged.
 */
export function guardWrite<T>(file: string, write: () => T): T {
  try {
    return write();
  } catch (err) {
    throw unwritableStore(err, file) ?? err;
  }
}

/**
 * The startup form: the whole sentence, remedy included, because `instantstart serve` prints the
 * message and exits. `what` names the check that failed when it was not a SQLite error.
 */
export function unusableStore(err: unknown, file: string): Error {
  const failure = unwritableStore(err, file);
  if (!failure) return err instanceof Error ? err : new Error(String(err));
  const { problem } = diagnose(failure.code, file);
  const detail = err instanceof Error ? err.message : String(err);
  return new StoreUnavailableError({
    message: `Cannot use the InstantStart database ${file}: ${problem} (${failure.code}: ${detail}). ${failure.remedy}`,
    code: failure.code,
    file,
    remedy: failure.remedy,
  });
}
