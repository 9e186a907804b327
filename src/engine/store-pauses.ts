import { StoreUnavailableError } from '../domain/errors.js';
import type { OperationPause } from '../domain/schemas/operations.js';
import type { OperationsStore } from '../store/operations-store.js';
import type { EngineLogger } from './engine-logger.js';

export interface StoreProbeOptions {
  minIntervalMs: number;
  maxIntervalMs: number;
}

export const DEFAULT_STORE_PROBE: StoreProbeOptions = { minIntervalMs: 1000, maxIntervalMs: 30_000 };

/** What the pauses borrow from the engine. */
export interface StorePausesDeps {
  store: OperationsStore;
  logger: EngineLogger;
  now: () => Date;
  random: () => number;
  probe: StoreProbeOptions;
  /** Runs a paused operation again; `note` opens its resumed run in the journal. */
  relaunch(operationId: string, note: string): void;
  /** Tells watchers the operation's view changed (it shows `paused` now). */
  publish(operationId: string): void;
}

/**
 * A time when the store could not be written: when it began, the probe's backoff, and when writes
 * worked again. A failure soon after a recovery (a disk with room for small writes only) reopens the
 * same outage silently, keeping its backoff: the server log says "cannot be written" and "written
 * again" once each, not once per cycle.
 */
interface Outage {
  since: Date;
  probes: number;
  timer?: NodeJS.Timeout;
  recoveredAt?: Date;
  /** True once the log said it can be written again. */
  announced: boolean;
}

/**
 * Operations paused because the journal could not be written (disk full, read-only, I/O error, lock
 * held elsewhere). Kept in memory — the journal is what failed — and shown in each operation's view.
 * A probe (one committed no-op write) runs with backoff; once it works every paused operation runs
 * again by observing, exactly as after a crash, so nothing is done twice.
 */
export class StorePauses {
  private readonly paused = new Map<string, OperationPause>();
  private outage: Outage | undefined;
  private stopped = false;

  constructor(private readonly deps: StorePausesDeps) {}

  /** Why the operation is paused, or undefined when it is not. */
  get(operationId: string): OperationPause | undefined {
    return this.paused.get(operationId);
  }

  has(operationId: string): boolean {
    return this.paused.has(operationId);
  }

  /** The operation ended otherwise (e.g. cancelled while paused): nothing to resume. */
  forget(operationId: string): void {
    this.paused.delete(operationId);
  }

  /** Parks an operation whose journal could not be written; the log says so once per outage. */
  pause(operationId: string, err: StoreUnavailableError): void {
    if (this.stopped) return;
    const since = this.deps.now();
    this.paused.set(operationId, {
      since: since.toISOString(),
      code: err.code,
      reason: `${err.message} ${err.remedy} The operation is paused and resumes by itself, observing actual state first, once the journal can be written.`,
    });
    const outage = this.outage;
    const quietMs = 10 * this.deps.probe.maxIntervalMs;
    if (!outage || (outage.recoveredAt && since.getTime() - outage.recoveredAt.getTime() > quietMs)) {
      this.outage = { since, probes: 0, announced: false };
      this.deps.logger.error(
        { code: err.code, file: err.file, operationId },
        `${err.message} ${err.remedy} Operations are paused and resume by themselves once it can be written; requests that change something are refused meanwhile (503).`,
      );
    } else if (outage.recoveredAt) {
      outage.recoveredAt = undefined; // the same outage again: no new log line, the backoff goes on
    }
    try {
      this.deps.publish(operationId);
    } catch (readErr) {
      this.deps.logger.warn({ err: readErr, operationId }, 'could not read a paused operation'); // reads may fail too (I/O errors)
    }
    this.scheduleProbe();
  }

  /** A write committed: the outage is over once no operation is still paused on it (said once per outage). */
  written(): void {
    const outage = this.outage;
    if (!outage || outage.recoveredAt || this.paused.size > 0) return;
    clearTimeout(outage.timer);
    outage.timer = undefined;
    outage.recoveredAt = this.deps.now();
    if (!outage.announced) {
      outage.announced = true;
      const pausedSeconds = Math.round((outage.recoveredAt.getTime() - outage.since.getTime()) / 1000);
      this.deps.logger.info({ pausedSeconds }, 'the data directory can be written again; paused operations resumed');
    }
  }

  /** No more probes (the engine stopped); the journal still shows the paused operations as running. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.outage?.timer);
  }

  private scheduleProbe(): void {
    const outage = this.outage;
    if (!outage || outage.recoveredAt || outage.timer || this.stopped) return;
    const { minIntervalMs, maxIntervalMs } = this.deps.probe;
    const delay = Math.min(maxIntervalMs, minIntervalMs * 2 ** Math.min(outage.probes, 20));
    outage.timer = setTimeout(() => this.probe(), delay * (0.75 + 0.25 * this.deps.random()));
    outage.timer.unref();
  }

  private probe(): void {
    const outage = this.outage;
    if (!outage || outage.recoveredAt || this.stopped) return;
    outage.timer = undefined;
    outage.probes++;
    try {
      this.deps.store.probeWrite();
    } catch (err) {
      if (!(err instanceof StoreUnavailableError))
        this.deps.logger.error({ err }, 'the store probe failed unexpectedly');
      this.scheduleProbe();
      return;
    }
    for (const [id, pause] of [...this.paused]) {
      this.paused.delete(id);
      const seconds = Math.round((this.deps.now().getTime() - Date.parse(pause.since)) / 1000);
      this.deps.relaunch(
        id,
        `Resumed: the journal could not be written for ${seconds}s (${pause.code}); the phase in flight starts again by observing actual state.`,
      );
    }
  }
}
