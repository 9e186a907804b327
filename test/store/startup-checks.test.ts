import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, it } from 'node:test';
import { StoreUnavailableError } from '../../src/domain/errors.js';
import { DATABASE_FILE, openStores } from '../../src/store/index.js';

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'instantstart-store-'));
  dirs.push(dir);
  return dir;
}

/** A data directory with a database holding an operation and enough log lines to span many pages. */
function populated(): string {
  const dir = dataDir();
  const stores = openStores(dir);
  stores.operations.createOperation(
    {
      id: 'op-1',
      kind: 'k',
      target: 't',
      status: 'running',
      input: {},
      state: {},
      createdAt: new Date().toISOString(),
    },
    [{ name: 'a', title: 'A', expectedSeconds: 5 }],
  );
  for (let i = 0; i < 200; i++)
    stores.operations.appendLog('op-1', {
      at: new Date().toISOString(),
      level: 'info',
      message: `line ${i} ${'y'.repeat(100)}`,
    });
  stores.close(); // a clean close folds the WAL into the file
  return dir;
}

/**
 * Opens the stores in a child process. Tests run as root, which file modes do not stop, so as root
 * the child runs as `nobody` (uid 65534): then a read-only directory or file really is read-only.
 */
function openAsUnprivileged(dir: string): { status: number | null; out: string } {
  const store = fileURLToPath(new URL('../../src/store/index.js', import.meta.url));
  const script = `const m = await import(${JSON.stringify(store)});
    try { m.openStores(${JSON.stringify(dir)}).close(); console.log('opened'); } catch (e) { console.log('ERR ' + e.code + ' ' + e.message); }`;
  const asRoot = process.getuid?.() === 0;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

afterEach(() => {
  for (const d of dirs.splice(0)) {
    chmodSync(d, 0o700);
    rmSync(d, { recursive: true, force: true });
  }
});

describe('opening the store checks it is sound and writable, and says what to do when not', () => {
  it('a file that is not a database: names the file, says it is damaged and what to do', () => {
    const dir = dataDir();
    writeFileSync(join(dir, DATABASE_FILE), 'garbage '.repeat(2000));
    assert.throws(
      () => openStores(dir),
      (err: Error) =>
        err instanceof StoreUnavailableError &&
        err.code === 'SQLITE_NOTADB' &&
        err.message.startsWith(`Cannot use the InstantStart database ${join(dir, DATABASE_FILE)}: it is damaged`) &&
        /move .* aside and restore a backup/.test(err.message),
    );
  });

  it('a database with a damaged page (reads of other tables would still work): found by quick_check', () => {
    const dir = populated();
    const fd = openSync(join(dir, DATABASE_FILE), 'r+');
    writeSync(fd, Buffer.alloc(200, 0xab), 0, 200, 4096 * 5 + 8); // scribble over a b-tree page's cells
    closeSync(fd);
    assert.throws(
      () => openStores(dir),
      (err: Error) =>
        err instanceof StoreUnavailableError &&
        err.code === 'SQLITE_CORRUPT' &&
        /it is damaged \(SQLITE_CORRUPT: quick_check found/.test(err.message),
    );
  });

  it('a read-only database file (reads work, every write would fail): found by the write probe', () => {
    const dir = populated();
    chmodSync(join(dir, DATABASE_FILE), 0o444);
    chmodSync(dir, 0o777); // the directory stays writable: only the file is read-only
    const { out } = openAsUnprivileged(dir);
    assert.match(
      out,
      /^ERR SQLITE_READONLY\S* Cannot use the InstantStart database .*: it cannot be written .* Make .* writable by the user running InstantStart/m,
    );
  });

  it('a read-only data directory: refused at start with the same advice', () => {
    const dir = populated();
    chmodSync(join(dir, DATABASE_FILE), 0o666);
    chmodSync(dir, 0o555);
    const { out } = openAsUnprivileged(dir);
    assert.match(
      out,
      /^ERR SQLITE_(READONLY|CANTOPEN)\S* Cannot use the InstantStart database .*: it cannot be written/m,
    );
  });

  it('a sound, writable database opens', () => {
    const dir = populated();
    chmodSync(dir, 0o777);
    chmodSync(join(dir, DATABASE_FILE), 0o666);
    assert.match(openAsUnprivileged(dir).out, /^opened/m);
  });
});
