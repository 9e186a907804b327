import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startTestSandbox } from '../helpers/sandbox.js';
import { spawnServe, spawnServer, type ServerProcess } from '../helpers/server.js';

/**
 * `instantstart serve` runs its embedded sandbox cloud in a process of its own, started and stopped with
 * the server: the sandbox's controllers never run on the server's event loop, and no sandbox outlives
 * its server. Process facts are read from /proc (Linux).
 */
const ENV = { ...process.env, INSTANTSTART_LOG_LEVEL: 'warn' };
const onLinux = existsSync('/proc/self/stat');

/** `/proc/<pid>/stat`: state and parent pid; undefined once the process is gone. */
function procStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: state!, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** Still running: an exited process not yet reaped by whoever adopted it (a zombie) runs no code. */
const running = (pid: number) => {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
};

function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((p) => running(p) && procStat(p)?.ppid === pid);
}

async function gone(pid: number, what: string): Promise<void> {
  for (let i = 0; i < 300 && running(pid); i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(running(pid), false, `${what} (pid ${pid}) is still running`);
}

describe('the embedded sandbox runs in its own process', { skip: !onLinux && 'reads /proc' }, () => {
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  after(async () => {
    for (const s of servers) await s.kill().catch(() => undefined);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'instantstart-sbxproc-'));
    dirs.push(dir);
    return dir;
  };
  const serve = async (dir: string) => {
    const server = await spawnServe(['--data-dir', dir, '--sandbox-port', '0', '--sandbox-speed', '20'], ENV, dir);
    servers.push(server);
    // 'close' comes after the exit and the last output (the sandbox shares the server's stdout and stderr).
    const closed = new Promise<number | null>((r) => server.child.once('close', (code) => r(code)));
    const sandboxUrl = /export AWS_ENDPOINT_URL=(http:\/\/127\.0\.0\.1:\d+)/.exec(server.output())?.[1];
    assert.ok(sandboxUrl, server.output());
    const health = (await (await fetch(`${sandboxUrl}/_sandbox/health`)).json()) as {
      pid: number;
      sandboxTime: string;
    };
    return { server, sandboxUrl, sandboxPid: health.pid, exitCode: () => closed };
  };
  it('a child of the server, so a product request is answered even while the sandbox cannot run at all', async () => {
    const { server, sandboxPid } = await serve(dataDir());
    const serverPid = server.child.pid!;
    assert.notEqual(sandboxPid, serverPid, 'the sandbox reports a pid of its own');
    assert.equal(procStat(sandboxPid)?.ppid, serverPid, 'the server forked it');
    assert.deepEqual(childrenOf(serverPid), [sandboxPid], 'one sandbox process, nothing else');
    // A stopped process runs nothing: were its controllers on the server's event loop, /healthz would hang.
    process.kill(sandboxPid, 'SIGSTOP');
    try {
      const health = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(20_000) });
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok' });
    } finally {
      process.kill(sandboxPid, 'SIGCONT');
    }
    await server.stop();
  });

  it('SIGTERM stops the server and its sandbox, which saves its state; the next start finds it', async () => {
    const dir = dataDir();
    const first = await serve(dir);
    const jumped = (await (
      await fetch(`${first.sandboxUrl}/_sandbox/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advanceSeconds: 86_400 }),
      })
    ).json()) as { now: string };
    await first.server.stop();
    assert.equal(await first.exitCode(), 0);
    await gone(first.sandboxPid, 'the sandbox of a stopped server');

    const next = await serve(dir); // both locks (the data directory's, the sandbox state's) were released
    const health = (await (await fetch(`${next.sandboxUrl}/_sandbox/health`)).json()) as { sandboxTime: string };
    assert.ok(
      Date.parse(health.sandboxTime) >= Date.parse(jumped.now),
      `the sandbox clock resumed from its saved state (${health.sandboxTime} ≥ ${jumped.now})`,
    );
    await next.server.stop();
  });

  it('killing the server with SIGKILL leaves no sandbox behind, and the directory can be served again', async () => {
    const dir = dataDir();
    const { server, sandboxPid } = await serve(dir);
    await server.kill();
    await gone(sandboxPid, 'the sandbox of a killed server');
    const next = await serve(dir);
    await next.server.stop();
  });

  it("a sandbox still saving the state of a killed server holds it: the next server's sandbox waits for it to finish", async () => {
    const dir = dataDir();
    const first = await serve(dir);
    process.kill(first.sandboxPid, 'SIGSTOP'); // frozen as if in the middle of a long tick or of writing a large state
    await first.server.kill();
    const orphan = first.sandboxPid;
    // The raw command, to read what it prints while it waits.
    const next = spawn(
      process.execPath,
      ['bin/instantstart.mjs', 'serve', '--port', '0', '--data-dir', dir, '--sandbox-port', '0'],
      { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    next.stdout.on('data', (d) => (out += d));
    next.stderr.on('data', (d) => (out += d));
    const closed = new Promise<number | null>((r) => next.once('close', (code) => r(code)));
    try {
      const until = async (what: RegExp) => {
        for (let i = 0; i < 600 && !what.test(out) && next.exitCode === null; i++)
          await new Promise((r) => setTimeout(r, 100));
        assert.match(out, what);
      };
      await until(new RegExp(`sandbox: waiting for process ${orphan} to finish saving the sandbox state`));
      assert.doesNotMatch(out, /UI\s+http/, 'the new server does not serve before its sandbox runs');
      process.kill(orphan, 'SIGCONT'); // it notices its server is gone, saves and exits; then the new sandbox starts
      await until(/UI\s+http:\/\/127\.0\.0\.1:\d+\//);
      assert.equal(running(orphan), false);
    } finally {
      if (running(orphan)) process.kill(orphan, 'SIGKILL');
      next.kill('SIGTERM');
    }
    assert.equal(await closed, 0);
  });

  it('a sandbox that dies stops its server with a message naming it and a non-zero status', async () => {
    const { server, sandboxPid, exitCode } = await serve(dataDir());
    process.kill(sandboxPid, 'SIGKILL');
    assert.equal(await exitCode(), 1);
    assert.match(
      server.output(),
      new RegExp(`the sandbox cloud's process \\(pid ${sandboxPid}\\) was killed \\(SIGKILL\\); the server stops too`),
    );
  });

  it('--sandbox-url uses the running sandbox and starts none', async () => {
    const sb = await startTestSandbox({ speed: 20 });
    try {
      const server = await spawnServer(sb, dataDir());
      servers.push(server);
      assert.deepEqual(childrenOf(server.child.pid!), []);
      assert.equal((await server.api('GET', '/healthz')).status, 200);
      await server.stop();
    } finally {
      await sb.dispose();
    }
  });
});
