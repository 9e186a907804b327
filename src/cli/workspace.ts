import type { Logger } from 'pino';
import type { IdempotencyKeysPort, ServiceKey } from '../api/context.js';
import { withStatusLinks } from '../api/operation-links.js';
import type { Capability, ServiceDeps, ServiceOperations } from '../capabilities/capability.js';
import { audit } from '../capabilities/audit/index.js';
import { catalog } from '../capabilities/catalog/index.js';
import { clusters, type ActiveClusterPort } from '../capabilities/clusters/index.js';
import { storage } from '../capabilities/storage/index.js';
import { SuppliedPorts, supplyPorts } from '../capabilities/supplied-ports.js';
import { training } from '../capabilities/training/index.js';
import { inference } from '../capabilities/inference/index.js';
import { AwsClients, Cloud, type CloudObserver, type CloudTimeouts } from '../cloud/index.js';
import { AwsCatalog } from '../cloud/aws/catalog.js';
import { OPERATION_KINDS, type OperationInputs } from '../domain/operation-kinds.js';
import type { CloudIdentity } from '../domain/operation-owner.js';
import { OperationEngine } from '../engine/engine.js';
import { auditObserver, bothObservers } from './audit-observer.js';
import { lockDirectory, type DirectoryLock } from '../store/directory-lock.js';
import {
  openStores,
  OperationsRetention,
  RetentionSchedule,
  type AuditStore,
  type RetentionPolicy,
  type Stores,
} from '../store/index.js';

/** Everything a server does for one cloud and account: its journal, engine, cloud adapters and views. */
export interface Workspace {
  identity: CloudIdentity;
  /** The data directory of this cloud and account (data-layout.ts). */
  dir: string;
  engine: OperationEngine<OperationInputs>;
  operations: ServiceOperations;
  /** Each mutating request's Idempotency-Key and its answer (src/api/idempotency.ts). */
  idempotencyKeys: IdempotencyKeysPort;
  /** The audit timeline (docs/AUDIT.md): the API writes its events, the cloud observer their calls. */
  audit: AuditStore;
  /** A capability's service, built on first use. */
  service<S>(key: ServiceKey<S>): S;
  /** Names this server's URL in the directory's lock, for the message a second server prints. */
  announce(url: string): void;
  /** Stops the engine: in-flight work is aborted and the journal stays as a crash leaves it, so a restart resumes. */
  stop(): Promise<void>;
  /** Stops the engine, closes the store and drops the directory's lock. */
  close(): Promise<void>;
}

export interface WorkspaceOptions {
  identity: CloudIdentity;
  /** The capabilities whose workflows and services this workspace runs. */
  capabilities: readonly Capability<unknown>[];
  dir: string;
  logger: Logger;
  /** Multiplies every polling interval (the sandbox's fast clock needs short ones). */
  pollTimeScale: number;
  /** Deadlines of AWS and Kubernetes calls (defaults: 10 s to connect, 30 s per call). */
  cloudTimeouts?: Partial<CloudTimeouts>;
  /** The directory's lock when the caller already took it (the serve command, before it starts the embedded sandbox). */
  lock?: DirectoryLock;
  /** How long finished operations and their logs are kept (default: DEFAULT_RETENTION, src/store/retention.ts). */
  retention?: RetentionPolicy;
  /** Told of every AWS request and Kubernetes apply the workspace's cloud sends (src/cloud/observer.ts). */
  cloudObserver?: CloudObserver;
}

/**
 * Opens the workspace of one cloud and account: takes the directory's one-server lock (throws
 * DirectoryInUseError naming the other server), opens its journal and registers the workflows. The
 * caller subscribes to the engine's events, then calls `engine.resume()`, which continues the unfinished
 * operations recorded for this cloud and account (and leaves any other's alone).
 */
export function openWorkspace({
  identity,
  capabilities,
  dir,
  logger,
  pollTimeScale,
  cloudTimeouts,
  lock: heldLock,
  retention,
  cloudObserver,
}: WorkspaceOptions): Workspace {
  const lock = heldLock ?? lockDirectory(dir);
  let stores: ReturnType<typeof openStores> | undefined;
  let pruning: RetentionSchedule;
  try {
    stores = openStores(dir);
    const journal = stores.operations;
    pruning = new RetentionSchedule({
      retention: new OperationsRetention(stores.db, retention, undefined, (ids) => journal.forget(ids)),
      logger: logger.child({ component: 'retention' }),
    });
  } catch (err) {
    stores?.close();
    lock.release();
    throw err;
  }
  // Clients built after the identity check, so they see the credentials that check found.
  const clients = new AwsClients({
    defaultRegion: identity.region,
    ...(cloudTimeouts ? { timeouts: cloudTimeouts } : {}),
    observer: bothObservers(auditObserver(stores.audit), cloudObserver),
  });
  const cloud = new Cloud(clients);
  const engine = new OperationEngine<OperationInputs>({
    kinds: OPERATION_KINDS,
    store: stores.operations,
    logger: logger.child({ component: 'engine' }),
    polling: { minIntervalMs: 1000, maxIntervalMs: 30_000, timeScale: pollTimeScale },
    owner: identity,
  });
  const ports = capabilityPorts(stores, clients);
  ports.check(capabilities);
  // Every kind of OPERATION_KINDS gets exactly one workflow, and every workflow is one of them (else: a programming
  // error, at start-up).
  engine.registerAll(
    capabilities.flatMap((capability) => capability.workflows?.({ cloud, ...ports.of(capability) }) ?? []),
  );

  // The routes' and views' narrow view of the engine (a repeat create finds its operation by key or target). The
  // operations it answers carry where to follow them (src/api/operation-links.ts): the engine names no URL or tool.
  const operations: ServiceOperations = {
    start: (kind, input, opts) => {
      const started = engine.start(kind, input, opts);
      return { operation: withStatusLinks(started.operation), existing: started.existing };
    },
    get: (id) => withStatusLinks(engine.get(id)),
    list: (query) => engine.list(query).map(withStatusLinks),
    events: (id, after, limit) => engine.events(id, after, limit),
    retryPhase: (id, phase) => withStatusLinks(engine.retryPhase(id, phase)),
    cancel: (id) => withStatusLinks(engine.cancel(id)),
    waitFor: async (id, ms) => withStatusLinks(await engine.waitFor(id, ms)),
    on: (event: 'operation' | 'log', listener: (...args: never[]) => void) => engine.on(event, listener as never),
    off: (event: string, listener: (...args: never[]) => void) => engine.off(event as 'operation', listener as never),
    activeFor: (target) => {
      const active = engine.activeFor(target)[0];
      return active && withStatusLinks(active);
    },
    byIdempotencyKey: (key) => {
      const found = stores.operations.findByIdempotencyKey(key);
      return found ? withStatusLinks(engine.get(found.id)) : undefined;
    },
    latestPerTarget: (kinds) => engine.latestPerTarget(kinds).map(withStatusLinks),
  };
  const services = new CapabilityServices(capabilities, { cloud, defaultRegion: identity.region, operations }, ports);
  logger.info(
    { cloud: identity.cloud, accountId: identity.accountId, dataDir: dir },
    'opened the data directory of this cloud and account',
  );
  pruning.start();
  return {
    identity,
    dir,
    engine,
    operations,
    idempotencyKeys: stores.idempotency,
    audit: stores.audit,
    service: (key) => services.get(key),
    announce: (url) => lock.announce(url),
    async stop() {
      await engine.stop();
      await pruning.stop();
    },
    async close() {
      try {
        await engine.stop();
        await pruning.stop();
        stores.close();
      } finally {
        lock.release();
      }
    },
  };
}

/**
 * Each capability's own ports (Capability.ports), built from this workspace's stores and clients: the one place that
 * says which store answers which capability's port.
 */
function capabilityPorts(stores: Stores, clients: AwsClients): SuppliedPorts {
  const awsCatalog = new AwsCatalog(clients);
  const activeCluster: ActiveClusterPort = {
    get: () => stores.settings.getSetting<{ name: string; region: string }>('active-cluster'),
    set: (value) =>
      value
        ? stores.settings.setSetting('active-cluster', value)
        : void stores.settings.deleteSetting('active-cluster'),
  };
  return new SuppliedPorts([
    supplyPorts(catalog, { catalog: awsCatalog }),
    supplyPorts(clusters, { activeCluster, keptStorages: stores.keptStorages, mlflowLinks: stores.training }),
    supplyPorts(storage, { keptStorages: stores.keptStorages }),
    supplyPorts(training, { training: stores.training, catalog: awsCatalog }),
    supplyPorts(inference, { catalog: awsCatalog }),
    supplyPorts(audit, { auditLog: stores.audit }),
  ]);
}

/**
 * Each capability's service, built on first use so that services can use each other's in any order
 * (a cycle would recurse, and is a design error to fix, not to work around).
 */
class CapabilityServices {
  private readonly built = new Map<string, unknown>();
  private readonly byName: ReadonlyMap<string, Capability<unknown>>;

  constructor(
    capabilities: readonly Capability<unknown>[],
    private readonly deps: Omit<ServiceDeps, 'service'>,
    private readonly ports: SuppliedPorts,
  ) {
    this.byName = new Map(capabilities.map((c) => [c.name, c]));
  }

  get<S>(key: ServiceKey<S>): S {
    if (this.built.has(key.name)) return this.built.get(key.name) as S;
    const capability = this.byName.get(key.name);
    if (!capability?.service)
      throw new Error(`No capability '${key.name}' with a service is registered in this workspace.`);
    const service = capability.service({
      ...this.deps,
      ...this.ports.of(capability),
      service: (other) => this.get(other),
    });
    this.built.set(key.name, service);
    return service as S;
  }
}
