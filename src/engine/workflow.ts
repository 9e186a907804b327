/**
 * The contract between the operation engine and the workflows (src/workflows): a workflow is an
 * ordered list of phases; each phase is observe → act → await.
 *
 * - `observe` reads actual state and decides: `done` (nothing to do, phase skipped/succeeded),
 *   `in-progress` (the mutation already happened — go straight to await) or `needs-act`.
 * - `act` performs the phase's mutation(s). Each call uses client tokens or deterministic names and
 *   finds-before-creating, so repeating it after a crash is harmless. The engine journals
 *   "acting" BEFORE calling it and "awaiting" right after it returns.
 * - `await` is polled on an expected-duration-aware schedule (poll-schedule.ts) until it reports
 *   done (or throws), or hands back to observe (`observeAgain`). It is optional: phases whose act
 *   completes synchronously omit it. Waiting happens only here, never inside observe or act: the
 *   engine's waits follow the clock scale, are cancellable and show progress.
 *
 * After a restart, or on a retry, a phase always starts again at observe — never by mutating blindly.
 *
 * Every phase declares its `deadline`: how long its act and its wait may take. Past it the phase fails with
 * `PhaseDeadlineExceeded`, naming what it waited for and what it last saw, instead of polling forever; a retry runs
 * it again with fresh clocks. The clocks are journaled (when the act first started, when the wait began), so a
 * restart does not reset them.
 *
 * Phases form a graph: each starts once the phases it needs (`after`, default: the one declared
 * before it) are done, and phases whose needs are met run side by side, each journaled, resumed and
 * retried on its own. A plain list of phases therefore runs in sequence, as it always did.
 *
 * A failed phase stops the phases that need it (directly or through others); phases that do not need
 * it go on — those running finish, those whose needs are met still start — and the operation ends
 * failed once nothing more can run. A phase that declares `onFailure: 'continue'` — a teardown step
 * (a saga's compensation) whose failure must not strand what the later phases remove — stops nothing:
 * it is journaled failed with its error, the phases after it still run (they see it in
 * `ctx.earlierFailures`), and the operation ends failed with the last failure's error. A retry re-runs
 * every failed phase (OperationEngine.retryPhase), then whatever they stopped.
 *
 * While it runs (until it ends), an operation holds the locks its workflow declares (`locks`), derived
 * from its journaled input: a start whose locks clash with a running operation's is refused (409
 * naming that operation), except a repeat of the same request, which gets the running operation back.
 *
 * @example
 * const phase: PhaseDefinition<{ name: string }, { vpcId?: string }> = {
 *   name: 'network', title: 'Network', expectedSeconds: 120, deadline: { actSeconds: 120, waitSeconds: 900 },
 *   observe: async (ctx) => ((await findVpc(ctx.input.name)) ? 'done' : 'needs-act'),
 *   act: async (ctx) => ctx.setState({ vpcId: await createVpc(ctx.input.name) }),
 * };
 */

import type { OperationError } from '../domain/schemas/operations.js';

export type ObserveOutcome = 'done' | 'in-progress' | 'needs-act';

export interface AwaitOutcome {
  done: boolean;
  /** One line for the progress panel, e.g. "EKS cluster CREATING". */
  progress?: string;
  /**
   * The awaited change finished but the phase has more to do, e.g. a failed cluster is gone and
   * must now be made again: the loop observes again, and observe decides the next act. So a phase
   * that must act, wait, act and wait keeps every wait an await step. Ignored when `done`.
   */
  observeAgain?: boolean;
}

export interface PhaseContext<I, S> {
  readonly operationId: string;
  /** The validated operation input (as stored). */
  readonly input: I;
  /** The operation's scratch state (JSON): ids found or made by earlier phases. */
  readonly state: Readonly<S>;
  /** Merge into the scratch state and persist it at once. */
  setState(patch: Partial<S>): void;
  /** Add a line to this phase's log (stored, streamed to watchers). */
  log(message: string, level?: 'info' | 'warn' | 'error'): void;
  /** Aborted when the operation is cancelled or the engine stops. */
  readonly signal: AbortSignal;
  /** How many times this phase has started (1 on the first run). */
  readonly attempt: number;
  /**
   * The errors of earlier phases that failed and that the workflow went on past (`onFailure:
   * 'continue'`), in phase order; empty when none did. A teardown phase uses them to say why
   * something remains, or to stop waiting for what a failed phase left in its way.
   */
  readonly earlierFailures: readonly OperationError[];
}

/**
 * How long a phase may take. Ground each in what AWS (or Kubernetes) documents for the call, or in what the phase
 * does, well above the typical duration: a deadline is for a wait that will not end, not for a slow day. No deadline
 * ends sooner than a minute of real time (PollingOptions.minDeadlineMs), and none runs out while the cloud is not
 * answering (the outage rule decides then).
 */
export interface PhaseDeadline {
  /**
   * From the first time the current change journaled "acting" (a repeat of act after a restart or a transient error
   * keeps counting) until act returns. Past it the act is abandoned; what it asked the cloud for may still happen.
   * Real seconds: an act is calls to the cloud, whose round trips a sped-up sandbox clock does not shorten.
   */
  actSeconds: number;
  /**
   * From the moment the phase began waiting for its change (after its act, or when observe found it under way)
   * until its await reports done. An `observeAgain` starts a new change: both clocks start anew. Cloud seconds like
   * `expectedSeconds`: scaled by the polling time scale as every wait is, so a sped-up sandbox reaches it in its time.
   */
  waitSeconds: number;
}

export interface PhaseDefinition<I, S> {
  /** Stable id: a retry names the phase by it. */
  name: string;
  title: string;
  /** Typical duration on AWS; sets the polling cadence and the progress estimate. */
  expectedSeconds: number;
  /** How long its act and its wait may take (PhaseDeadline); required, so that no wait can poll forever. */
  deadline: PhaseDeadline;
  observe(ctx: PhaseContext<I, S>): Promise<ObserveOutcome>;
  act?(ctx: PhaseContext<I, S>): Promise<void>;
  await?(ctx: PhaseContext<I, S>): Promise<AwaitOutcome>;
  /**
   * `stop` (the default): a failure fails the operation here and later phases stay pending.
   * `continue`: a teardown step — the failure is journaled on this phase and the later phases still
   * run; the operation ends failed. Use it only where going on is safe and better than stopping
   * (removing what remains of something being deleted), never in a create or a change.
   */
  onFailure?: 'stop' | 'continue';
  /**
   * For a phase that only checks (observe, no act): what its passing means, e.g. "Verified: nothing
   * tagged remains". Such a phase succeeds with this as its note, instead of reading "already done".
   */
  verdict?: string;
  /**
   * Whether the phase is part of an operation with this input (default: always). A phase for another kind of request
   * (the FSx file system of an S3 storage, the data of a storage whose data is kept) is left out of the operation: not
   * journaled, not shown as "already done", and the phases after it do not wait for it.
   */
  appliesTo?(input: I): boolean;
  /**
   * Identifies the resource awaited (e.g. `eks:us-west-2/my-cluster`) so that every watcher of the
   * same resource shares one poller.
   */
  pollKey?(ctx: PhaseContext<I, S>): string;
  /**
   * The phases that must be done (succeeded or skipped) before this one starts: names of phases
   * declared before it. Default: the phase declared just before this one (none for the first), so a
   * plain list runs in sequence. `[]` starts it with the operation. Declare a need only for what
   * this phase really reads or relies on (an id in the state, a resource that must exist or be ready).
   */
  after?: string[];
}

/** A lock an operation holds from its start until it ends. */
export interface LockClaim {
  /** What is locked, e.g. `cluster/us-west-2/demo` or `cluster/us-west-2/demo/update-cluster`. */
  resource: string;
  /** `exclusive`: no other operation may hold the resource at all; `shared`: others may hold it shared too. */
  mode: 'exclusive' | 'shared';
}

export const exclusive = (resource: string): LockClaim => ({ resource, mode: 'exclusive' });
export const shared = (resource: string): LockClaim => ({ resource, mode: 'shared' });

export interface WorkflowDefinition<I, S> {
  /** e.g. `create-cluster`. */
  kind: string;
  /** What the operation works on, e.g. `cluster/us-west-2/demo`: shown with it, listed and filtered by. */
  target(input: I): string;
  /**
   * What the operation locks while it runs, from its input. Two operations clash when they claim
   * the same resource and either claims it exclusively; the second is refused with a 409 naming the
   * first (or, when it is the same request — same kind, target and input — gets the first back).
   */
  locks(input: I): LockClaim[];
  initialState(input: I): S;
  phases: PhaseDefinition<I, S>[];
  /** Summarises the final state as the operation's result (shown by the status endpoint). */
  result?(state: S, input: I): Record<string, unknown>;
}

// Workflows are registered in a heterogeneous list; their input/state types are erased there.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyWorkflow = WorkflowDefinition<any, any>;
