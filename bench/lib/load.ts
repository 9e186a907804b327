import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startChild, waitForOutput, type Child } from './processes.js';
import { median, percentile } from './stats.js';

/** One autocannon run: throughput and latency as it measured them. */
export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx, plus socket errors and timeouts: each one is a failure. */
  failures: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
}

export async function load(url: string, options: LoadOptions): Promise<LoadFigures> {
  const run = autocannon({ url, connections: options.connections, duration: options.seconds });
  // autocannon's own histogram keeps whole milliseconds; the answers' own times keep the fraction.
  const latencies: number[] = [];
  run.on(
    'response',
    (_client: unknown, _status: number, _bytes: number, responseMs: number) => void latencies.push(responseMs),
  );
  const r = await run;
  return {
    rps: r.requests.average,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures: r.non2xx + r.errors + r.timeouts,
  };
}

/** Ours and the reference, round after round (A B A B …), then medians and the median of the per-round ratios. */
export interface Paired {
  ours: LoadFigures;
  reference: LoadFigures;
  /** median over rounds of ours.rps / reference.rps */
  ratio: number;
  rounds: number;
}

export async function paired(
  oursUrl: string,
  referenceUrl: string,
  options: LoadOptions & { rounds: number; warmupSeconds: number },
): Promise<Paired> {
  // Warm both (JIT, connection pools, caches) before anything counts.
  await load(oursUrl, { ...options, seconds: options.warmupSeconds });
  await load(referenceUrl, { ...options, seconds: options.warmupSeconds });
  const ours: LoadFigures[] = [];
  const ref: LoadFigures[] = [];
  for (let i = 0; i < options.rounds; i++) {
    ours.push(await load(oursUrl, options));
    ref.push(await load(referenceUrl, options));
  }
  const med = (xs: LoadFigures[]): LoadFigures => ({
    rps: median(xs.map((x) => x.rps)),
    p50: median(xs.map((x) => x.p50)),
    p99: median(xs.map((x) => x.p99)),
    failures: xs.reduce((s, x) => s + x.failures, 0),
  });
  return {
    ours: med(ours),
    reference: med(ref),
    ratio: median(ours.map((o, i) => o.rps / ref[i]!.rps)),
    rounds: options.rounds,
  };
}

/** A bare Fastify child serving `answers` (see reference-server.ts). */
export async function startReference(
  dir: string,
  name: string,
  answers: Array<{ path: string; status: number; contentType: string; body: string }>,
): Promise<Child & { url: string }> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(answers));
  const child = startChild(['dist/bench/reference-server.js', file], join(dir, `${name}.log`));
  const url = await waitForOutput(child, /listening (http:\/\/127\.0\.0\.1:\d+)/, 30_000, 'the reference Fastify');
  return { ...child, url };
}
