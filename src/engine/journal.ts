import type { LogLine } from '../domain/schemas/operations.js';
import type {
  OperationPatch,
  OperationRecord,
  OperationsStore,
  PhasePatch,
  PhaseRecord,
} from '../store/operations-store.js';
import { EngineStoppedError } from './failures.js';

/** What a journal needs from the engine around it. */
export interface JournalHooks {
  store: OperationsStore;
  now: () => Date;
  /** Called after each committed change to an operation or its phases. */
  changed(operationId: string): void;
  /** Called after each committed log line. */
  logged(operationId: string, line: LogLine): void;
  /** True once the engine has stopped: from then on the journal refuses to write. */
  halted(): boolean;
}

/**
 * Writes one operation's journal and tells the engine after each commit, so that watchers
 * ('operation' / 'log' events, waitFor) see exactly what is on disk. Once the engine stops, every
 * write throws {@link EngineStoppedError}: a stopped engine must leave the journal as a crash would.
 */
export class OperationJournal {
  private batch: { changed: boolean; lines: LogLine[] } | undefined;

  constructor(
    private readonly hooks: JournalHooks,
    readonly operationId: string,
  ) {}

  /** Updates the operation row. */
  operation(patch: OperationPatch): OperationRecord {
    this.guard();
    const record = this.hooks.store.updateOperation(this.operationId, patch, this.timestamp());
    this.noteChange();
    return record;
  }

  /** Updates one phase row (and the operation's updatedAt, so lists sort by activity correctly). */
  phase(name: string, patch: PhasePatch): PhaseRecord {
    this.guard();
    return this.together(() => {
      const record = this.hooks.store.updatePhase(this.operationId, name, patch);
      this.hooks.store.updateOperation(this.operationId, {}, this.timestamp());
      this.noteChange();
      return record;
    });
  }

  /** Appends a log line; `phase` names the phase it belongs to. */
  log(level: LogLine['level'], message: string, phase?: string): LogLine {
    this.guard();
    const line = this.hooks.store.appendLog(this.operationId, {
      at: this.timestamp(),
      ...(phase === undefined ? {} : { phase }),
      level,
      message,
    });
    if (this.batch) this.batch.lines.push(line);
    else this.hooks.logged(this.operationId, line);
    return line;
  }

  /** Runs `fn` as one transaction; watchers hear about it once, after the commit. */
  together<T>(fn: () => T): T {
    if (this.batch) return fn();
    this.guard();
    const batch = { changed: false, lines: [] as LogLine[] };
    this.batch = batch;
    let result: T;
    try {
      result = this.hooks.store.transaction(fn);
    } finally {
      this.batch = undefined;
    }
    for (const line of batch.lines) this.hooks.logged(this.operationId, line);
    if (batch.changed) this.hooks.changed(this.operationId);
    return result;
  }

  /** The current time as stored in the journal. */
  timestamp(): string {
    return this.hooks.now().toISOString();
  }

  private noteChange(): void {
    if (this.batch) this.batch.changed = true;
    else this.hooks.changed(this.operationId);
  }

  private guard(): void {
    if (this.hooks.halted()) throw new EngineStoppedError();
  }
}
