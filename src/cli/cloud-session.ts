import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { Capability } from '../capabilities/capability.js';
import type { ApiContext, CloudAccessState, OperationsApi, ServerConfig } from '../api/context.js';
import { checkCallerIdentity, type CloudObserver, type CloudTimeouts } from '../cloud/index.js';
import { UnavailableError } from '../domain/errors.js';
import type { CloudIdentity } from '../domain/operation-owner.js';
import type { CloudAccessProblem } from '../domain/schemas/config.js';
import type { CloudKind } from '../domain/schemas/operations.js';
import { DirectoryInUseError, type DirectoryLock } from '../store/directory-lock.js';
import type { RetentionPolicy } from '../store/retention.js';
import { workspaceDirectory } from './data-layout.js';
import { openWorkspace, type Workspace } from './workspace.js';

export interface CloudSessionOptions {
  cloud: CloudKind;
  /** The capabilities each account's workspace runs (src/capabilities/index.ts). */
  capabilities: readonly Capability<unknown>[];
  region: string;
  dataDir: string;
  logger: Logger;
  pollTimeScale: number;
  /** Deadlines of AWS and Kubernetes calls (the identity check's too). */
  cloudTimeouts?: Partial<CloudTimeouts>;
  /** A lock the caller already holds (the sandbox's directory, taken before the embedded sandbox started). */
  heldLock?: DirectoryLock;
  /** How long finished operations and their logs are kept (default: src/store/retention.ts). */
  retention?: RetentionPolicy;
  /** Told of every AWS request and Kubernetes apply (src/cloud/observer.ts). */
  cloudObserver?: CloudObserver;
  now?: () => Date;
}

/**
 * Which account the server acts in decides which data directory it opens, so nothing account-bound
 * exists until STS has said who we are. Until then (no or bad credentials) the server still serves its
 * UI and `/api/v1/config`, and every request that needs the cloud answers 503 with what to do. When a
 * later check succeeds (the UI's "Check again"), the account's directory is opened, its operations are
 * resumed, and the server works normally — no restart.
 */
export class CloudSession {
  /** Operation changes and log lines of whichever workspace is open (the WebSocket subscribes once). */
  readonly events = new EventEmitter();
  private workspace: Workspace | undefined;
  private problem: CloudAccessProblem | undefined;
  private checkedAt: string;
  private checking: Promise<CloudAccessState> | undefined;
  private url: string | undefined;
  private closed = false;
  private readonly now: () => Date;

  constructor(private readonly options: CloudSessionOptions) {
    this.now = options.now ?? (() => new Date());
    this.checkedAt = this.now().toISOString();
    this.events.setMaxListeners(0);
  }

  /** The account (once known) and whether the server can act on it. */
  state(): CloudAccessState {
    return {
      accountId: this.workspace?.identity.accountId ?? null,
      access: {
        ready: this.workspace !== undefined,
        checkedAt: this.checkedAt,
        ...(this.problem ? { problem: this.problem } : {}),
      },
    };
  }

  /**
   * Checks the identity (STS GetCallerIdentity) and opens that account's workspace; once open it stays
   * open for the life of the server. Concurrent calls share one check.
   */
  connect(): Promise<CloudAccessState> {
    if (this.workspace || this.closed) return Promise.resolve(this.state());
    this.checking ??= this.check().finally(() => (this.checking = undefined));
    return this.checking;
  }

  /** The open workspace, or the 503 that says why there is none and what to do. */
  /** The open workspace, or undefined while the cloud is unavailable. */
  current(): Workspace | undefined {
    return this.workspace;
  }

  require(): Workspace {
    if (this.workspace) return this.workspace;
    const p = this.problem ?? {
      code: 'NotChecked',
      message: 'The server has not checked its cloud credentials yet.',
      remedy: 'Try again in a moment.',
    };
    throw new UnavailableError({ message: p.message, code: p.code, remedy: p.remedy });
  }

  /** Records the server's URL in the open workspace's lock (and in any opened later). */
  announce(url: string): void {
    this.url = url;
    this.workspace?.announce(url);
  }

  /** Stops the open workspace's engine (requests still answer from the journal until `close()`). */
  async stop(): Promise<void> {
    this.closed = true;
    await this.checking?.catch(() => undefined);
    await this.workspace?.stop();
  }

  /** Stops the engine, closes the journal and releases the data directory. */
  async close(): Promise<void> {
    this.closed = true;
    await this.checking?.catch(() => undefined);
    await this.workspace?.close();
    this.workspace = undefined;
  }

  private async check(): Promise<CloudAccessState> {
    const { cloud, region, dataDir, logger } = this.options;
    const result = await checkCallerIdentity(region, this.options.cloudTimeouts);
    this.checkedAt = this.now().toISOString();
    if (this.closed) return this.state();
    if (!result.ok) {
      this.problem = result.problem;
      logger.warn({ code: result.problem.code }, `${result.problem.message} (GET /api/v1/config says what to do)`);
      return this.state();
    }
    const identity: CloudIdentity = { cloud, accountId: result.identity.accountId, region };
    const dir = workspaceDirectory(dataDir, identity);
    try {
      const heldLock = this.options.heldLock?.dir === dir ? this.options.heldLock : undefined;
      this.workspace = openWorkspace({
        identity,
        capabilities: this.options.capabilities,
        dir,
        logger,
        pollTimeScale: this.options.pollTimeScale,
        cloudTimeouts: this.options.cloudTimeouts,
        retention: this.options.retention,
        cloudObserver: this.options.cloudObserver,
        ...(heldLock ? { lock: heldLock } : {}),
      });
    } catch (err) {
      if (!(err instanceof DirectoryInUseError)) throw err;
      this.problem = {
        code: 'DataDirectoryInUse',
        message: err.message,
        remedy: 'Stop the other server, or start this one with another --data-dir; then Check again.',
      };
      logger.warn({ dataDir: dir }, err.message);
      return this.state();
    }
    this.problem = undefined;
    const engine = this.workspace.engine;
    engine.on('operation', (view) => this.events.emit('operation', view));
    engine.on('log', (line) => this.events.emit('log', line));
    if (this.url) this.workspace.announce(this.url);
    const resumed = engine.resume();
    logger.info(
      { cloud, accountId: identity.accountId, dataDir: dir, resumed: resumed.length },
      'acting in this account',
    );
    return this.state();
  }
}

/**
 * The HTTP layer's context over a session: every cloud-bound part reads the open workspace when a
 * request arrives, so requests made before the credentials work answer 503 (UnavailableError) and the
 * same requests work once they do. Validation still runs first, so bad input stays a 4xx.
 */
export function sessionApiContext(session: CloudSession, config: ServerConfig): ApiContext {
  const ws = () => session.require();
  const operations: OperationsApi = {
    start: (kind, input, options) => ws().operations.start(kind, input, options),
    get: (id) => ws().operations.get(id),
    byIdempotencyKey: (key) => ws().operations.byIdempotencyKey(key),
    activeFor: (target) => ws().operations.activeFor(target),
    list: (query) => ws().operations.list(query),
    events: (id, after, limit) => ws().operations.events(id, after, limit),
    retryPhase: (id, phase) => ws().operations.retryPhase(id, phase),
    cancel: (id) => ws().operations.cancel(id),
    waitFor: (id, ms) => ws().operations.waitFor(id, ms),
    on: (event: string, listener: (...args: never[]) => void) =>
      session.events.on(event, listener as (...args: unknown[]) => void),
    off: (event: string, listener: (...args: never[]) => void) =>
      session.events.off(event, listener as (...args: unknown[]) => void),
  };
  return {
    config,
    cloudAccess: () => session.state(),
    checkCloudAccess: () => session.connect(),
    operations,
    idempotencyKeys: {
      find: (key) => ws().idempotencyKeys.find(key),
      begin: (record) => ws().idempotencyKeys.begin(record),
      answer: (key, status, answer, operationId) => ws().idempotencyKeys.answer(key, status, answer, operationId),
      promise: (key, answer) => ws().idempotencyKeys.promise(key, answer),
      forget: (key) => ws().idempotencyKeys.forget(key),
    },
    service: (key) => ws().service(key),
    audit: () => session.current()?.audit,
  };
}
