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
 * A phase fails the operation where it stands unless it declares `onFailure: 'continue'` — a teardown
 * step (a saga's compensation) whose failure must not strand what the later phases remove: it is
 * journaled failed with its error, the later phases still run (they see it in `ctx.earlierFailures`),
 * and the operation ends failed with the last failure's error. A retry re-runs every failed phase in
 * order (OperationEngine.retryPhase).
 *
 * @example
 * const phase: PhaseDefinition<{ name: string }, { vpcId?: string }> = {
 *   name: 'network', title: 'Network', expectedSeconds: 120,
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

export interface PhaseDefinition<I, S> {
  /** Stable id used in URLs (`…/phases/{name}/retry`). */
  name: string;
  title: string;
  /** Typical duration on AWS; sets the polling cadence and the progress estimate. */
  expectedSeconds: number;
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
   * Identifies the resource awaited (e.g. `eks:us-west-2/my-cluster`) so that every watcher of the
   * same resource shares one poller.
   */
  pollKey?(ctx: PhaseContext<I, S>): string;
}

export interface WorkflowDefinition<I, S> {
  /** e.g. `create-cluster`. */
  kind: string;
  /** What the operation works on, e.g. `cluster/us-west-2/demo`; one running operation per target and kind family. */
  target(input: I): string;
  /** Kinds that must not run on the same target at the same time as this one (itself included). */
  conflictsWith?: string[];
  initialState(input: I): S;
  phases: PhaseDefinition<I, S>[];
  /** Summarises the final state as the operation's result (shown by the status endpoint). */
  result?(state: S, input: I): Record<string, unknown>;
}

// Workflows are registered in a heterogeneous list; their input/state types are erased there.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyWorkflow = WorkflowDefinition<any, any>;
