import { HealthzProbe } from './lib/probe.js';
import { removeDir, RssSampler, tempDir } from './lib/processes.js';
import { http, logIn, SandboxAdmin, startServe, useSandbox, type Served } from './lib/servers.js';
import { int, mb, median, ms, percentile, progress, report, table } from './lib/stats.js';
import { bigCluster } from './lib/world.js';

/**
 * (d) The node table of a large cluster: a HyperPod cluster of `total` nodes in two instance groups
 * (made with the SDK on the sandbox, as in test/web/nodes-5000.test.ts), read a page at a time
 * through our REST API. Cold = the first read after the server starts (restarted for each further
 * cold sample); warm = the same page again at once. All the while a probe asks /healthz every 50 ms
 * and the server's RSS is sampled every 250 ms.
 */

export interface NodesOptions {
  total: number;
  speed: number;
  /** Cold reads after the first one, each after a restart of the server. */
  restarts: number;
  warmReads: number;
  /** Reads of the first page each 10 s after the previous read, as the UI refreshes. */
  refreshReads: number;
  quietSeconds: number;
}

interface Read {
  what: string;
  ms: number;
  status: number;
  code?: string;
}

const CLUSTER = 'big';
/** The node table's refresh interval (web/). */
const REFRESH_MS = 10_000;

export async function nodes5000(options: NodesOptions): Promise<Record<string, unknown>> {
  const dir = tempDir('nodes');
  const dataDir = `${dir}/data`;
  let served: Served = await startServe({ dataDir, speed: options.speed, logFile: logIn(dir, 'serve-0') });
  let sampler = new RssSampler(served.pid);
  const peaks = { kb: 0, treeKb: 0 };
  const probe = new HealthzProbe(served.url);
  const reads: Read[] = [];
  const starts: number[] = [];
  try {
    useSandbox(served.sandboxUrl);
    const admin = new SandboxAdmin(served.sandboxUrl);
    progress(`(d) building a HyperPod cluster of ${options.total} nodes on the sandbox (SDK, clock jumps)`);
    const { faulted, setupMs, groups } = await bigCluster(admin, CLUSTER, options.total);
    const idle = sampler.sample();

    progress(`(d) /healthz while the cluster ticks, no reads: ${options.quietSeconds} s`);
    probe.start('quiet');
    await new Promise((r) => setTimeout(r, options.quietSeconds * 1000));
    probe.start('reads');

    const read = async (what: string, query: string): Promise<any> => {
      const t0 = performance.now();
      const r = await http(`${served.url}/api/v1/clusters/${CLUSTER}/nodes?${query}`);
      reads.push({
        what,
        ms: performance.now() - t0,
        status: r.status,
        ...(r.status !== 200 ? { code: r.body?.code ?? r.body?.title } : {}),
      });
      return r.status === 200 ? r.body : undefined;
    };
    const cold = async () => {
      const first = await read('cold', 'limit=50');
      if (first && first.total !== options.total)
        throw new Error(`the first page says ${first.total} nodes, not ${options.total}`);
      return first;
    };

    progress('(d) cold first page, warm pages, filtered pages, next pages');
    const first = await cold();
    for (let i = 0; i < options.warmReads; i++) await read('warm', 'limit=50');
    for (let i = 0; i <= options.warmReads; i++)
      await read(i === 0 ? 'filtered group, first' : 'filtered group', 'limit=50&group=beta');
    for (let i = 0; i <= options.warmReads; i++) {
      const failed = await read(i === 0 ? 'filtered health, first' : 'filtered health', 'limit=50&health=failed');
      if (failed && failed.total !== faulted.length)
        throw new Error(`health=failed finds ${failed.total} nodes, not the ${faulted.length} faulted`);
    }
    for (let i = 0; i < options.warmReads && first?.nextToken; i++)
      await read('next page', `limit=50&nextToken=${encodeURIComponent(first.nextToken)}`);
    // What the node table sees on each of its refreshes (every 10 s): nothing asked in between.
    for (let i = 0; i < options.refreshReads; i++) {
      await new Promise((r) => setTimeout(r, REFRESH_MS));
      await read('refresh', 'limit=50');
    }

    for (let i = 1; i <= options.restarts; i++) {
      progress(`(d) restart ${i} of ${options.restarts} for another cold read`);
      await probe.stop();
      sampler.stop();
      peaks.kb = Math.max(peaks.kb, sampler.peakKb);
      peaks.treeKb = Math.max(peaks.treeKb, sampler.peakTreeKb);
      await served.stop();
      served = await startServe({ dataDir, speed: options.speed, logFile: logIn(dir, `serve-${i}`) });
      starts.push(served.startedInMs);
      sampler = new RssSampler(served.pid);
      probe.start('reads', served.url);
      await cold();
      for (let j = 0; j < 2; j++) await read('warm', 'limit=50');
    }
    await probe.stop();
    sampler.stop();
    peaks.kb = Math.max(peaks.kb, sampler.peakKb);
    peaks.treeKb = Math.max(peaks.treeKb, sampler.peakTreeKb);

    const of = (what: string) => reads.filter((r) => r.what === what && r.status === 200).map((r) => r.ms);
    const failures = reads.filter((r) => r.status !== 200);
    const quiet = probe.figures('quiet');
    const during = probe.figures('reads');
    const rows: string[][] = [
      ['figure', 'value', 'target'],
      [`cold first page (limit 50), ${of('cold').length} sample(s)`, of('cold').map(ms).join(', ') || '–', '≤ 1 s'],
      ['warm page: median / p99', `${ms(median(of('warm')))} / ${ms(percentile(of('warm'), 99))}`, '≤ 50 ms'],
      [
        'filtered by group: first / then median',
        `${ms(of('filtered group, first')[0] ?? NaN)} / ${ms(median(of('filtered group')))}`,
        '',
      ],
      [
        'filtered by health (failed): first / then median',
        `${ms(of('filtered health, first')[0] ?? NaN)} / ${ms(median(of('filtered health')))}`,
        '',
      ],
      ['next page (nextToken): median', ms(median(of('next page'))), ''],
      [
        `first page again 10 s later (the UI's refresh), ${of('refresh').length} sample(s)`,
        of('refresh').map(ms).join(', ') || '–',
        '',
      ],
      [
        'failures (non-200 answers)',
        `${failures.length} of ${reads.length}${failures.length ? `: ${failures.map((f) => `${f.what} ${f.status} ${f.code ?? ''}`).join('; ')}` : ''}`,
        '0',
      ],
      ['server RSS: idle after the build / peak', `${mb(idle.kb)} / ${mb(peaks.kb)}`, '≤ 600 MB'],
      ['server and its child processes: peak RSS', mb(peaks.treeKb), ''],
      [
        `/healthz while the cluster ticks, no reads (${quiet.count} probes)`,
        `p50 ${ms(quiet.p50)}, p99 ${ms(quiet.p99)}, max ${ms(quiet.max)}, ${quiet.failures} failed`,
        'p99 ≤ 20 ms',
      ],
      [
        `/healthz during the node reads (${during.count} probes)`,
        `p50 ${ms(during.p50)}, p99 ${ms(during.p99)}, max ${ms(during.max)}, ${during.failures} failed`,
        '',
      ],
      ['server start with this state (to its UI address)', starts.length ? starts.map(ms).join(', ') : '–', ''],
      ['sandbox build of the cluster (SDK + clock jumps)', ms(setupMs), ''],
    ];
    report(
      `(d) node table at ${int(options.total)} nodes (groups ${Object.entries(groups)
        .map(([g, n]) => `${g} ${n}`)
        .join(', ')}; sandbox speed ${options.speed})`,
      table(rows),
    );
    return { reads, quiet, during, peaks, idleKb: idle.kb, starts, setupMs };
  } finally {
    await probe.stop();
    sampler.stop();
    await served.stop();
    removeDir(dir);
  }
}
