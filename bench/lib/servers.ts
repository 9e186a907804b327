import { join } from 'node:path';
import { sandboxEnvironment } from '../../sandbox/environment.js';
import { startChild, waitForOutput, type Child } from './processes.js';

/**
 * The product as a user runs it: `instantstart serve` (embedded sandbox cloud) as a child process on
 * free ports, so the measured server never shares the bench's event loop. The harness talks to it
 * only over HTTP (REST, MCP) and to the sandbox only over its AWS endpoint and `/_sandbox/*`.
 */
export interface Served extends Child {
  url: string;
  /** The sandbox's endpoint (AWS wire protocols and `/_sandbox/*`). */
  sandboxUrl: string;
  /** Milliseconds from spawn to the printed UI address. */
  startedInMs: number;
}

export interface ServeOptions {
  dataDir: string;
  speed: number;
  /** Where the server's output goes (one file per start). */
  logFile: string;
  port?: number;
  startTimeoutMs?: number;
}

export async function startServe(options: ServeOptions): Promise<Served> {
  const started = performance.now();
  const args = [
    'bin/instantstart.mjs',
    'serve',
    '--port',
    String(options.port ?? 0),
    '--sandbox-port',
    '0',
    '--sandbox-speed',
    String(options.speed),
    '--data-dir',
    options.dataDir,
  ];
  // The SDK's Node-version notice is noise in the log; the server's own settings stay as a user has them.
  const child = startChild(args, options.logFile, {
    ...process.env,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  });
  try {
    const url = await waitForOutput(
      child,
      /UI\s+(http:\/\/127\.0\.0\.1:\d+)\//,
      options.startTimeoutMs ?? 120_000,
      'instantstart serve',
    );
    const startedInMs = performance.now() - started;
    const sandboxUrl = await waitForOutput(
      child,
      /AWS_ENDPOINT_URL=(http:\/\/127\.0\.0\.1:\d+)/,
      5_000,
      'the sandbox address in the server output',
    );
    return { ...child, url, sandboxUrl, startedInMs };
  } catch (err) {
    await child.stop();
    throw err;
  }
}

/** Points this process's AWS SDK clients at the sandbox (the documented throwaway credentials). */
export function useSandbox(sandboxUrl: string): void {
  Object.assign(process.env, sandboxEnvironment(sandboxUrl), { AWS_EC2_METADATA_DISABLED: 'true' });
  delete process.env.AWS_PROFILE;
}

export const logIn = (dir: string, name: string): string => join(dir, `${name}.log`);

/** JSON over HTTP: the answer's status, parsed body and raw text. */
export async function http<T = any>(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: T; text: string; contentType: string }> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(init.headers ?? {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON; keep the text
  }
  return { status: res.status, body: body as T, text, contentType: res.headers.get('content-type') ?? '' };
}

/** The sandbox's admin API (docs/SANDBOX.md): clock, call log, inventory, faults. */
export class SandboxAdmin {
  constructor(readonly url: string) {}

  async clock(): Promise<number> {
    return Date.parse((await http<{ now: string }>(`${this.url}/_sandbox/clock`)).body.now);
  }

  /** Jumps sandbox time forward; the controllers run at once. */
  async advance(seconds: number): Promise<void> {
    const r = await http(`${this.url}/_sandbox/clock`, { method: 'POST', body: { advanceSeconds: seconds } });
    if (r.status !== 200) throw new Error(`advance: ${r.status} ${r.text}`);
  }

  /** Sets how many sandbox seconds pass per real second (asked twice: a keep-alive socket the sandbox just closed). */
  async speed(speed: number): Promise<void> {
    const set = () => http(`${this.url}/_sandbox/clock`, { method: 'POST', body: { speed } });
    const r = await set().catch(set);
    if (r.status !== 200) throw new Error(`speed: ${r.status} ${r.text}`);
  }

  async calls(after = 0): Promise<SandboxCall[]> {
    return (await http<{ calls: SandboxCall[] }>(`${this.url}/_sandbox/calls?after=${after}`)).body.calls;
  }

  async inventory(): Promise<Record<string, Record<string, any[]>>> {
    return (await http(`${this.url}/_sandbox/inventory`)).body;
  }

  async fault(body: unknown): Promise<void> {
    const r = await http(`${this.url}/_sandbox/faults`, { method: 'POST', body });
    if (r.status >= 300) throw new Error(`fault: ${r.status} ${r.text}`);
  }
}

export interface SandboxCall {
  seq: number;
  sandboxTime: string;
  service: string;
  operation: string;
  mutating: boolean;
  status: number;
}
