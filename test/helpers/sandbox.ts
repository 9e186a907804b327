import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { sandboxEnvironment } from '../../sandbox/environment.js';

const execFileAsync = promisify(execFile);

export interface TestSandbox {
  sandbox: RunningSandbox;
  url: string;
  stateDir: string;
  /** The standard AWS_* settings pointing at this sandbox (already applied to process.env). */
  env: Record<string, string>;
  /** JSON from the admin API. */
  admin<T = any>(path: string, init?: { method?: string; body?: unknown }): Promise<{ status: number; body: T }>;
  inventory(): Promise<Record<string, Record<string, unknown[]>>>;
  /** Counts calls in the sandbox call log. */
  calls(filter?: { service?: string; operation?: string; mutating?: boolean; after?: number }): Promise<
    Array<{
      seq: number;
      sandboxTime: string;
      service: string;
      operation: string;
      subject?: string;
      status: number;
      errorCode?: string;
      /** The request id the sandbox answered with (as AWS does, in `x-amzn-RequestId`). */
      requestId?: string;
      mutating: boolean;
    }>
  >;
  /** Moves sandbox time forward and runs the simulated controllers. */
  advance(seconds: number): Promise<void>;
  /** Runs the real `aws` CLI against the sandbox; parses JSON output when there is some. */
  aws(
    args: string[],
    options?: { region?: string; allowFailure?: boolean; env?: Record<string, string> },
  ): Promise<{ code: number; stdout: string; stderr: string; json: any }>;
  /** Stops the sandbox (state is kept on disk, so a new one can start from `stateDir`). */
  stop(): Promise<void>;
  /** Stops and deletes the state directory. */
  dispose(): Promise<void>;
}

/**
 * Starts an in-process sandbox on a free loopback port with a fresh state directory, and points
 * the standard AWS settings of this test process at it, so SDK clients are built with `{}` only.
 */
export async function startTestSandbox(options: { stateDir?: string; speed?: number } = {}): Promise<TestSandbox> {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'instantstart-sandbox-'));
  const sandbox = await startSandbox({ port: 0, stateDir, speed: options.speed ?? 1, tickIntervalMs: 50 });
  const env = sandboxEnvironment(sandbox.url);
  Object.assign(process.env, env, { AWS_EC2_METADATA_DISABLED: 'true' });
  delete process.env.AWS_PROFILE;

  const admin = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method: init.method ?? 'GET',
      ...(init.body !== undefined
        ? { body: JSON.stringify(init.body), headers: { 'content-type': 'application/json' } }
        : {}),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await sandbox.stop();
  };

  return {
    sandbox,
    url: sandbox.url,
    stateDir,
    env,
    admin,
    async inventory() {
      return (await admin('/_sandbox/inventory')).body;
    },
    async calls(filter = {}) {
      const q = new URLSearchParams();
      if (filter.service) q.set('service', filter.service);
      if (filter.operation) q.set('operation', filter.operation);
      if (filter.mutating !== undefined) q.set('mutating', String(filter.mutating));
      if (filter.after !== undefined) q.set('after', String(filter.after));
      return (await admin(`/_sandbox/calls?${q}`)).body.calls;
    },
    async advance(seconds: number) {
      const r = await admin('/_sandbox/clock', { method: 'POST', body: { advanceSeconds: seconds } });
      if (r.status !== 200) throw new Error(`advance failed: ${JSON.stringify(r.body)}`);
    },
    async aws(args, opts = {}) {
      const region = opts.region ?? env.AWS_REGION!;
      const childEnv = {
        ...process.env,
        ...env,
        AWS_REGION: region,
        AWS_DEFAULT_REGION: region,
        AWS_PAGER: '',
        AWS_CONFIG_FILE: '/dev/null',
        AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
        ...(opts.env ?? {}),
      };
      try {
        const { stdout, stderr } = await execFileAsync(
          'aws',
          [...args, '--endpoint-url', sandbox.url, '--output', 'json'],
          {
            env: childEnv,
            maxBuffer: 64 * 1024 * 1024,
          },
        );
        return { code: 0, stdout, stderr, json: parseJson(stdout) };
      } catch (err) {
        const e = err as { code?: number | string; stdout?: string; stderr?: string; message?: string };
        if (!opts.allowFailure) throw new Error(`aws ${args.join(' ')} failed (${e.code}): ${e.stderr || e.message}`);
        return {
          code: typeof e.code === 'number' ? e.code : 1,
          stdout: e.stdout ?? '',
          stderr: e.stderr ?? '',
          json: undefined,
        };
      }
    },
    stop,
    async dispose() {
      await stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** The CLI prints JSON for API commands and plain text for `aws s3 ls` and friends. */
function parseJson(text: string): any {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Polls `probe` until it returns a truthy value, advancing sandbox time by `stepSeconds` between tries. */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false>,
  options: { sandbox?: Pick<TestSandbox, 'advance'>; stepSeconds?: number; tries?: number; what?: string } = {},
): Promise<T> {
  const { tries = 200, stepSeconds = 30 } = options;
  for (let i = 0; i < tries; i++) {
    const value = await probe();
    if (value) return value;
    if (options.sandbox) await options.sandbox.advance(stepSeconds);
    else await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${options.what ?? 'condition'}`);
}
