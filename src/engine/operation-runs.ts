import type { StoreUnavailableError } from '../domain/errors.js';
import { EngineStoppedError } from './failures.js';
import { runOperation, type Run, type RunMode, type RunnerDeps } from './operation-runner.js';

type LiveRun = Run & { done: Promise<void> };

/**
 * The operations this process drives now, one run each (operation-runner.ts): started, resumed, retried or
 * unpaused by the engine, aborted by a cancel or a stop. A run that ends because the store cannot be written
 * is handed to `paused`, which runs it again once writing works.
 */
export class OperationRuns {
  private readonly runs = new Map<string, LiveRun>();

  constructor(
    private readonly deps: RunnerDeps,
    private readonly paused: (operationId: string, err: StoreUnavailableError) => void,
  ) {}

  launch(id: string, mode: RunMode, note?: string): void {
    const run = {
      operationId: id,
      controller: new AbortController(),
      cancelRequested: false,
      ...(note === undefined ? {} : { note }),
    } as LiveRun;
    run.done = runOperation(this.deps, run, mode).then((end) => {
      if (this.runs.get(id) === run) this.runs.delete(id);
      if (end.paused) {
        run.controller.abort(new Error(`Operation ${id} paused: the store cannot be written.`)); // stray work stops
        this.paused(id, end.paused);
      }
    });
    this.runs.set(id, run);
  }

  get(id: string): Run | undefined {
    return this.runs.get(id);
  }

  has(id: string): boolean {
    return this.runs.has(id);
  }

  /** Aborts every run as a crash would (nothing journaled) and resolves once each has exited. */
  async stopAll(): Promise<void> {
    const runs = [...this.runs.values()];
    for (const run of runs) run.controller.abort(new EngineStoppedError());
    await Promise.allSettled(runs.map((r) => r.done));
  }
}
