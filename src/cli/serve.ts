import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { CAPABILITIES } from '../capabilities/index.js';
import { hostPolicy } from '../api/guard/hosts.js';
import type { ApiToken } from '../api/guard/token.js';
import type { TokenScope } from '../domain/token-scopes.js';
import { inProcessFetch } from '../api/in-process-fetch.js';
import { buildServer } from '../api/server.js';
import type { CloudAccessState, CloudClockSource, ServerConfig } from '../api/context.js';
import type { CloudObserver, CloudTimeouts } from '../cloud/index.js';
import { createMcpHttpHandler } from '../mcp/http.js';
import type { DirectoryLock } from '../store/directory-lock.js';
import type { RetentionPolicy } from '../store/retention.js';
import { CloudSession, sessionApiContext } from './cloud-session.js';
import { migrateLegacyLayout } from './data-layout.js';
import { createServerLogger, flushLogger, type LogFormat } from './logger.js';

export interface ServeOptions {
  cloud: 'sandbox' | 'aws';
  host: string;
  port: number;
  dataDir: string;
  region: string;
  /** The full-power (admin) API token: --token / INSTANTSTART_API_TOKEN. */
  token?: string;
  /** Tokens that may only read: --read-token / INSTANTSTART_READ_TOKEN. */
  readTokens?: readonly string[];
  /** Tokens that may read and change, but not destroy or replace: --operate-token / INSTANTSTART_OPERATE_TOKEN. */
  operateTokens?: readonly string[];
  /** Names (besides loopback and the bound address) that clients use to reach this server; other Host headers are refused. */
  allowedHosts?: string[];
  /** How long AWS and Kubernetes calls may take (defaults: 10 s to connect, 30 s per call). */
  cloudTimeouts?: Partial<CloudTimeouts>;
  /** Reads the cloud's own clock (the sandbox's, which runs faster than the wall clock); default: this server's clock. */
  cloudClock?: CloudClockSource;
  /** Multiplies every polling interval (the sandbox's fast clock needs short ones). */
  pollTimeScale?: number;
  /** The logger to use; default: the server's own (createServerLogger) with `logFormat` and `logLevel`. */
  logger?: Logger;
  /** pretty (default, or INSTANTSTART_LOG_FORMAT) or json: one JSON object per line. */
  logFormat?: LogFormat;
  /** pino level (default INSTANTSTART_LOG_LEVEL, else info); debug logs every request. */
  logLevel?: string;
  /** The sandbox directory's lock, when the caller took it before starting the embedded sandbox there. */
  sandboxLock?: DirectoryLock;
  /** How long finished operations and their logs are kept (default: 30 days, 1,000 operations, 5,000 lines each). */
  retention?: RetentionPolicy;
  /** Told of every AWS request and Kubernetes apply the server sends (src/cloud/observer.ts; the conformance test records them). */
  cloudObserver?: CloudObserver;
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  /** The account (once known) and whether the server can act on its cloud; the problem and remedy when not. */
  cloudAccess(): CloudAccessState;
  /** Stops accepting requests and pollers; the journal stays as it is, so a restart resumes. */
  close(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
/** dist/src/cli → repo root. */
const repoRoot = resolve(here, '..', '..', '..');

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Every configured token with its scope; empty strings (an unset variable) are no token. Never logged. */
function apiTokens(options: ServeOptions): ApiToken[] {
  const scoped = (scope: TokenScope, tokens: readonly (string | undefined)[]) =>
    tokens.filter((token): token is string => Boolean(token)).map((token) => ({ token, scope }));
  const tokens = [
    ...scoped('admin', [options.token]),
    ...scoped('operate', options.operateTokens ?? []),
    ...scoped('read', options.readTokens ?? []),
  ];
  // One token with two scopes is a slip (which was meant?): refused, without saying the token.
  const scopes = new Map<string, TokenScope>();
  for (const { token, scope } of tokens) {
    const other = scopes.get(token);
    if (other && other !== scope)
      throw new Error(`The same API token is given for scope ${other} and scope ${scope}; give each token once.`);
    scopes.set(token, scope);
  }
  return tokens;
}

/**
 * The composition root: identity → the cloud's and account's data directory (store → engine + workflows →
 * cloud adapters, cloud-session.ts and workspace.ts) → REST/WebSocket/MCP/UI. Resumes the unfinished
 * operations of that cloud and account before it starts listening.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const tokens = apiTokens(options);
  if (!LOOPBACK.has(options.host) && tokens.length === 0) {
    throw new Error(
      `Binding to ${options.host} exposes the control plane beyond this machine; give --token (or INSTANTSTART_API_TOKEN; --read-token and --operate-token add tokens of smaller scopes) so every request must carry one.`,
    );
  }
  const logger =
    options.logger ??
    createServerLogger({
      ...(options.logFormat ? { format: options.logFormat } : {}),
      ...(options.logLevel ? { level: options.logLevel } : {}),
    });
  const session = await connectCloud(options, logger);
  const config: ServerConfig = {
    cloud: options.cloud,
    region: options.region,
    version: packageVersion(),
    clockSpeed: 1 / (options.pollTimeScale ?? 1),
    tokens,
    ...(options.cloudClock ? { cloudClock: options.cloudClock } : {}),
  };
  const ctx = sessionApiContext(session, config);
  let baseUrl = '';
  let app: FastifyInstance | undefined;
  // The tools of the MCP endpoint reach the REST API of this same server in-process.
  const mcp = createMcpHttpHandler({ baseUrl: () => baseUrl, fetch: inProcessFetch(() => app!) });
  const hosts = hostPolicy({ bind: options.host, configured: options.allowedHosts });
  if (!hosts.names)
    logger.warn(
      { host: options.host },
      'bound to every address with no --allowed-host: any Host header is accepted (the API token still applies)',
    );
  let address: string;
  try {
    app = await buildServer(ctx, {
      logger,
      capabilities: CAPABILITIES,
      webRoot: join(repoRoot, 'dist', 'web'),
      mcp,
      hosts,
    });
    address = await app.listen({ host: options.host, port: options.port });
  } catch (err) {
    await app?.close();
    await session.close();
    throw err;
  }
  const port = new URL(address).port;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  baseUrl = `http://127.0.0.1:${port}`;
  session.announce(url);
  logger.info(
    { url, cloud: options.cloud, region: options.region, dataDir: options.dataDir },
    'InstantStart is serving the UI, REST API and MCP',
  );
  return {
    url,
    app,
    cloudAccess: () => session.state(),
    async close() {
      await session.stop();
      await app!.close();
      await session.close();
      await flushLogger(logger);
    },
  };
}

/**
 * Moves an older data directory to the per-cloud layout, checks who the credentials are and opens that
 * cloud's and account's data directory (resuming its operations). Refuses to start when another server
 * uses that directory, or when the sandbox does not answer; on AWS without usable credentials it starts
 * anyway, unconnected, so the UI can say what to do.
 */
async function connectCloud(options: ServeOptions, logger: Logger): Promise<CloudSession> {
  migrateLegacyLayout(options.dataDir, (message) => logger.warn({ dataDir: options.dataDir }, message));
  const session = new CloudSession({
    cloud: options.cloud,
    capabilities: CAPABILITIES,
    region: options.region,
    dataDir: options.dataDir,
    logger,
    pollTimeScale: options.pollTimeScale ?? 1,
    ...(options.cloudTimeouts ? { cloudTimeouts: options.cloudTimeouts } : {}),
    ...(options.sandboxLock ? { heldLock: options.sandboxLock } : {}),
    ...(options.retention ? { retention: options.retention } : {}),
    ...(options.cloudObserver ? { cloudObserver: options.cloudObserver } : {}),
  });
  const { access } = await session.connect();
  const problem = access.problem;
  if (problem && (problem.code === 'DataDirectoryInUse' || options.cloud === 'sandbox')) {
    await session.close();
    throw new Error(
      problem.code === 'DataDirectoryInUse'
        ? problem.message
        : `The sandbox cloud did not say who we are (STS): ${problem.message}`,
    );
  }
  return session;
}
