import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServerLogger } from '../../src/cli/logger.js';
import { startServer, type RunningServer, type ServeOptions } from '../../src/cli/serve.js';
import { conformanceObserver } from './conformance-recorder.js';
import type { TestSandbox } from './sandbox.js';
import pino from 'pino';

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestServer {
  url: string;
  dataDir: string;
  api<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiAnswer<T>>;
  /** Polls the operation (via the wait endpoint) until it is terminal; returns its final view. */
  waitForOperation(id: string, timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}

/** The same server's REST API, every request carrying `token` (a server started with tokens refuses requests without). */
export function withToken<S extends TestServer>(server: S, token: string): S {
  return { ...server, ...client(server.url, { authorization: `Bearer ${token}` }) };
}

function client(url: string, defaults: Record<string, string> = {}): Pick<TestServer, 'api' | 'waitForOperation'> {
  const api: TestServer['api'] = async (method, path, body, headers = {}) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...defaults,
        ...headers,
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON (the UI's HTML); keep the text
    }
    return { status: res.status, body: parsed as any, headers: res.headers };
  };
  return {
    api,
    async waitForOperation(id, timeoutMs = 240_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const r = await api('GET', `/api/v1/operations/${id}/wait?timeoutSeconds=20`);
        if (r.status !== 200) throw new Error(`wait for ${id}: ${r.status} ${JSON.stringify(r.body)}`);
        if (['succeeded', 'failed', 'cancelled'].includes(r.body.status)) return r.body;
      }
      const last = await api('GET', `/api/v1/operations/${id}`);
      throw new Error(
        `operation ${id} not terminal after ${timeoutMs} ms: ${JSON.stringify(last.body.phases?.map((p: any) => [p.name, p.status, p.progress]))}`,
      );
    },
  };
}

function sandboxClock(url: string): () => Promise<{ now: number; speed: number }> {
  return async () => {
    const clock = (await (await fetch(`${url}/_sandbox/clock`)).json()) as { now: string; speed: number };
    return { now: Date.parse(clock.now), speed: clock.speed };
  };
}

/**
 * The product server in this process, on a free port, talking to the test sandbox through AWS_* settings.
 * `cloud: 'aws'` runs the real-AWS configuration (its own data directory per account) against the same
 * sandbox, which answers as account 000000000000.
 */
export async function startTestServer(
  sb: TestSandbox,
  options: {
    speed: number;
    dataDir?: string;
    token?: string;
    /** Tokens of smaller scopes (serve's --operate-token, --read-token). */
    operateTokens?: string[];
    readTokens?: string[];
    cloud?: 'sandbox' | 'aws';
    allowedHosts?: string[];
    logLines?: string[];
    cloudTimeouts?: ServeOptions['cloudTimeouts'];
    retention?: ServeOptions['retention'];
  },
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'instantstart-server-'));
  const server: RunningServer = await startServer({
    cloud: options.cloud ?? 'sandbox',
    host: '127.0.0.1',
    port: 0,
    dataDir,
    region: sb.env.AWS_REGION!,
    token: options.token,
    operateTokens: options.operateTokens,
    readTokens: options.readTokens,
    allowedHosts: options.allowedHosts,
    pollTimeScale: 1 / options.speed,
    // The sandbox's own clock, as `instantstart serve` reads it (bin/serve-command.ts).
    ...(options.cloud === 'aws' ? {} : { cloudClock: sandboxClock(sb.url) }),
    cloudTimeouts: options.cloudTimeouts,
    retention: options.retention,
    cloudObserver: conformanceObserver(),
    // logLines: the server's real logger (redaction included), writing into the array instead of stdout.
    logger: options.logLines
      ? createServerLogger({
          level: 'info',
          destination: { write: (line: string) => void options.logLines!.push(line) },
        })
      : pino({ level: process.env.TEST_SERVER_LOG ?? 'silent' }),
  });
  return {
    url: server.url,
    dataDir,
    ...client(server.url),
    async close() {
      await server.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ServerProcess extends Omit<TestServer, 'close'> {
  child: ChildProcess;
  /** SIGKILL: no shutdown code runs, as in a crash. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** The real `instantstart serve` as a child process using the test sandbox (`--sandbox-url`). */
export async function spawnServer(sb: TestSandbox, dataDir: string): Promise<ServerProcess> {
  return spawnServe(
    ['--data-dir', dataDir, '--sandbox-url', sb.url, '--region', sb.env.AWS_REGION!],
    { ...process.env, INSTANTSTART_LOG_LEVEL: 'warn' },
    dataDir,
  );
}

/**
 * `instantstart serve --port 0 <args>` as a child process with exactly `env`; resolves once it prints
 * its UI address. `output()` is what it wrote so far (stdout and stderr).
 */
export async function spawnServe(
  args: string[],
  env: NodeJS.ProcessEnv,
  dataDir: string,
): Promise<ServerProcess & { output(): string }> {
  const child = spawn(process.execPath, ['bin/instantstart.mjs', 'serve', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}\n${err}`)), 30_000);
    const check = () => {
      const m = /UI\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer); // a server that exits at start must not keep the test process waiting
      reject(new Error(`server exited (${code}):\n${out}\n${err}`));
    });
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    url,
    dataDir,
    child,
    output: () => `${out}${err}`,
    ...client(url),
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A fresh sandbox at `speed` with the product server on it: the set-up of most end-to-end tests. */
export async function startSandboxAndServer(speed: number): Promise<{ sb: TestSandbox; server: TestServer }> {
  const { startTestSandbox } = await import('./sandbox.js');
  const sb = await startTestSandbox({ speed });
  return { sb, server: await startTestServer(sb, { speed }) };
}

/** Stops what a test started, last first; tolerates what never started. */
export async function stopAll(
  ...things: Array<{ close(): Promise<void> } | { dispose(): Promise<void> } | undefined>
): Promise<void> {
  for (const t of things) {
    if (!t) continue;
    if ('close' in t) await t.close();
    else await t.dispose();
  }
}
