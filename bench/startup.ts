import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, removeDir, RssSampler, startChild, tempDir, type Child } from './lib/processes.js';
import { mb, median, ms, progress, ratio, report, table } from './lib/stats.js';

/**
 * (e) Start-up time and idle memory: `instantstart serve` (embedded sandbox cloud, empty data
 * directory) from spawn until `GET /healthz` answers 200, against a bare Fastify process doing the
 * same, started in turn. Idle RSS is read after `idleSeconds` with nothing asked.
 */

export type Kind = 'ours' | 'bare';

export interface StartFigures {
  ms: number;
  idleKb: number;
  idleTreeKb: number;
}

async function untilHealthy(url: string, child: Child, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.arrayBuffer().then(() => r.status === 200),
      () => false,
    );
    if (ok) return;
    if (child.process.exitCode !== null || Date.now() > deadline)
      throw new Error(`no /healthz answer:\n${child.output().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Starts one server of `kind`, times it to its first /healthz answer, optionally idles, then stops it. */
export async function startOnce(kind: Kind, idleSeconds = 0): Promise<StartFigures> {
  const dir = tempDir(`start-${kind}`);
  const port = await freePort();
  let args: string[];
  if (kind === 'ours') {
    args = [
      'bin/instantstart.mjs',
      'serve',
      '--port',
      String(port),
      '--sandbox-port',
      '0',
      '--data-dir',
      join(dir, 'data'),
    ];
  } else {
    writeFileSync(join(dir, 'answers.json'), '[]');
    args = ['dist/bench/reference-server.js', join(dir, 'answers.json'), String(port)];
  }
  const t0 = performance.now();
  const child = startChild(args, join(dir, 'out.log'), {
    ...process.env,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  });
  try {
    await untilHealthy(`http://127.0.0.1:${port}`, child);
    const took = performance.now() - t0;
    let idle = { kb: Number.NaN, treeKb: Number.NaN };
    if (idleSeconds > 0) {
      await new Promise((r) => setTimeout(r, idleSeconds * 1000));
      const sampler = new RssSampler(child.pid, 1_000_000);
      idle = sampler.sample();
      sampler.stop();
    }
    return { ms: took, idleKb: idle.kb, idleTreeKb: idle.treeKb };
  } finally {
    await child.stop();
    removeDir(dir);
  }
}

export async function startup(options: { runs: number; idleSeconds: number }): Promise<Record<Kind, StartFigures[]>> {
  const runs: Record<Kind, StartFigures[]> = { ours: [], bare: [] };
  progress(`(e) start-up: ${options.runs} runs each, ours and bare Fastify in turn (plus one warm-up each)`);
  await startOnce('ours');
  await startOnce('bare');
  for (let i = 0; i < options.runs; i++) {
    runs.ours.push(await startOnce('ours', options.idleSeconds));
    runs.bare.push(await startOnce('bare', options.idleSeconds));
  }
  const med = (k: Kind, f: keyof StartFigures) => median(runs[k].map((r) => r[f]));
  const ratios = runs.ours.map((o, i) => o.ms / runs.bare[i]!.ms);
  report(
    `(e) start-up time (spawn → first /healthz 200) and idle RSS after ${options.idleSeconds} s (${options.runs} alternating runs; medians)`,
    table([
      ['process', 'start-up', 'min … max', 'idle RSS', 'with children'],
      [
        'instantstart serve (embedded sandbox, empty data dir)',
        ms(med('ours', 'ms')),
        `${ms(Math.min(...runs.ours.map((r) => r.ms)))} … ${ms(Math.max(...runs.ours.map((r) => r.ms)))}`,
        mb(med('ours', 'idleKb')),
        mb(med('ours', 'idleTreeKb')),
      ],
      [
        'bare Fastify',
        ms(med('bare', 'ms')),
        `${ms(Math.min(...runs.bare.map((r) => r.ms)))} … ${ms(Math.max(...runs.bare.map((r) => r.ms)))}`,
        mb(med('bare', 'idleKb')),
        mb(med('bare', 'idleTreeKb')),
      ],
    ]) + `\nours/bare start-up: ${ratio(median(ratios))} (median of the per-pair ratios)`,
  );
  return runs;
}
