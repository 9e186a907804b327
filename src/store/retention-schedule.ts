import { setImmediate as nextTick } from 'node:timers/promises';
import type { OperationsRetention } from './retention.js';

/** pino-like; what the schedule reports. */
export interface RetentionLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface RetentionScheduleOptions {
  retention: OperationsRetention;
  /** Between passes. Default one hour. */
  intervalMs?: number;
  /** A pass stops after this many batches (the rest waits for the next pass). Default 25. */
  maxBatchesPerPass?: number;
  now?: () => Date;
  logger?: RetentionLogger;
}

/** What one pass removed. */
export interface RetentionPassResult {
  operations: number;
  logLines: number;
  idempotencyKeys: number;
  auditEvents: number;
  /** True when the pass stopped at its bound with more to remove. */
  more: boolean;
}

/**
 * Runs retention at start and then every `intervalMs`, off the request path: each batch is one short
 * transaction and the pass yields to the event loop between batches, so requests interleave; a pass
 * is bounded (`maxBatchesPerPass`), so a journal that grew for years is worked down over a few passes.
 * The timer is unref'd (it never keeps a process alive); `stop()` waits for a pass in progress, so the
 * database can then be closed.
 *
 * @example
 * const schedule = new RetentionSchedule({ retention: new OperationsRetention(db), logger });
 * schedule.start();
 * // … at shutdown, before db.close():
 * await schedule.stop();
 */
export class RetentionSchedule {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<RetentionPassResult> | undefined;
  private stopped = false;
  private readonly intervalMs: number;
  private readonly maxBatches: number;
  private readonly now: () => Date;

  constructor(private readonly options: RetentionScheduleOptions) {
    this.intervalMs = options.intervalMs ?? 3_600_000;
    this.maxBatches = options.maxBatchesPerPass ?? 25;
    this.now = options.now ?? (() => new Date());
  }

  /** The first pass right after the current work (startup is not delayed), then one per interval. */
  start(): void {
    if (this.timer || this.stopped) return;
    const tick = () => void this.runPass().catch(() => undefined);
    this.timer = setInterval(tick, this.intervalMs).unref();
    setImmediate(tick).unref();
  }

  /** One bounded pass now (or the one already running). A failure is logged and reported, never thrown. */
  runPass(): Promise<RetentionPassResult> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  /** No more passes; resolves once a pass in progress has finished its batch. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async pass(): Promise<RetentionPassResult> {
    const total: RetentionPassResult = { operations: 0, logLines: 0, idempotencyKeys: 0, auditEvents: 0, more: false };
    try {
      for (let batch = 0; batch < this.maxBatches && !this.stopped; batch++) {
        const result = this.options.retention.pruneBatch(this.now());
        total.operations += result.operations;
        total.logLines += result.logLines;
        total.idempotencyKeys += result.idempotencyKeys;
        total.auditEvents += result.auditEvents;
        total.more = result.more;
        if (!result.more) break;
        await nextTick();
      }
    } catch (err) {
      this.options.logger?.warn({ err }, 'retention could not prune the journal; it tries again at the next pass');
      return total;
    }
    if (total.operations > 0 || total.logLines > 0 || total.idempotencyKeys > 0 || total.auditEvents > 0) {
      const { maxAgeDays, maxOperations, maxLogLinesPerOperation } = this.options.retention.policy;
      this.options.logger?.info(
        { ...total, maxAgeDays, maxOperations, maxLogLinesPerOperation },
        'retention removed finished operations, old log lines, idempotency keys and audit events',
      );
    }
    return total;
  }
}
