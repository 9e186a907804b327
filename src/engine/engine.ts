import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { canonicalJson } from '../domain/canonical-json.js';
import { ConflictError, InputError, NotFoundError } from '../domain/errors.js';
import { foreignOperationReason, type CloudIdentity, type OperationPlace } from '../domain/operation-owner.js';
import type { LogLine, OperationStatus, OperationView } from '../domain/schemas/operations.js';
import type { OperationEntry, OperationRecord, OperationsStore } from '../store/operations-store.js';
import { OperationJournal } from './journal.js';
import { EngineStoppedError } from './failures.js';
import { finishCancelled, runOperation, type EngineLogger, type Run, type RunEnd, type RunMode } from './operation-runner.js';
import { resolvePolling, SharedPoller, type PollingOptions } from './poller.js';
import { DEFAULT_STORE_PROBE, StorePauses, type StoreProbeOptions } from './store-pauses.js';
import { isTerminal, toOperationView } from './views.js';
import type { AnyWorkflow } from './workflow.js';

export type { EngineLogger } from './operation-runner.js';
export type { StoreProbeOptions } from './store-pauses.js';

export interface OperationEngineOptions {
  /** The journal (src/store). The engine never closes it. */
  store: OperationsStore;
  /** pino-like; silent when omitted. */
  logger?: EngineLogger;
  /** Await cadence; see poller.ts. Defaults: 1000 ms … 30000 ms, timeScale 1. */
  polling?: Partial<PollingOptions>;
  now?: () => Date;
  idFactory?: () => string;
  /** Source of jitter (tests pin it). */
  random?: () => number;
  /**
   * How often to probe a store that cannot be written (then resume the paused operations): doubling
   * from `minIntervalMs` to `maxIntervalMs`. Defaults: 1000 ms … 30000 ms.
   */
  storeProbe?: Partial<StoreProbeOptions>;
  /**
   * The cloud and account this server acts on. Every new operation records it (with its Region), and an
   * operation recorded for another cloud or account is never resumed, retried or cancelled here.
   * Omitted (unit tests of the engine alone): nothing is recorded or checked.
   */
  owner?: CloudIdentity;
}

export interface StartResult {
  operation: OperationView;
  /** True when an operation for the same idempotency key or target was returned instead of a new one. */
  existing: boolean;
}

export interface ListOperationsFilter {
  status?: OperationStatus;
  kind?: string;
  target?: string;
  limit?: number;
}

export interface OperationEvents {
  operation: [OperationView];
  log: [{ operationId: string; line: LogLine }];
}

const SILENT: EngineLogger = { info() {}, warn() {}, error() {} };

/**
 * Durable operations (ARCHITECTURE.md → Operations): every phase state is journaled before it is
 * entered, so after a crash `resume()` continues each unfinished operation by observing, never by
 * mutating blindly. Emits `'operation'` (OperationView) after every change and `'log'` per log line.
 * When the journal itself cannot be written, operations pause (store-pauses.ts) instead of failing
 * or turning into zombies, and resume the same way, by observing, once it can.
 *
 * @example
 * const stores = openStores('.instantstart');
 * const engine = new OperationEngine({ store: stores.operations, logger });
 * engine.register(createClusterWorkflow(deps));
 * engine.resume();
 * const { operation } = engine.start('create-cluster', input, { idempotencyKey });
 * const final = await engine.waitFor(operation.id, 30_000);
 */
export class OperationEngine extends EventEmitter<OperationEvents> {
  private readonly store: OperationsStore;
  private readonly logger: EngineLogger;
  private readonly polling: PollingOptions;
  private readonly now: () => Date;
  private readonly idFactory: () => string;
  private readonly random: () => number;
  private readonly owner: CloudIdentity | undefined;
  private readonly poller: SharedPoller;
  private readonly workflows = new Map<string, AnyWorkflow>();
  private readonly runs = new Map<string, Run & { done: Promise<void> }>();
  private readonly waiters = new Map<string, Set<(view: OperationView, force?: boolean) => void>>();
  /** Operations paused because the store could not be written (in memory: the journal is what failed). */
  private readonly paused: StorePauses;
  private stopped = false;

  constructor({
    store,
    logger = SILENT,
    polling,
    now = () => new Date(),
    idFactory = () => `op-${randomUUID()}`,
    random = Math.random,
    storeProbe,
    owner,
  }: OperationEngineOptions) {
    super();
    this.store = store;
    this.logger = logger;
    this.polling = resolvePolling(polling);
    this.now = now;
    this.idFactory = idFactory;
    this.random = random;
    this.owner = owner;
    this.poller = new SharedPoller({ freshForMs: this.polling.minIntervalMs * this.polling.timeScale, nowMs: () => this.now().getTime() });
    this.paused = new StorePauses({
      store,
      logger,
      now,
      random,
      probe: { ...DEFAULT_STORE_PROBE, ...storeProbe },
      relaunch: (id, note) => this.launch(id, 'unpause', note),
      publish: (id) => this.publish(id),
    });
  }

  /** Makes a workflow kind startable (and resumable). Registering a kind twice is a programming error. */
  register(workflow: AnyWorkflow): void {
    if (this.workflows.has(workflow.kind)) throw new Error(`Workflow '${workflow.kind}' is already registered.`);
    const names = new Set(workflow.phases.map((p) => p.name));
    if (names.size !== workflow.phases.length) throw new Error(`Workflow '${workflow.kind}' has two phases with the same name.`);
    this.workflows.set(workflow.kind, workflow);
  }

  /**
   * Starts an operation, or returns the one that already answers this request: the operation with
   * the same idempotency key (whatever its status), else a running operation on the same target
   * whose kind conflicts with this one. ConflictError (naming `Idempotency-Key`) when the key was
   * used for another kind or another input: a key names one request, never two.
   * StoreUnavailableError when the journal cannot be written (nothing starts).
   */
  start(kind: string, input: Record<string, unknown>, { idempotencyKey }: { idempotencyKey?: string } = {}): StartResult {
    this.assertRunning();
    const workflow = this.workflows.get(kind);
    if (!workflow) throw new InputError(`Unknown operation kind '${kind}'. Known kinds: ${[...this.workflows.keys()].join(', ') || 'none'}.`);
    const target = workflow.target(input);
    const found = this.store.transaction((): { record: OperationRecord; existing: boolean; accepted?: LogLine } => {
      if (idempotencyKey !== undefined) {
        const same = this.store.findByIdempotencyKey(idempotencyKey);
        if (same) {
          assertSameRequest(idempotencyKey, same, kind, input);
          return { record: same, existing: true };
        }
      }
      const running = this.conflictingOperation(workflow, target);
      if (running) return { record: running, existing: true };
      const createdAt = this.now().toISOString();
      const record = this.store.createOperation(
        {
          id: this.idFactory(), kind, target, status: 'pending', input, state: workflow.initialState(input) as Record<string, unknown>, createdAt,
          ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
          ...this.placeOf(input),
        },
        workflow.phases.map((p) => ({ name: p.name, title: p.title, expectedSeconds: p.expectedSeconds })),
      );
      // In the same transaction: an operation is in the journal with its first line, or not at all.
      const accepted = this.store.appendLog(record.id, { at: createdAt, level: 'info', message: `Operation ${kind} on ${target} accepted.` });
      return { record, existing: false, accepted };
    });
    if (!found.existing) {
      this.paused.written();
      this.safeEmit('log', { operationId: found.record.id, line: found.accepted! });
      this.publish(found.record.id);
      this.launch(found.record.id, 'start');
      this.logger.info({ operationId: found.record.id, kind, target }, 'operation started');
    }
    return { operation: this.get(found.record.id), existing: found.existing };
  }

  /** The operation's current view; NotFoundError when there is none with this id. */
  get(id: string): OperationView {
    const entry = this.store.readOperation(id);
    if (!entry) throw new NotFoundError('operation', id);
    return this.view(entry);
  }

  /** Operations matching the filter, newest first (default limit 50). */
  list(filter: ListOperationsFilter = {}): OperationView[] {
    return this.store.readOperations(filter).map((entry) => this.view(entry));
  }

  /**
   * For each target, the view of its newest operation of one of `kinds` (oldest target first): e.g.
   * every cluster's last create-cluster or delete-cluster.
   */
  latestPerTarget(kinds: readonly string[]): OperationView[] {
    return this.store.readLatestPerTarget(kinds).map((entry) => this.view(entry));
  }

  /** Log lines with seq > after; `nextAfter` is the value to pass next time. */
  events(id: string, after = 0, limit = 200): { lines: LogLine[]; nextAfter: number } {
    this.record(id);
    const lines = this.store.logLines(id, after, limit);
    return { lines, nextAfter: lines.at(-1)?.seq ?? after };
  }

  /** Operations not yet terminal on this target, newest first. */
  activeFor(target: string): OperationView[] {
    return this.store.readActive(target).reverse().map((entry) => this.view(entry));
  }

  /**
   * Runs a failed operation's failed phases again (one more attempt each, each observing first), in
   * order, then the phases after them; completed phases are not repeated. Usually one phase failed;
   * when teardown phases went on past failures (onFailure: 'continue') several did, and naming any of
   * them retries them all — a teardown is only done when every step is. ConflictError when the
   * operation is not failed, the phase is not a failed one, or another operation now works on the
   * same target.
   */
  retryPhase(id: string, phaseName: string): OperationView {
    this.assertRunning();
    const op = this.record(id);
    this.assertOwned(op);
    const phase = this.store.getPhase(id, phaseName);
    if (!phase) throw new NotFoundError('phase', phaseName, `Operation ${id} has no phase '${phaseName}'.`);
    if (op.status !== 'failed') throw new ConflictError(`Operation ${id} is ${op.status}; only a failed operation can have a phase retried.`);
    const failed = this.store.listPhases(id).filter((p) => p.status === 'failed');
    if (phase.status !== 'failed') {
      const names = failed.map((p) => `'${p.name}'`);
      throw new ConflictError(
        failed.length === 0
          ? `Operation ${id} failed outside its phases (${op.error?.code ?? 'unknown'}); no phase can be retried — start a new operation.`
          : failed.length === 1
            ? `Phase '${phaseName}' is ${phase.status}, not failed; retry the failed phase ${names[0]} instead.`
            : `Phase '${phaseName}' is ${phase.status}, not failed; retry one of the failed phases ${names.join(', ')} (all of them run again, in order).`,
      );
    }
    const workflow = this.workflows.get(op.kind);
    if (!workflow) throw new ConflictError(`This server cannot run '${op.kind}' operations, so it cannot retry this one.`);
    const running = this.conflictingOperation(workflow, op.target);
    if (running) throw new ConflictError(`Operation ${running.id} (${running.kind}) is working on ${op.target}; retry after it finishes.`);
    const journal = this.journal(id);
    const [first, ...later] = failed;
    journal.together(() => {
      // The first failed phase starts now (its attempt counts at once); later ones count theirs when reached.
      journal.phase(first!.name, { status: 'observing', attempts: first!.attempts + 1, startedAt: journal.timestamp(), finishedAt: null, error: null, progress: null });
      for (const p of later) journal.phase(p.name, { status: 'pending', finishedAt: null, error: null, progress: null });
      journal.operation({ status: 'running', error: null, finishedAt: null });
      journal.log(
        'info',
        later.length === 0
          ? `Retrying ${first!.title} (attempt ${first!.attempts + 1}): observing actual state first.`
          : `Retrying the ${failed.length} failed phases in order (${failed.map((p) => p.name).join(', ')}), each observing actual state first.`,
        first!.name,
      );
    });
    this.launch(id, 'retry');
    return this.get(id);
  }

  /**
   * Cancels a running operation: the phase in flight is aborted through ctx.signal and the status goes
   * cancelling → cancelled. ConflictError when the operation already ended.
   */
  cancel(id: string): OperationView {
    this.assertRunning();
    const op = this.record(id);
    if (isTerminal(op.status)) throw new ConflictError(`Operation ${id} already ${op.status}; there is nothing to cancel.`);
    this.assertOwned(op);
    const run = this.runs.get(id);
    const journal = this.journal(id);
    if (!run) {
      // Not running in this process (before resume(), or paused on the store): nothing to abort.
      finishCancelled(journal, this.store, id);
      this.paused.forget(id);
    } else if (!run.cancelRequested) {
      journal.together(() => {
        journal.operation({ status: 'cancelling' });
        journal.log('warn', 'Cancellation requested.');
      });
      run.cancelRequested = true;
      run.controller.abort(new Error(`Operation ${id} was cancelled.`));
    }
    return this.get(id);
  }

  /** Resolves with the view once the operation is terminal, or with its current view after `timeoutMs`. */
  waitFor(id: string, timeoutMs: number): Promise<OperationView> {
    const current = this.get(id);
    if (isTerminal(current.status) || this.stopped) return Promise.resolve(current);
    return new Promise((resolve) => {
      const set = this.waiters.get(id) ?? new Set();
      this.waiters.set(id, set);
      const settle = (view: OperationView, force = false) => {
        if (!force && !isTerminal(view.status)) return;
        clearTimeout(timer);
        set.delete(settle);
        if (set.size === 0 && this.waiters.get(id) === set) this.waiters.delete(id);
        resolve(view);
      };
      const timer = setTimeout(() => settle(this.get(id), true), Math.max(0, timeoutMs));
      set.add(settle);
    });
  }

  /**
   * Continues every unfinished operation after a restart; each starts its current phase again at
   * observe. Operations of kinds not registered here, or recorded for another cloud or account than
   * this server's, are left untouched (and logged). Returns the operations it resumed.
   */
  resume(): OperationView[] {
    this.assertRunning();
    const resumed: OperationView[] = [];
    for (const op of this.store.listActive()) {
      if (this.runs.has(op.id) || this.paused.has(op.id)) continue;
      if (!this.workflows.has(op.kind)) {
        this.logger.warn({ operationId: op.id, kind: op.kind }, 'cannot resume an operation of an unregistered kind');
        continue;
      }
      const foreign = this.foreignReason(op);
      if (foreign) {
        this.logger.warn({ operationId: op.id, cloud: op.cloud ?? null, accountId: op.accountId ?? null }, `not resuming: ${foreign}`);
        continue;
      }
      if (op.status === 'cancelling') finishCancelled(this.journal(op.id), this.store, op.id);
      else this.launch(op.id, 'resume');
      resumed.push(this.get(op.id));
    }
    if (resumed.length > 0) this.logger.info({ count: resumed.length }, 'resumed operations');
    return resumed;
  }

  /**
   * Aborts all in-flight work and timers without writing to the journal — exactly what a crash
   * leaves behind, so a new engine on the same database resumes. Resolves once every loop exited.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.paused.stop();
    const runs = [...this.runs.values()];
    for (const run of runs) run.controller.abort(new EngineStoppedError());
    await Promise.allSettled(runs.map((r) => r.done));
    for (const [id, set] of this.waiters) {
      const view = this.get(id);
      for (const settle of [...set]) settle(view, true);
    }
  }

  private launch(id: string, mode: RunMode, note?: string): void {
    const run = { operationId: id, controller: new AbortController(), cancelRequested: false, ...(note === undefined ? {} : { note }) } as Run & { done: Promise<void> };
    const deps = {
      store: this.store,
      journalFor: (operationId: string) => this.journal(operationId),
      workflow: (kind: string) => this.workflows.get(kind),
      polling: this.polling,
      poller: this.poller,
      random: this.random,
      nowMs: () => this.now().getTime(),
      logger: this.logger,
    };
    run.done = runOperation(deps, run, mode).then((end: RunEnd) => {
      if (this.runs.get(id) === run) this.runs.delete(id);
      if (end.paused) {
        run.controller.abort(new Error(`Operation ${id} paused: the store cannot be written.`)); // stray work stops
        if (!this.stopped) this.paused.pause(id, end.paused);
      }
    });
    this.runs.set(id, run);
  }

  /** A non-terminal operation on `target` that must not run beside `workflow` (either side may declare it). */
  private conflictingOperation(workflow: AnyWorkflow, target: string): OperationRecord | undefined {
    const mine = workflow.conflictsWith ?? [workflow.kind];
    return this.store.listActive(target).find((other) => {
      const theirs = this.workflows.get(other.kind)?.conflictsWith ?? [other.kind];
      return mine.includes(other.kind) || theirs.includes(workflow.kind);
    });
  }

  private journal(id: string): OperationJournal {
    return new OperationJournal(
      {
        store: this.store,
        now: this.now,
        changed: (operationId) => {
          this.paused.written();
          this.publish(operationId);
        },
        logged: (operationId, line) => {
          this.paused.written();
          this.safeEmit('log', { operationId, line });
        },
        halted: () => this.stopped,
      },
      id,
    );
  }

  private publish(id: string): void {
    const view = this.get(id);
    this.safeEmit('operation', view);
    for (const settle of [...(this.waiters.get(id) ?? [])]) settle(view);
  }

  /** A listener that throws must not fail the operation it listens to. */
  private safeEmit<K extends keyof OperationEvents>(event: K, ...args: OperationEvents[K]): void {
    try {
      (this.emit as (e: K, ...a: OperationEvents[K]) => boolean)(event, ...args);
    } catch (err) {
      this.logger.error({ err, event }, 'an operation event listener threw');
    }
  }

  private record(id: string): OperationRecord {
    const op = this.store.getOperation(id);
    if (!op) throw new NotFoundError('operation', id);
    return op;
  }

  private view({ operation, phases }: OperationEntry): OperationView {
    return toOperationView(operation, phases, this.now(), this.paused.get(operation.id));
  }

  /** The cloud, account and Region a new operation acts in: its input's Region, else the server's default. */
  private placeOf(input: Record<string, unknown>): OperationPlace {
    if (!this.owner) return {};
    const region = typeof input.region === 'string' && input.region ? input.region : this.owner.region;
    return { cloud: this.owner.cloud, accountId: this.owner.accountId, region };
  }

  private foreignReason(op: OperationRecord): string | undefined {
    return this.owner && foreignOperationReason(op.id, op, this.owner);
  }

  /** Refuses (409) to touch an operation that belongs to another cloud or account. */
  private assertOwned(op: OperationRecord): void {
    const foreign = this.foreignReason(op);
    if (foreign) throw new ConflictError(foreign);
  }

  private assertRunning(): void {
    if (this.stopped) throw new Error('The operation engine has stopped; create a new one to continue.');
  }
}

/**
 * A repeat under the same Idempotency-Key must be the same request: same kind and the same validated
 * input (compared in canonical JSON: both went through the same schema), or it is refused naming the
 * key and the operation that holds it — returning the first operation would silently drop the second
 * request.
 */
function assertSameRequest(key: string, same: OperationRecord, kind: string, input: Record<string, unknown>): void {
  if (same.kind !== kind) {
    throw new ConflictError(`Idempotency key '${key}' was already used for ${same.kind} operation ${same.id}; use a new key for a different request.`, 'Idempotency-Key');
  }
  if (canonicalJson(same.input) !== canonicalJson(input)) {
    throw new ConflictError(
      `Idempotency key '${key}' was already used for ${same.kind} operation ${same.id} on ${same.target} with a different request body; send the same body to get that operation back, or use a new key for a different request.`,
      'Idempotency-Key',
    );
  }
}
