import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { ConflictError, InputError } from '../domain/errors.js';
import { foreignOperationReason, type CloudIdentity } from '../domain/operation-owner.js';
import type { LogLine, OperationSnapshot } from '../domain/schemas/operations.js';
import type { OperationRecord, OperationsStore } from '../store/operations-store.js';
import type {
  KindInputs,
  ListOperationsFilter,
  OperationEngineOptions,
  OperationEvents,
  StartResult,
} from './engine-options.js';
import { OperationJournal } from './journal.js';
import type { EngineLogger } from './engine-logger.js';
import { finishCancelled } from './operation-endings.js';
import type { RunMode } from './operation-runner.js';
import { OperationRuns } from './operation-runs.js';
import { SharedPoller } from './poller.js';
import { resolvePolling } from './polling.js';
import { journalRetry } from './retry-phases.js';
import { findOrJournalOperation, parseInput } from './start-operation.js';
import { DEFAULT_STORE_PROBE, StorePauses } from './store-pauses.js';
import { OperationReads } from './operation-reads.js';
import { OperationWaiters } from './operation-waiters.js';
import { isTerminal } from './views.js';
import type { AnyWorkflow } from './workflow.js';
import { WorkflowRegistry } from './workflow-registry.js';

export type { EngineLogger } from './engine-logger.js';
export type { StoreProbeOptions } from './store-pauses.js';
export type {
  InputSchema,
  KindInputs,
  ListOperationsFilter,
  OperationEngineOptions,
  OperationEvents,
  StartResult,
} from './engine-options.js';

const SILENT: EngineLogger = { info() {}, warn() {}, error() {} };

/**
 * Durable operations (ARCHITECTURE.md → Operations): every phase state is journaled before it is
 * entered, so after a crash `resume()` continues each unfinished operation by observing, never by
 * mutating blindly. Emits `'operation'` (OperationSnapshot) after every change and `'log'` per log line.
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
export class OperationEngine<
  M extends KindInputs = Record<string, Record<string, unknown>>,
> extends EventEmitter<OperationEvents> {
  private readonly kinds: OperationEngineOptions<M>['kinds'];
  private readonly store: OperationsStore;
  private readonly logger: EngineLogger;
  private readonly now: () => Date;
  private readonly idFactory: () => string;
  private readonly owner: CloudIdentity | undefined;
  private readonly workflows: WorkflowRegistry;
  private readonly runs: OperationRuns;
  private readonly waiters = new OperationWaiters();
  private readonly reads: OperationReads;
  /** Operations paused because the store could not be written (in memory: the journal is what failed). */
  private readonly paused: StorePauses;
  private stopped = false;

  constructor({
    kinds,
    store,
    logger = SILENT,
    polling,
    now = () => new Date(),
    idFactory = () => `op-${randomUUID()}`,
    random = Math.random,
    storeProbe,
    owner,
  }: OperationEngineOptions<M>) {
    super();
    this.kinds = kinds;
    this.workflows = new WorkflowRegistry(kinds);
    this.store = store;
    this.logger = logger;
    this.now = now;
    this.idFactory = idFactory;
    this.owner = owner;
    const resolved = resolvePolling(polling);
    this.runs = new OperationRuns(
      {
        store,
        journalFor: (operationId) => this.journal(operationId),
        workflow: (kind) => this.workflows.get(kind),
        needs: (kind) => this.workflows.needs(kind),
        polling: resolved,
        poller: new SharedPoller({
          freshForMs: resolved.minIntervalMs * resolved.timeScale,
          nowMs: () => now().getTime(),
        }),
        random,
        nowMs: () => now().getTime(),
        logger,
      },
      (id, err) => {
        if (!this.stopped) this.paused.pause(id, err);
      },
    );
    this.paused = new StorePauses({
      store,
      logger,
      now,
      random,
      probe: { ...DEFAULT_STORE_PROBE, ...storeProbe },
      relaunch: (id, note) => this.launch(id, 'unpause', note),
      publish: (id) => this.publish(id),
    });
    this.reads = new OperationReads({
      store,
      now,
      paused: (id) => this.paused.get(id),
      needs: (kind) => this.workflows.needs(kind),
    });
  }

  /**
   * Makes a workflow kind startable (and resumable). Programming errors throw: a kind registered twice,
   * a kind outside the engine's `kinds`, a phase graph that names unknown or later phases.
   */
  register(workflow: AnyWorkflow): void {
    this.workflows.register(workflow);
  }

  /** Registers every workflow, then checks that every kind of the engine's `kinds` has one. */
  registerAll(workflows: readonly AnyWorkflow[]): void {
    this.workflows.registerAll(workflows);
  }

  /**
   * Starts an operation, or returns the one that already answers this request: the operation with
   * the same idempotency key (whatever its status), else a running operation of the same kind on the
   * same target with the same input. ConflictError (naming `Idempotency-Key`) when the key was used
   * for another kind or another input: a key names one request, never two. OperationConflictError
   * (409, naming it) when a running operation holds a lock this one needs. InputError when the input
   * does not fit its kind's schema. StoreUnavailableError when the journal cannot be written (nothing
   * starts).
   */
  start<K extends keyof M & string>(
    kind: K,
    input: M[K],
    { idempotencyKey }: { idempotencyKey?: string } = {},
  ): StartResult {
    this.assertRunning();
    const workflow = this.workflows.get(kind);
    if (!workflow)
      throw new InputError({
        message: `Unknown operation kind '${kind}'. Known kinds: ${this.workflows.kindNames().join(', ') || 'none'}.`,
      });
    const parsed = parseInput(kind, input, this.kinds?.[kind]);
    const found = findOrJournalOperation(
      {
        store: this.store,
        workflow: (k) => this.workflows.get(k),
        now: this.now,
        idFactory: this.idFactory,
        owner: this.owner,
      },
      workflow,
      parsed,
      idempotencyKey,
    );
    if (!found.existing) {
      this.paused.written();
      this.safeEmit('log', { operationId: found.record.id, line: found.accepted! });
      this.publish(found.record.id);
      this.launch(found.record.id, 'start');
      this.logger.info({ operationId: found.record.id, kind, target: found.record.target }, 'operation started');
    }
    return { operation: this.get(found.record.id), existing: found.existing };
  }

  /** The operation's current view; NotFoundError when there is none with this id. */
  get(id: string): OperationSnapshot {
    return this.reads.get(id);
  }

  /** Operations matching the filter, newest first (default limit 50). */
  list(filter: ListOperationsFilter = {}): OperationSnapshot[] {
    return this.reads.list(filter);
  }

  /** For each target, the view of its newest operation of one of `kinds` (e.g. every cluster's last create or delete). */
  latestPerTarget(kinds: readonly string[]): OperationSnapshot[] {
    return this.reads.latestPerTarget(kinds);
  }

  /** Log lines with seq > after; `nextAfter` is the value to pass next time. */
  events(id: string, after = 0, limit = 200): { lines: LogLine[]; nextAfter: number } {
    return this.reads.events(id, after, limit);
  }

  /** Operations not yet terminal on this target, newest first. */
  activeFor(target: string): OperationSnapshot[] {
    return this.reads.activeFor(target);
  }

  /**
   * Runs a failed operation's failed phases again (one more attempt each, each observing first), in
   * order, then the phases after them; completed phases are not repeated. Usually one phase failed;
   * when teardown phases went on past failures (onFailure: 'continue') several did, and naming any of
   * them retries them all — a teardown is only done when every step is. ConflictError when the
   * operation is not failed, the phase is not a failed one, or another operation now works on the
   * same target.
   */
  retryPhase(id: string, phaseName: string): OperationSnapshot {
    this.assertRunning();
    const op = this.record(id);
    this.assertOwned(op);
    journalRetry(this.store, this.journal(id), op, phaseName, (kind) => this.workflows.get(kind));
    this.launch(id, 'retry');
    return this.get(id);
  }

  /**
   * Cancels a running operation: the phase in flight is aborted through ctx.signal and the status goes
   * cancelling → cancelled. ConflictError when the operation already ended.
   */
  cancel(id: string): OperationSnapshot {
    this.assertRunning();
    const op = this.record(id);
    if (isTerminal(op.status))
      throw new ConflictError({ message: `Operation ${id} already ${op.status}; there is nothing to cancel.` });
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
  waitFor(id: string, timeoutMs: number): Promise<OperationSnapshot> {
    const current = this.get(id);
    if (isTerminal(current.status) || this.stopped) return Promise.resolve(current);
    return this.waiters.wait(id, timeoutMs, () => this.get(id));
  }

  /**
   * Continues every unfinished operation after a restart; each starts its current phase again at
   * observe. Operations of kinds not registered here, or recorded for another cloud or account than
   * this server's, are left untouched (and logged). Returns the operations it resumed.
   */
  resume(): OperationSnapshot[] {
    this.assertRunning();
    const resumed: OperationSnapshot[] = [];
    for (const op of this.store.listActive()) {
      if (this.runs.has(op.id) || this.paused.has(op.id)) continue;
      if (!this.workflows.has(op.kind)) {
        this.logger.warn({ operationId: op.id, kind: op.kind }, 'cannot resume an operation of an unregistered kind');
        continue;
      }
      const foreign = this.foreignReason(op);
      if (foreign) {
        this.logger.warn(
          { operationId: op.id, cloud: op.cloud ?? null, accountId: op.accountId ?? null },
          `not resuming: ${foreign}`,
        );
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
    await this.runs.stopAll();
    this.waiters.releaseAll((id) => this.get(id));
  }

  private launch(id: string, mode: RunMode, note?: string): void {
    this.runs.launch(id, mode, note);
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
    this.waiters.changed(view);
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
    return this.reads.record(id);
  }

  private foreignReason(op: OperationRecord): string | undefined {
    return this.owner && foreignOperationReason(op.id, op, this.owner);
  }

  /** Refuses (409) to touch an operation that belongs to another cloud or account. */
  private assertOwned(op: OperationRecord): void {
    const foreign = this.foreignReason(op);
    if (foreign) throw new ConflictError({ message: foreign });
  }

  private assertRunning(): void {
    if (this.stopped) throw new Error('The operation engine has stopped; create a new one to continue.');
  }
}
