import type { CloudIdentity } from '../domain/operation-owner.js';
import type { LogLine, OperationStatus, OperationSnapshot } from '../domain/schemas/operations.js';
import type { OperationsStore } from '../store/operations-store.js';
import type { EngineLogger } from './engine-logger.js';
import type { PollingOptions } from './polling.js';
import type { StoreProbeOptions } from './store-pauses.js';

/**
 * What an OperationEngine is built with and what it answers: its options, the answer of a start, the
 * filter of a list and the events it emits.
 */

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
  operation: OperationSnapshot;
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
  operation: [OperationSnapshot];
  log: [{ operationId: string; line: LogLine }];
}
