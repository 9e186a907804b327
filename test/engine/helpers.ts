import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OperationEngine, type OperationEngineOptions } from '../../src/engine/engine.js';
import {
  exclusive,
  type AwaitOutcome,
  type PhaseDefinition,
  type WorkflowDefinition,
} from '../../src/engine/workflow.js';
import type { OperationSnapshot } from '../../src/domain/schemas/operations.js';
import { openDatabase, openMemoryDatabase, type Database } from '../../src/store/database.js';
import { OperationsStore } from '../../src/store/operations-store.js';

/** Polling fast enough for tests: every wait is 5–20 ms. */
export const FAST_POLLING = { minIntervalMs: 5, maxIntervalMs: 20, timeScale: 1 };

/** A temporary data directory, removed by `cleanup()`. */
export function tempDataDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'instantstart-engine-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An engine on a fresh in-memory journal (or on `db` when given). */
export function newEngine(db: Database = openMemoryDatabase(), options: Partial<OperationEngineOptions> = {}) {
  const store = new OperationsStore(db);
  const engine = new OperationEngine({ store, polling: FAST_POLLING, ...options });
  return { engine, store, db };
}

/** An engine on `<dir>/instantstart.db`, as the server builds it. */
export function fileEngine(dir: string) {
  return newEngine(openDatabase(dir));
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Resolves with the first view of `id` (current or emitted) that satisfies `predicate`. */
export function viewWhere(
  engine: OperationEngine,
  id: string,
  predicate: (view: OperationSnapshot) => boolean,
  timeoutMs = 3000,
): Promise<OperationSnapshot> {
  const now = engine.get(id);
  if (predicate(now)) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      engine.off('operation', listener);
      reject(new Error(`timed out waiting on ${id}; last view: ${JSON.stringify(engine.get(id))}`));
    }, timeoutMs);
    const listener = (view: OperationSnapshot) => {
      if (view.id !== id || !predicate(view)) return;
      clearTimeout(timer);
      engine.off('operation', listener);
      resolve(view);
    };
    engine.on('operation', listener);
  });
}

/** Resolves once `condition()` holds, checking every few milliseconds (for state outside the engine). */
export async function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** The view once a given phase reaches a given status. */
export function phaseReaches(
  engine: OperationEngine,
  id: string,
  phase: string,
  status: string,
): Promise<OperationSnapshot> {
  return viewWhere(engine, id, (v) => v.phases.find((p) => p.name === phase)?.status === status);
}

/**
 * A pretend cloud resource: act creates it, await reports it ready once the test says so.
 * Counters let tests assert how often the engine touched it.
 */
export class FakeResource {
  exists = false;
  ready = false;
  observeCalls = 0;
  actCalls = 0;
  awaitCalls = 0;

  phase(name: string, extra: Partial<PhaseDefinition<Input, State>> = {}): PhaseDefinition<Input, State> {
    return {
      name,
      title: name[0]!.toUpperCase() + name.slice(1),
      expectedSeconds: 60,
      deadline: { actSeconds: 60, waitSeconds: 600 },
      observe: async () => {
        this.observeCalls++;
        if (!this.exists) return 'needs-act';
        return this.ready ? 'done' : 'in-progress';
      },
      act: async (ctx) => {
        this.actCalls++;
        this.exists = true;
        ctx.setState({ [name]: `${name}-id` });
      },
      await: async (): Promise<AwaitOutcome> => {
        this.awaitCalls++;
        return { done: this.ready, progress: this.ready ? 'READY' : 'CREATING' };
      },
      ...extra,
    };
  }
}

export interface Input {
  name: string;
}
export type State = Record<string, string>;

/** A workflow of the given phases on target `thing/<input.name>`, which it locks exclusively (unless `extra.locks` says otherwise). */
export function workflow(
  kind: string,
  phases: PhaseDefinition<Input, State>[],
  extra: Partial<WorkflowDefinition<Input, State>> = {},
): WorkflowDefinition<Input, State> {
  return {
    kind,
    target: (input) => `thing/${input.name}`,
    locks: (input) => [exclusive(`thing/${input.name}`)],
    initialState: () => ({}),
    phases,
    result: (state) => ({ ...state }),
    ...extra,
  };
}
