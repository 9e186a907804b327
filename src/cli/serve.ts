import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { hostPolicy } from '../api/guard/hosts.js';
import { buildServer } from '../api/server.js';
import type { ApiContext, OperationsApi, ServerConfig } from '../api/context.js';
import { AwsClients, Cloud, type CloudTimeouts } from '../cloud/index.js';
import { AwsCatalog } from '../cloud/aws/catalog.js';
import { OperationEngine } from '../engine/engine.js';
import { createMcpHttpHandler } from '../mcp/http.js';
import { createServerLogger } from './logger.js';
import { openStores } from '../store/index.js';
import { ClusterViews, type OperationsLookup } from '../workflows/cluster-views.js';
import type { ActiveClusterPort } from '../workflows/context.js';
import { createClusterWorkflow } from '../workflows/create-cluster/index.js';
import { deleteClusterWorkflow } from '../workflows/delete-cluster/index.js';
import { addInstanceGroupWorkflow } from '../workflows/add-instance-group/index.js';
import { deleteInstanceGroupWorkflow, scaleInstanceGroupWorkflow } from '../workflows/instance-group-changes/index.js';
import { updateInstanceGroupWorkflow } from '../workflows/instance-group-changes/update.js';
import { readAutoscaling } from '../workflows/autoscaling-view.js';
import { setAutoscalingWorkflow } from '../workflows/set-autoscaling.js';
import { NodeViews } from '../workflows/nodes/node-views.js';
import { PreflightService } from '../workflows/preflight.js';

export interface ServeOptions {
  cloud: 'sandbox' | 'aws';
  host: string;
  port: number;
  dataDir: string;
  region: string;
  token?: string;
  /** Names (besides loopback and the bound address) that clients use to reach this server; other Host headers are refused. */
  allowedHosts?: string[];
  /** Multiplies every polling interval (the sandbox's fast clock needs short ones). */
  pollTimeScale?: number;
  /** Deadlines of every AWS and Kubernetes call (defaults: 10 s to connect, 30 s per call). */
  cloudTimeouts?: Partial<CloudTimeouts>;
  logger?: Logger;
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  engine: OperationEngine;
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

/**
 * The composition root: store → engine (+ workflows) → cloud adapters → REST/WebSocket/MCP/UI.
 * Resumes every unfinished operation before it starts listening.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  if (!LOOPBACK.has(options.host) && !options.token) {
    throw new Error(`Binding to ${options.host} exposes the control plane beyond this machine; give --token (or INSTANTSTART_API_TOKEN) so every request must carry it.`);
  }
  const logger = options.logger ?? createServerLogger();
  const stores = openStores(options.dataDir);
  const activeCluster: ActiveClusterPort = {
    get: () => stores.settings.getSetting<{ name: string; region: string }>('active-cluster'),
    set: (value) => (value ? stores.settings.setSetting('active-cluster', value) : void stores.settings.deleteSetting('active-cluster')),
  };
  const clients = new AwsClients({ defaultRegion: options.region, timeouts: options.cloudTimeouts });
  const cloud = new Cloud(clients);
  const engine = new OperationEngine({
    store: stores.operations,
    logger: logger.child({ component: 'engine' }),
    polling: { minIntervalMs: 1000, maxIntervalMs: 30_000, timeScale: options.pollTimeScale ?? 1 },
  });
  const deps = { cloud, activeCluster };
  engine.register(createClusterWorkflow(deps));
  engine.register(deleteClusterWorkflow(deps));
  engine.register(addInstanceGroupWorkflow(deps));
  engine.register(scaleInstanceGroupWorkflow(deps));
  engine.register(updateInstanceGroupWorkflow(deps));
  engine.register(deleteInstanceGroupWorkflow(deps));
  engine.register(setAutoscalingWorkflow(deps));

  // The routes' and views' narrow view of the engine (a repeat create finds its operation by key or target).
  const operations: OperationsApi & OperationsLookup = {
    start: (kind, input, opts) => engine.start(kind, input as Record<string, unknown>, opts),
    get: (id) => engine.get(id),
    list: (query) => engine.list(query),
    events: (id, after, limit) => engine.events(id, after, limit),
    retryPhase: (id, phase) => engine.retryPhase(id, phase),
    cancel: (id) => engine.cancel(id),
    waitFor: (id, ms) => engine.waitFor(id, ms),
    on: (event: 'operation' | 'log', listener: (...args: never[]) => void) => engine.on(event, listener as never),
    off: (event: string, listener: (...args: never[]) => void) => engine.off(event as 'operation', listener as never),
    activeFor: (target) => engine.activeFor(target)[0],
    byIdempotencyKey: (key) => {
      const found = stores.operations.findByIdempotencyKey(key);
      return found ? engine.get(found.id) : undefined;
    },
    unsettledClusterOperations: () =>
      stores.operations
        .latestPerTarget(['create-cluster', 'delete-cluster'])
        .filter((op) => op.status !== 'succeeded')
        .map((op) => engine.get(op.id)),
  };
  const config: ServerConfig = { cloud: options.cloud, region: options.region, version: packageVersion(), token: options.token };
  const ctx: ApiContext = {
    config,
    accountId: () => cloud.accountId(),
    operations,
    preflight: new PreflightService(new AwsCatalog(clients), options.region),
    clusters: new ClusterViews(cloud, operations, activeCluster),
    nodes: new NodeViews(cloud),
    autoscaling: (region, cluster) => readAutoscaling(cloud, region, cluster),
    activeCluster,
  };
  let baseUrl = '';
  const mcp = createMcpHttpHandler({ baseUrl: () => baseUrl });
  const hosts = hostPolicy({ bind: options.host, configured: options.allowedHosts });
  if (!hosts.names) logger.warn({ host: options.host }, 'bound to every address with no --allowed-host: any Host header is accepted (the API token still applies)');
  const app = await buildServer(ctx, { logger, webRoot: join(repoRoot, 'dist', 'web'), mcp, hosts });
  engine.resume();
  const address = await app.listen({ host: options.host, port: options.port });
  const port = new URL(address).port;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  baseUrl = `http://127.0.0.1:${port}`;
  logger.info({ url, cloud: options.cloud, region: options.region, dataDir: options.dataDir }, 'InstantStart is serving the UI, REST API and MCP');
  return {
    url,
    app,
    engine,
    async close() {
      await engine.stop();
      await app.close();
      stores.close();
    },
  };
}
