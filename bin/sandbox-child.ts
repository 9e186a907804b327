/**
 * The embedded sandbox cloud's own process, forked by `instantstart serve` (bin/sandbox-process.ts).
 *
 * It runs in a process of its own so that its simulated controllers — seconds per tick with thousands
 * of nodes — run on an event loop and a heap that are not the product server's: a product request never
 * waits behind a sandbox tick. It lives for exactly as long as the server that forked it:
 * - the server asks it to stop (IPC `stop`) after its own shutdown; it saves its state and exits;
 * - the server dies, however (kill -9 included): the IPC channel closes, it saves its state and exits;
 * - Ctrl-C reaches the whole process group: it ignores SIGINT and lets the server order the shutdown,
 *   so the server's pollers never see the cloud vanish under them.
 *
 * It holds the OS lock of its state directory while it runs, so a sandbox still saving its state (its
 * server just killed) never overlaps the next server's sandbox on the same state: the next one waits.
 */
import { startSandbox, type RunningSandbox } from '../sandbox/index.js';
import { DirectoryInUseError, lockDirectory, readHolder, type DirectoryLock } from '../src/store/directory-lock.js';

/** What the server passes (as the one command-line argument, JSON). */
export interface SandboxChildOptions {
  port: number;
  stateDir: string;
  speed: number;
}

/** What the child tells the server over IPC. */
export type SandboxChildMessage =
  | { type: 'listening'; url: string; port: number; speed: number; pid: number }
  | { type: 'failed'; message: string };

/** How long a new sandbox waits for the previous one on the same state to finish saving and exit. */
const PREVIOUS_SANDBOX_WAIT_MS = 30_000;

async function lockState(stateDir: string): Promise<DirectoryLock> {
  const deadline = Date.now() + PREVIOUS_SANDBOX_WAIT_MS;
  let told = false;
  for (;;) {
    try {
      return lockDirectory(stateDir);
    } catch (err) {
      if (!(err instanceof DirectoryInUseError)) throw err;
      const pid = readHolder(stateDir)?.pid;
      const who = pid ? `process ${pid}` : 'another process';
      if (Date.now() > deadline) {
        throw new Error(
          `The sandbox cloud's state in ${stateDir} is still used by ${who}; stop it first (a sandbox whose server was killed exits by itself once it has saved its state).`,
        );
      }
      if (!told)
        process.stderr.write(`sandbox: waiting for ${who} to finish saving the sandbox state in ${stateDir}\n`);
      told = true;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Starts on `port`, or on a free port when that one is taken (as the in-process sandbox always did). */
async function sandboxOn(options: SandboxChildOptions): Promise<RunningSandbox> {
  try {
    return await startSandbox(options);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    process.stderr.write(`Port ${options.port} is taken; the sandbox cloud uses a free port instead.\n`);
    return startSandbox({ ...options, port: 0 });
  }
}

function tell(message: SandboxChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

async function main(): Promise<void> {
  if (!process.send) {
    process.stderr.write(
      'sandbox-child: started by `instantstart serve` only (use `instantstart sandbox` to run a sandbox yourself)\n',
    );
    process.exit(2);
  }
  const options = JSON.parse(process.argv[2] ?? '{}') as SandboxChildOptions;
  let sandbox: RunningSandbox | undefined;
  let lock: DirectoryLock | undefined;
  let stopping = false;
  const stop = (code: number): void => {
    if (stopping) return;
    stopping = true;
    const done = () => {
      lock?.release();
      process.exit(code);
    };
    (sandbox ? sandbox.stop() : Promise.resolve()).then(done, (err: unknown) => {
      process.stderr.write(`sandbox: stopping failed: ${err instanceof Error ? err.message : String(err)}\n`);
      code = 1;
      done();
    });
  };
  process.on('disconnect', () => stop(0));
  process.on('message', (m: { type?: string }) => m?.type === 'stop' && stop(0));
  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => undefined);

  try {
    lock = await lockState(options.stateDir);
    sandbox = await sandboxOn(options);
  } catch (err) {
    await tell({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
    lock?.release();
    process.exit(1);
  }
  // The server may have gone while this one was starting: then there is nobody to serve.
  if (!process.connected) return stop(0);
  await tell({
    type: 'listening',
    url: sandbox.url,
    port: sandbox.port,
    speed: sandbox.runtime.clock.speed,
    pid: process.pid,
  });
}

void main();
