import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../sandbox/usage-error.js';
import { exportLines, sandboxEnvironment } from '../sandbox/environment.js';
import { migrateLegacyLayout, sandboxCloudStateDirectory, sandboxDirectory } from '../src/cli/data-layout.js';
import { LOG_FORMATS } from '../src/cli/logger.js';
import { startServer, type RunningServer } from '../src/cli/serve.js';
import { lockDirectory, type DirectoryLock } from '../src/store/directory-lock.js';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process.js';
import { DEFAULT_RETENTION, type RetentionPolicy } from '../src/store/retention.js';

const USAGE = `usage: instantstart serve [--cloud sandbox|aws] [--host 127.0.0.1] [--port 3099] [--data-dir .instantstart]
                         [--region us-west-2] [--token TOKEN] [--operate-token TOKEN ...] [--read-token TOKEN ...]
                         [--sandbox-port 4566] [--sandbox-speed 20]
                         [--sandbox-url http://127.0.0.1:4566] [--allowed-host NAME ...]
                         [--log-format pretty|json] [--log-level info]
                         [--retention-days 30] [--retention-max-operations 1000] [--retention-log-lines 5000]

Serves the web UI at /, the REST API under /api/v1, OpenAPI at /api/openapi.json and MCP at /mcp.
--cloud sandbox (the default, or INSTANTSTART_CLOUD=sandbox) embeds the sandbox cloud (in a child process,
started and stopped with the server): nothing costs money.
--cloud aws uses the default AWS credential chain and Region (AWS_PROFILE, AWS_REGION, …).
--data-dir keeps one directory per cloud and account: <data-dir>/sandbox (with the embedded sandbox's
state in <data-dir>/sandbox/cloud) and <data-dir>/aws/<account-id>; one server at a time uses each.
--sandbox-speed N runs sandbox time N× faster (default 20: EKS's ~10 minutes take ~30 seconds).
--sandbox-url uses a sandbox already running (\`instantstart sandbox\`) instead of embedding one.
API tokens, each with a scope (read < operate < admin; docs/SECURITY.md → Token scopes): --token TOKEN (or
INSTANTSTART_API_TOKEN) may do everything (admin); --operate-token TOKEN (repeatable or comma-separated, or
INSTANTSTART_OPERATE_TOKEN=a,b) may read and change but not destroy or replace (no DELETE, no node reboot/replace/delete);
--read-token TOKEN (likewise, or INSTANTSTART_READ_TOKEN) may only read (give agents this one by default). A loopback
server with no token is open to its machine; once any token is given, every request needs one (401 without, 403 when
its scope is too small). Binding beyond 127.0.0.1 requires at least one token.
--allowed-host NAME (repeatable, or INSTANTSTART_ALLOWED_HOSTS=a,b) adds a name clients use to reach the server;
requests whose Host is not a loopback name, the bound address or such a name are refused (DNS rebinding).
--log-format pretty (default, or INSTANTSTART_LOG_FORMAT) prints short lines; json prints one JSON object per line.
--log-level (or INSTANTSTART_LOG_LEVEL, default info) logs changes, errors and slow requests at info; debug logs every request.
Finished operations and their logs are kept --retention-days days (INSTANTSTART_RETENTION_DAYS, default 30), at most
--retention-max-operations of them (INSTANTSTART_RETENTION_MAX_OPERATIONS, default 1000), each with at most
--retention-log-lines log lines (INSTANTSTART_RETENTION_LOG_LINES, default 5000). Unfinished operations, and the newest
operation of each kind on each cluster, are always kept.`;

const SHUTDOWN_DEADLINE_MS = 15_000;

/** A comma-separated variable as a list (unset: empty). */
function listFromEnv(value: string | undefined): string[] {
  return commaList(value ? [value] : []);
}

/** Repeated flags whose values may each be comma-separated, as one list without blanks. */
function commaList(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** `value` of `--flag` as a number greater than 0 (a whole one when `whole`). */
function positive(flag: string, value: string, whole: boolean): number {
  const n = Number(value);
  if (!(n > 0) || (whole && !Number.isInteger(n))) {
    throw new UsageError(
      `--${flag} must be a ${whole ? 'whole number of at least 1' : 'number greater than 0'}, got '${value}'`,
    );
  }
  return n;
}

/** The speed of a running sandbox, so polling keeps pace with its clock. */
async function sandboxSpeed(url: string): Promise<number> {
  const res = await fetch(`${url}/_sandbox/health`).catch((err: Error) => {
    throw new UsageError(`no sandbox answers at ${url} (${err.message}); start one with 'instantstart sandbox'`);
  });
  const health = (await res.json()) as { speed?: number };
  return health.speed && health.speed > 0 ? health.speed : 1;
}

/**
 * The sandbox's own clock, read over its admin API (only this composition root may talk to it): the product
 * measures ages of what the cloud timestamps against it, since it runs faster than the wall clock.
 */
function sandboxClock(url: string): () => Promise<{ now: number; speed: number }> {
  return async () => {
    const res = await fetch(`${url}/_sandbox/clock`, { signal: AbortSignal.timeout(2000) });
    const clock = (await res.json()) as { now: string; speed: number };
    return { now: Date.parse(clock.now), speed: clock.speed };
  };
}

/**
 * Moves an older data directory to the per-cloud layout, then takes the sandbox directory's lock
 * before the embedded sandbox starts on its state (a second server must not run a second sandbox there).
 * This process keeps it (and hands it to the server); the sandbox process only runs on the state.
 */
function lockSandboxDirectory(dataDir: string): DirectoryLock {
  migrateLegacyLayout(dataDir, (message) => process.stderr.write(`${message}\n`));
  return lockDirectory(sandboxDirectory(dataDir));
}

function awsAccount(server: RunningServer): string {
  const { accountId } = server.cloudAccess();
  return accountId ? `, account ${accountId}` : ', account unknown: no usable credentials';
}

/** Says in the terminal when the server cannot act on its cloud yet (no credentials), and what to do. */
function reportCloudAccess(server: RunningServer): void {
  const { problem } = server.cloudAccess().access;
  if (!problem) return;
  process.stderr.write(
    `\n*** Not connected to AWS — ${problem.message}\n${problem.remedy}\n` +
      `Until then the UI explains this and every request that needs AWS answers 503 (nothing is stored for an unknown account).\n\n`,
  );
}

/** `instantstart serve …`: runs until SIGINT/SIGTERM. */
export async function runServeCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      cloud: { type: 'string', default: process.env.INSTANTSTART_CLOUD ?? 'sandbox' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '3099' },
      'data-dir': { type: 'string', default: '.instantstart' },
      region: { type: 'string' },
      token: { type: 'string', default: process.env.INSTANTSTART_API_TOKEN },
      'operate-token': { type: 'string', multiple: true, default: listFromEnv(process.env.INSTANTSTART_OPERATE_TOKEN) },
      'read-token': { type: 'string', multiple: true, default: listFromEnv(process.env.INSTANTSTART_READ_TOKEN) },
      'sandbox-port': { type: 'string', default: '4566' },
      'sandbox-speed': { type: 'string', default: '20' },
      'sandbox-url': { type: 'string' },
      'allowed-host': {
        type: 'string',
        multiple: true,
        default: (process.env.INSTANTSTART_ALLOWED_HOSTS ?? '').split(',').filter(Boolean),
      },
      'log-format': { type: 'string', default: process.env.INSTANTSTART_LOG_FORMAT ?? 'pretty' },
      'log-level': { type: 'string', default: process.env.INSTANTSTART_LOG_LEVEL ?? 'info' },
      'retention-days': {
        type: 'string',
        default: process.env.INSTANTSTART_RETENTION_DAYS ?? String(DEFAULT_RETENTION.maxAgeDays),
      },
      'retention-max-operations': {
        type: 'string',
        default: process.env.INSTANTSTART_RETENTION_MAX_OPERATIONS ?? String(DEFAULT_RETENTION.maxOperations),
      },
      'retention-log-lines': {
        type: 'string',
        default: process.env.INSTANTSTART_RETENTION_LOG_LINES ?? String(DEFAULT_RETENTION.maxLogLinesPerOperation),
      },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const cloud = values.cloud;
  if (cloud !== 'sandbox' && cloud !== 'aws') throw new UsageError(`--cloud must be sandbox or aws, got '${cloud}'`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be an integer 0-65535, got '${values.port}'`);
  const speed = Number(values['sandbox-speed']);
  if (!(speed > 0))
    throw new UsageError(`--sandbox-speed must be a number greater than 0, got '${values['sandbox-speed']}'`);
  const dataDir = resolve(values['data-dir']);
  const logFormat = LOG_FORMATS.find((f) => f === values['log-format']);
  if (!logFormat)
    throw new UsageError(`--log-format must be ${LOG_FORMATS.join(' or ')}, got '${values['log-format']}'`);
  const logLevel = values['log-level'];
  if (!LOG_LEVELS.includes(logLevel))
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got '${logLevel}'`);
  const retention: RetentionPolicy = {
    maxAgeDays: positive('retention-days', values['retention-days'], false),
    maxOperations: positive('retention-max-operations', values['retention-max-operations'], true),
    maxLogLinesPerOperation: positive('retention-log-lines', values['retention-log-lines'], true),
  };

  let sandbox: SandboxProcess | undefined;
  let sandboxUrl = values['sandbox-url'];
  let sandboxLock: DirectoryLock | undefined;
  let server: RunningServer | undefined;
  let timeScale = 1;
  let stopping = false;
  /** Stops the server first (its pollers still talk to the sandbox), then the sandbox process, then exits. */
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    // Shutdown always completes: whatever still holds on after the deadline is cut off (the journal
    // is already durable, so the next start resumes where this one stopped; a sandbox process left
    // alone notices this one is gone and exits by itself).
    setTimeout(() => {
      process.stderr.write(
        `instantstart: shutdown did not finish within ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting anyway\n`,
      );
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    await server?.close();
    await sandbox?.stop();
    process.exit(code);
  };
  if (cloud === 'sandbox') {
    sandboxLock = lockSandboxDirectory(dataDir);
    if (sandboxUrl) {
      timeScale = 1 / (await sandboxSpeed(sandboxUrl));
    } else {
      // Its own process: its controllers' ticks never run on the server's event loop.
      sandbox = await startSandboxProcess({
        port: Number(values['sandbox-port']),
        stateDir: sandboxCloudStateDirectory(dataDir),
        speed,
        // A server without its cloud cannot do anything useful: say so and stop (exit status 1); the
        // journal is durable, so the next start resumes every operation.
        onUnexpectedExit: (how, pid) => {
          process.stderr.write(
            `instantstart: the sandbox cloud's process (pid ${pid}) ${how}; the server stops too (start it again to resume)\n`,
          );
          void stop(1);
        },
      }).catch((err: unknown) => {
        sandboxLock?.release();
        throw err;
      });
      sandboxUrl = sandbox.url;
      timeScale = 1 / sandbox.speed;
    }
    // The product reaches the sandbox exactly as it reaches AWS: through the standard settings.
    Object.assign(process.env, sandboxEnvironment(sandboxUrl, values.region), { AWS_EC2_METADATA_DISABLED: 'true' });
    delete process.env.AWS_PROFILE;
  }
  try {
    const region = values.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
    if (!region) throw new UsageError('no AWS Region: give --region or set AWS_REGION');
    server = await startServer({
      cloud,
      host: values.host,
      port,
      dataDir,
      region,
      token: values.token,
      operateTokens: commaList(values['operate-token']),
      readTokens: commaList(values['read-token']),
      allowedHosts: values['allowed-host']
        .flatMap((h) => h.split(','))
        .map((h) => h.trim())
        .filter(Boolean),
      pollTimeScale: timeScale,
      ...(sandboxUrl ? { cloudClock: sandboxClock(sandboxUrl) } : {}),
      logFormat,
      logLevel,
      retention,
      ...(sandboxLock ? { sandboxLock } : {}),
    });
    printBanner(server, cloud, region, sandboxUrl, timeScale);
  } catch (err) {
    // Nothing serves: the sandbox process goes with this one.
    stopping = true;
    await sandbox?.stop();
    throw err;
  }
  reportCloudAccess(server);
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
}

function printBanner(
  server: RunningServer,
  cloud: 'sandbox' | 'aws',
  region: string,
  sandboxUrl: string | undefined,
  timeScale: number,
): void {
  process.stdout.write(
    `\nInstantStart on ${cloud === 'sandbox' ? `the sandbox cloud (${sandboxUrl}, ${Math.round(1 / timeScale)}× time)` : `AWS (${region}${awsAccount(server)})`}\n` +
      `  UI        ${server.url}/\n  REST API  ${server.url}/api/v1  (OpenAPI: ${server.url}/api/openapi.json)\n  MCP       ${server.url}/mcp  (stdio: instantstart mcp --url ${server.url})\n` +
      (sandboxUrl
        ? `\nInspect the sandbox with the AWS CLI and kubectl:\n${exportLines(sandboxEnvironment(sandboxUrl, region))}\n  instantstart kubeconfig <cluster>-eks > kubeconfig\n`
        : '') +
      '\n',
  );
}
