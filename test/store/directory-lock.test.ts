import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { DirectoryInUseError, lockDirectory } from '../../src/store/directory-lock.js';
import { tempDataDir } from '../engine/helpers.js';

const LOCK_MODULE = new URL('../../src/store/directory-lock.js', import.meta.url).href;

/** A separate process that takes the lock of `dir`, names its URL, says "locked" and waits to be killed. */
async function holdInChild(dir: string) {
  const script = `import { lockDirectory } from ${JSON.stringify(LOCK_MODULE)};
    const lock = lockDirectory(${JSON.stringify(dir)}); lock.announce('http://127.0.0.1:4242');
    process.stdout.write('locked\\n'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => String(d).includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`lock holder exited (${code}): ${err}`)));
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return { child, exited };
}

describe('one server per data directory', () => {
  it('refuses a second lock in the same process, naming the holder, until the first is released', () => {
    const { dir, cleanup } = tempDataDir();
    try {
      const first = lockDirectory(dir);
      first.announce('http://127.0.0.1:3099');
      assert.throws(
        () => lockDirectory(dir),
        (err: unknown) =>
          err instanceof DirectoryInUseError &&
          err.message.includes(`pid ${process.pid}, http://127.0.0.1:3099`) &&
          err.message.includes(dir),
      );
      first.release();
      lockDirectory(dir).release();
    } finally {
      cleanup();
    }
  });

  it('refuses while another process holds it, and a process killed with SIGKILL leaves no stale lock', async () => {
    const { dir, cleanup } = tempDataDir();
    const holder = await holdInChild(dir);
    try {
      assert.throws(
        () => lockDirectory(dir),
        (err: unknown) =>
          err instanceof DirectoryInUseError &&
          err.holder?.pid === holder.child.pid &&
          err.holder?.url === 'http://127.0.0.1:4242',
      );
      holder.child.kill('SIGKILL');
      await holder.exited;
      const next = lockDirectory(dir); // no shutdown code ran in the child, yet the directory is free
      next.release();
    } finally {
      holder.child.kill('SIGKILL');
      cleanup();
    }
  });
});
