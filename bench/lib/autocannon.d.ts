// autocannon ships no types; this declares the part of its programmatic API bench/ uses.
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    headers?: Record<string, string>;
  }
  /** The run's promise is also an emitter: `response` (client, statusCode, bytes, milliseconds) per answer. */
  type Run = Promise<Result> & import('node:events').EventEmitter;
  function autocannon(options: Options): Run;
  export default autocannon;
}
