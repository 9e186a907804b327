import { NotFoundError } from '../domain/errors.js';
import type { LogLine, OperationPause, OperationSnapshot } from '../domain/schemas/operations.js';
import { settledAnswer } from '../domain/settled-answer.js';
import type { OperationEntry, OperationRecord, OperationsStore } from '../store/operations-store.js';
import type { ListOperationsFilter } from './engine-options.js';
import type { PhaseNeeds } from './phase-graph.js';
import { isTerminal, toOperationSnapshot } from './views.js';

/** What the reads need besides the journal: the clock, the pauses kept in memory and each kind's phase graph. */
export interface ReadDeps {
  store: OperationsStore;
  now(): Date;
  /** The note of an operation paused because the store cannot be written (kept in memory: the store is what failed). */
  paused(operationId: string): OperationPause | undefined;
  needs(kind: string): PhaseNeeds | undefined;
}

/**
 * The engine's reads: operations from the journal as their public views. A finished operation's view no
 * longer depends on the clock, so it is built once per entry the store hands out (the store keeps an entry
 * until the operation is written again) and that one answer serves every later read.
 */
export class OperationReads {
  private readonly settledViews = new WeakMap<OperationEntry, OperationSnapshot>();

  constructor(private readonly deps: ReadDeps) {}

  /** The operation's current view; NotFoundError when there is none with this id. */
  get(id: string): OperationSnapshot {
    const entry = this.deps.store.readOperation(id);
    if (!entry) throw new NotFoundError({ resource: 'operation', id });
    return this.view(entry);
  }

  /** Operations matching the filter, newest first (default limit 50). */
  list(filter: ListOperationsFilter = {}): OperationSnapshot[] {
    return this.deps.store.readOperations(filter).map((entry) => this.view(entry));
  }

  /**
   * For each target, the view of its newest operation of one of `kinds` (oldest target first): e.g.
   * every cluster's last create-cluster or delete-cluster.
   */
  latestPerTarget(kinds: readonly string[]): OperationSnapshot[] {
    return this.deps.store.readLatestPerTarget(kinds).map((entry) => this.view(entry));
  }

  /** Log lines with seq > after; `nextAfter` is the value to pass next time. */
  events(id: string, after = 0, limit = 200): { lines: LogLine[]; nextAfter: number } {
    this.record(id);
    const lines = this.deps.store.logLines(id, after, limit);
    return { lines, nextAfter: lines.at(-1)?.seq ?? after };
  }

  /** Operations not yet terminal on this target, newest first. */
  activeFor(target: string): OperationSnapshot[] {
    return this.deps.store
      .readActive(target)
      .reverse()
      .map((entry) => this.view(entry));
  }

  /** The journaled operation; NotFoundError when there is none with this id. */
  record(id: string): OperationRecord {
    const op = this.deps.store.getOperation(id);
    if (!op) throw new NotFoundError({ resource: 'operation', id });
    return op;
  }

  private view(entry: OperationEntry): OperationSnapshot {
    const { operation, phases } = entry;
    const paused = this.deps.paused(operation.id);
    const settled = paused === undefined && isTerminal(operation.status);
    const known = settled ? this.settledViews.get(entry) : undefined;
    if (known) return known;
    const view = toOperationSnapshot(operation, phases, this.deps.now(), paused, this.deps.needs(operation.kind));
    if (settled) this.settledViews.set(entry, settledAnswer(view));
    return view;
  }
}
