import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { canonicalJson } from '../domain/canonical-json.js';
import { ConflictError, InputError, NotFoundError, OperationConflictError } from '../domain/errors.js';
import { foreignOperationReason, type CloudIdentity, type OperationPlace } from '../domain/operation-owner.js';
import type { LogLine, OperationStatus, OperationView } from '../domain/schemas/operations.js';
import type { OperationEntry, OperationRecord, OperationsStore } from '../store/operations-store.js';
import { OperationJournal } from './journal.js';
import { EngineStoppedError } from './failures.js';
import {
  finishCancelled,
  runOperation,
  type EngineLogger,
  type Run,
  type RunEnd,
  type RunMode,
} from './operation-runner.js';
import { resolvePolling, SharedPoller, type PollingOptions } from './poller.js';
import { DEFAULT_STORE_PROBE, StorePauses, type StoreProbeOptions } from './store-pauses.js';
import { lockHolder, type LockHolder } from './locks.js';
import { phaseNeeds, type PhaseNeeds } from './phase-graph.js';
import { settledAnswer } from '../domain/settled-answer.js';
import { isTerminal, OPERATION_STATUS_TOOL, operationStatusUrl, toOperationView } from './views.js';
import type { AnyWorkflow } from './workflow.js';
import { operationKindLabel } from '../domain/naming.js';

export type { EngineLogger } from './operation-runner.js';
export type { StoreProbeOptions } from './store-pauses.js';

/** kind → the input type of that kind of operation (the product's: OperationInputs in src/domain/operation-kinds.ts). */
export type KindInputs = { [kind: string]: object };

/** What the engine needs of a zod schema: parse an input, or say what is wrong with it, field by field. */
export interface InputSchema<T> {
  safeParse(
    data: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

export interface OperationEngineOptions<M extends KindInputs = Record<string, Record<string, unknown>>> {
  /**
   * kind → the schema of its input (the product's OPERATION_KINDS). When given, only these kinds can be
   * registered, `registerAll` checks every one of them got its workflow, and every start parses its
   * input with its kind's schema (a 400 naming the fields when it does not fit) and journals what the
   * schema returns. Omitted (the engine's own tests): any kind, inputs as given.
   */
  kinds?: { readonly [K in keyof M]: InputSchema<M[K]> };
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
export class OperationEngine<
  M extends KindInputs = Record<string, Record<string, unknown>>,
> extends EventEmitter<OperationEvents> {
  private readonly kinds: OperationEngineOptions<M>['kinds'];
  private readonly store: OperationsStore;
  private readonly logger: EngineLogger;
  private readonly polling: PollingOptions;
  private readonly now: () => Date;
  private readonly idFactory: () => string;
  private readonly random: () => number;
  private readonly owner: CloudIdentity | undefined;
  private readonly poller: SharedPoller;
  private readonly workflows = new Map<string, AnyWorkflow>();
  /** Each registered kind's phase graph (phase-graph.ts). */
  private readonly graphs = new Map<string, PhaseNeeds>();
  /** Views of finished operations, by the store entry they were built from (see `view`). */
  private readonly settledViews = new WeakMap<OperationEntry, OperationView>();
  private readonly runs = new Map<string, Run & { done: Promise<void> }>();
  private readonly waiters = new Map<string, Set<(view: OperationView, force?: boolean) => void>>();
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
    this.store = store;
    this.logger = logger;
    this.polling = resolvePolling(polling);
    this.now = now;
    this.idFactory = idFactory;
    this.random = random;
    this.owner = owner;
    this.poller = new SharedPoller({
      freshForMs: this.polling.minIntervalMs * this.polling.timeScale,
      nowMs: () => this.now().getTime(),
    });
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

  /**
   * Makes a workflow kind startable (and resumable). Programming errors throw: a kind registered twice,
   * a kind outside the engine's `kinds`, a phase graph that names unknown or later phases.
   */
  register(workflow: AnyWorkflow): void {
    if (this.workflows.has(workflow.kind)) throw new Error(`Workflow '${workflow.kind}' is already registered.`);
    if (this.kinds && !Object.hasOwn(this.kinds, workflow.kind)) {
      throw new Error(
        `Workflow '${workflow.kind}' is not an operation kind (known: ${Object.keys(this.kinds).join(', ')}); add its input schema to the kinds map.`,
      );
    }
    this.graphs.set(workflow.kind, phaseNeeds(workflow));
    this.workflows.set(workflow.kind, workflow);
  }

  /** Registers every workflow, then checks that every kind of the engine's `kinds` has one. */
  registerAll(workflows: readonly AnyWorkflow[]): void {
    for (const workflow of workflows) this.register(workflow);
    const missing = Object.keys(this.kinds ?? {}).filter((kind) => !this.workflows.has(kind));
    if (missing.length) throw new Error(`No workflow is registered for the operation kind(s) ${missing.join(', ')}.`);
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
        message: `Unknown operation kind '${kind}'. Known kinds: ${[...this.workflows.keys()].join(', ') || 'none'}.`,
      });
    const parsed = this.parseInput(kind, input);
    const target = workflow.target(parsed);
    const found = this.store.transaction((): { record: OperationRecord; existing: boolean; accepted?: LogLine } => {
      if (idempotencyKey !== undefined) {
        const same = this.store.findByIdempotencyKey(idempotencyKey);
        if (same) {
          assertSameRequest(idempotencyKey, same, kind, parsed);
          return { record: same, existing: true };
        }
      }
      // Read in this write transaction: what runs is what the journal says, and nothing starts between.
      const active = this.store.listActive();
      const request = canonicalJson(parsed);
      const repeat = active.find(
        (op) => op.kind === kind && op.target === target && canonicalJson(op.input) === request,
      );
      if (repeat) return { record: repeat, existing: true };
      const holder = lockHolder(workflow.locks(parsed), active, (k) => this.workflows.get(k));
      if (holder) throw lockConflict(holder, `${kind} on ${target} cannot start`);
      const createdAt = this.now().toISOString();
      const record = this.store.createOperation(
        {
          id: this.idFactory(),
          kind,
          target,
          status: 'pending',
          input: parsed,
          state: workflow.initialState(parsed) as Record<string, unknown>,
          createdAt,
          ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
          ...this.placeOf(parsed),
        },
        workflow.phases
          .filter((p) => p.appliesTo?.(parsed) !== false)
          .map((p) => ({ name: p.name, title: p.title, expectedSeconds: p.expectedSeconds })),
      );
      // In the same transaction: an operation is in the journal with its first line, or not at all.
      const accepted = this.store.appendLog(record.id, {
        at: createdAt,
        level: 'info',
        message: `Accepted: ${operationKindLabel(kind)} (${target}).`,
      });
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
    if (!entry) throw new NotFoundError({ resource: 'operation', id });
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
    return this.store
      .readActive(target)
      .reverse()
      .map((entry) => this.view(entry));
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
    if (!phase)
      throw new NotFoundError({
        resource: 'phase',
        id: phaseName,
        message: `Operation ${id} has no phase '${phaseName}'.`,
      });
    if (op.status !== 'failed')
      throw new ConflictError({
        message: `Operation ${id} is ${op.status}; only a failed operation can have a phase retried.`,
      });
    const failed = this.store.listPhases(id).filter((p) => p.status === 'failed');
    if (phase.status !== 'failed') {
      const names = failed.map((p) => `'${p.name}'`);
      throw new ConflictError({
        message:
          failed.length === 0
            ? `Operation ${id} failed outside its phases (${op.error?.code ?? 'unknown'}); no phase can be retried — start a new operation.`
            : failed.length === 1
              ? `Phase '${phaseName}' is ${phase.status}, not failed; retry the failed phase ${names[0]} instead.`
              : `Phase '${phaseName}' is ${phase.status}, not failed; retry one of the failed phases ${names.join(', ')} (all of them run again, in order).`,
      });
    }
    const workflow = this.workflows.get(op.kind);
    if (!workflow)
      throw new ConflictError({
        message: `This server cannot run '${op.kind}' operations, so it cannot retry this one.`,
      });
    const journal = this.journal(id);
    const [first, ...later] = failed;
    journal.together(() => {
      // A failed operation holds no locks: it takes them again, unless another operation took them meanwhile.
      const holder = lockHolder(workflow.locks(op.input), this.store.listActive(), (k) => this.workflows.get(k));
      if (holder) throw lockConflict(holder, `Operation ${id} (${op.kind} on ${op.target}) cannot be retried now`);
      // The first failed phase starts now (its attempt counts at once); later ones count theirs when they start.
      journal.phase(first!.name, {
        status: 'observing',
        attempts: first!.attempts + 1,
        startedAt: journal.timestamp(),
        finishedAt: null,
        error: null,
        progress: null,
      });
      for (const p of later)
        journal.phase(p.name, { status: 'pending', finishedAt: null, error: null, progress: null });
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
    const runs = [...this.runs.values()];
    for (const run of runs) run.controller.abort(new EngineStoppedError());
    await Promise.allSettled(runs.map((r) => r.done));
    for (const [id, set] of this.waiters) {
      const view = this.get(id);
      for (const settle of [...set]) settle(view, true);
    }
  }

  private launch(id: string, mode: RunMode, note?: string): void {
    const run = {
      operationId: id,
      controller: new AbortController(),
      cancelRequested: false,
      ...(note === undefined ? {} : { note }),
    } as Run & { done: Promise<void> };
    const deps = {
      store: this.store,
      journalFor: (operationId: string) => this.journal(operationId),
      workflow: (kind: string) => this.workflows.get(kind),
      needs: (kind: string) => this.graphs.get(kind),
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

  /** The input as its kind's schema reads it (as given when the engine has no schemas); InputError naming each bad field. */
  private parseInput(kind: string, input: object): Record<string, unknown> {
    const schema = this.kinds?.[kind as keyof M];
    if (!schema) return input as Record<string, unknown>;
    const result = schema.safeParse(input);
    if (result.success) return result.data as Record<string, unknown>;
    const problems = result.error.issues.map((i) => ({
      path: i.path.map(String).join('.') || '(input)',
      message: i.message,
    }));
    throw new InputError({
      message: `Invalid input for ${kind}: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
      problems,
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
    if (!op) throw new NotFoundError({ resource: 'operation', id });
    return op;
  }

  private view(entry: OperationEntry): OperationView {
    const { operation, phases } = entry;
    const paused = this.paused.get(operation.id);
    // A finished operation's view no longer depends on the clock: built once per entry the store
    // hands out (the store keeps an entry until the operation is written again).
    const settled = paused === undefined && isTerminal(operation.status);
    const known = settled ? this.settledViews.get(entry) : undefined;
    if (known) return known;
    const view = toOperationView(operation, phases, this.now(), paused, this.graphs.get(operation.kind));
    if (settled) this.settledViews.set(entry, settledAnswer(view));
    return view;
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
    if (foreign) throw new ConflictError({ message: foreign });
  }

  private assertRunning(): void {
    if (this.stopped) throw new Error('The operation engine has stopped; create a new one to continue.');
  }
}

/** The 409 for a start or retry that needs what a running operation holds: names it and how to wait for it. */
function lockConflict({ operation: op, resource, mode }: LockHolder, what: string): OperationConflictError {
  const statusUrl = operationStatusUrl(op.id);
  const how = mode === 'exclusive' ? 'holds' : 'shares';
  return new OperationConflictError({
    message:
      `${what}: ${op.kind} operation ${op.id} (${op.status}) on ${op.target} ${how} ${resource}. ` +
      `Wait until it ends — ${OPERATION_STATUS_TOOL} ${JSON.stringify({ operationId: op.id })} or GET ${statusUrl} — then send this request again.`,
    operation: {
      id: op.id,
      kind: op.kind,
      status: op.status,
      target: op.target,
      statusUrl,
      statusTool: OPERATION_STATUS_TOOL,
    },
    resource,
  });
}

/**
 * A repeat under the same Idempotency-Key must be the same request: same kind and the same validated
 * input (compared in canonical JSON: both went through the same schema), or it is refused naming the
 * key and the operation that holds it — returning the first operation would silently drop the second
 * request.
 */
function assertSameRequest(key: string, same: OperationRecord, kind: string, input: Record<string, unknown>): void {
  if (same.kind !== kind) {
    throw new ConflictError({
      message: `Idempotency key '${key}' was already used for ${same.kind} operation ${same.id}; use a new key for a different request.`,
      field: 'Idempotency-Key',
    });
  }
  if (canonicalJson(same.input) !== canonicalJson(input)) {
    throw new ConflictError({
      message: `Idempotency key '${key}' was already used for ${same.kind} operation ${same.id} on ${same.target} with a different request body; send the same body to get that operation back, or use a new key for a different request.`,
      field: 'Idempotency-Key',
    });
  }
}
