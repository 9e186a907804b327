import { median, percentile } from './stats.js';

/**
 * Asks `GET /healthz` on a fixed schedule (every `everyMs`, never waiting for the previous answer),
 * so a server that stalls shows it in the latencies instead of the probe quietly asking less often.
 * Samples are kept per window label.
 */
export class HealthzProbe {
  private readonly samples = new Map<string, number[]>();
  private readonly failures = new Map<string, number>();
  private label = 'idle';
  private timer?: NodeJS.Timeout;
  private inflight = new Set<Promise<void>>();

  constructor(
    private url: string,
    private readonly everyMs = 50,
  ) {}

  start(label: string, url = this.url): void {
    this.url = url;
    this.label = label;
    this.timer ??= setInterval(() => this.fire(), this.everyMs);
  }

  /** Stops asking and waits for the answers still out. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all(this.inflight);
  }

  private fire(): void {
    const label = this.label;
    const t0 = performance.now();
    const p = fetch(`${this.url}/healthz`)
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 200) this.failures.set(label, (this.failures.get(label) ?? 0) + 1);
      })
      .catch(() => void this.failures.set(label, (this.failures.get(label) ?? 0) + 1))
      .finally(() => {
        const list = this.samples.get(label) ?? [];
        list.push(performance.now() - t0);
        this.samples.set(label, list);
        this.inflight.delete(p);
      });
    this.inflight.add(p);
  }

  figures(label: string): { count: number; p50: number; p99: number; max: number; failures: number } {
    const xs = this.samples.get(label) ?? [];
    return {
      count: xs.length,
      p50: median(xs),
      p99: percentile(xs, 99),
      max: Math.max(...xs),
      failures: this.failures.get(label) ?? 0,
    };
  }
}
