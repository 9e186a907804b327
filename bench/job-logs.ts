import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { stringify } from 'yaml';
import { removeDir, ROOT, RssSampler, startChild, tempDir, waitForOutput } from './lib/processes.js';
import { http, logIn, startServe, useSandbox } from './lib/servers.js';
import { int, mb, ms, progress, report, table } from './lib/stats.js';

/**
 * (f) A million log lines through the job-log follow WebSocket: a one-rank HyperPodPyTorchJob whose
 * simulated trainer prints `lines` step lines as fast as it is read (a step every sandbox
 * millisecond), followed from its start: the sandbox runs in real time while the job starts and the
 * socket opens, and at the sandbox's speed from the first line on. Time runs from the first line to the last.
 * The server's RSS is sampled at the start, every 100 ms (the peak) and at the end; the reference,
 * side by side in the same run, is a bare Fastify + @fastify/websocket relaying one identical job's
 * pod log with the same Kubernetes client (log-relay-reference.ts). Both are child processes; the
 * sandbox runs in its own.
 */

export interface JobLogsOptions {
  lines: number;
  speed: number;
}

interface Run {
  lines: number;
  ms: number;
  startKb: number;
  peakKb: number;
  /** RSS when a quarter, half and three quarters of the lines had arrived: flat memory plateaus early. */
  quartersKb: number[];
  endKb: number;
  ended: string;
}

const CLUSTER = 'logbench';
/** How every line message starts (both relays stringify `{type: 'line', …}` first). */
const LINE = Buffer.from('{"type":"line",');

/** The job as a user would apply it with kubectl (bench/ drives the product from outside: no product imports). */
function job(name: string, steps: number) {
  return {
    apiVersion: 'sagemaker.amazonaws.com/v1',
    kind: 'HyperPodPyTorchJob',
    metadata: { name, namespace: 'default' },
    spec: {
      nprocPerNode: '1',
      runPolicy: { jobMaxRetryCount: 0, cleanPodPolicy: 'None' },
      replicaSpecs: [
        {
          name: 'pod',
          replicas: 1,
          template: {
            metadata: {
              annotations: {
                'sandbox.instantstart.dev/steps': String(steps),
                'sandbox.instantstart.dev/step-seconds': '0.001',
              },
            },
            spec: {
              containers: [
                {
                  name: 'pytorch',
                  image: '763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-cpu-py311',
                  command: ['hyperpodrun', '--nnodes=1', '/workspace/train.py'],
                },
              ],
            },
          },
        },
      ],
    },
  };
}

/** Reads a follow socket to its end, counting line messages; samples the relaying process's RSS meanwhile. */
async function follow(
  url: string,
  origin: string,
  pid: number,
  expected: number,
  onFirstLine: () => Promise<void>,
): Promise<Run> {
  const sampler = new RssSampler(pid, 100);
  const startKb = sampler.sample().kb;
  const quartersKb: number[] = [];
  const quarter = Math.floor(expected / 4);
  let first = 0;
  let last = 0;
  let lines = 0;
  let ended = '';
  await new Promise<void>((resolve, reject) => {
    const ws = new WebSocket(url, { origin });
    ws.on('message', (data: Buffer) => {
      // Counting by prefix: parsing a million messages would measure the bench, not the server.
      if (data.subarray(0, LINE.length).equals(LINE)) {
        if (lines++ === 0) {
          first = performance.now();
          void onFirstLine();
        }
        last = performance.now();
        if (lines % quarter === 0 && quartersKb.length < 3) quartersKb.push(sampler.sample().kb);
      } else {
        const m = JSON.parse(String(data)) as { type: string; reason?: string };
        if (m.type === 'rank-ended' || m.type === 'dropped' || m.type === 'error') {
          ended = `${m.type}${m.reason ? `: ${m.reason}` : ''}`;
          ws.close();
        }
      }
    });
    ws.once('close', () => resolve());
    ws.once('error', reject);
  });
  // From the first line to the last: the relays' throughput, not how soon the pod started.
  const elapsed = last - first;
  await new Promise((r) => setTimeout(r, 2000));
  const endKb = sampler.sample().kb;
  sampler.stop();
  return { lines, ms: elapsed, startKb, peakKb: sampler.peakKb, quartersKb, endKb, ended };
}

export async function jobLogs(options: JobLogsOptions): Promise<Record<string, unknown>> {
  const dir = tempDir('logs');
  const served = await startServe({ dataDir: join(dir, 'data'), speed: options.speed, logFile: logIn(dir, 'serve') });
  let reference: Awaited<ReturnType<typeof startChild>> | undefined;
  try {
    useSandbox(served.sandboxUrl);
    progress(`(f) a one-node cluster at sandbox speed ${options.speed}`);
    const created = await http(`${served.url}/api/v1/clusters`, {
      method: 'POST',
      body: {
        name: CLUSTER,
        availabilityZone: 'us-west-2b',
        instanceType: 'ml.c5.xlarge',
        instanceCount: 1,
        storage: { s3: false },
      },
    });
    if (created.status !== 202) throw new Error(`create: ${created.status} ${created.text}`);
    for (;;) {
      const op = await http(`${served.url}/api/v1/operations/${created.body.operation.id}/wait?timeoutSeconds=30`);
      if (op.body.status === 'succeeded') break;
      if (['failed', 'cancelled'].includes(op.body.status)) throw new Error(`create ${op.body.status}: ${op.text}`);
    }
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      execFileSync(process.execPath, ['bin/instantstart.mjs', 'kubeconfig', `${CLUSTER}-eks`], {
        cwd: ROOT,
        env: process.env,
        encoding: 'utf8',
      }),
    );
    const kubectl = (args: string[], input?: string) =>
      execFileSync('kubectl', ['--kubeconfig', kubeconfig, ...args], {
        cwd: ROOT,
        env: process.env,
        encoding: 'utf8',
        ...(input ? { input } : {}),
      });

    progress(`(f) the reference: a bare Fastify relaying one pod's ${int(options.lines)} lines`);
    reference = startChild(['dist/bench/log-relay-reference.js', kubeconfig], logIn(dir, 'reference'));
    const refUrl = await waitForOutput(reference, /listening (http:\/\/\S+)/, 30_000, 'the reference relay');
    // Real time while the job starts, so that each relay is attached before the flood; then the sandbox's speed.
    const clock = (speed: number) =>
      http(`${served.sandboxUrl}/_sandbox/clock`, { method: 'POST', body: { speed } }).then(() => undefined);
    await clock(1);
    kubectl(['apply', '-f', '-'], stringify(job('ref', options.lines)));
    const ref = await follow(
      `${refUrl.replace(/^http/, 'ws')}/follow?namespace=default&pod=ref-pod-0`,
      refUrl,
      reference.pid,
      options.lines,
      () => clock(options.speed),
    );
    await reference.stop();

    progress(`(f) ours: the follow WebSocket of a job with ${int(options.lines)} steps, opened as it is applied`);
    await clock(1);
    kubectl(['apply', '-f', '-'], stringify(job('ours', options.lines)));
    const ours = await follow(
      `${served.url.replace(/^http/, 'ws')}/api/v1/clusters/${CLUSTER}/jobs/default/ours/logs/follow?tailLines=10000`,
      served.url,
      served.pid,
      options.lines,
      () => clock(options.speed),
    );

    const row = (name: string, r: Run) => [
      name,
      int(r.lines),
      ms(r.ms),
      int(r.lines / (r.ms / 1000)),
      mb(r.startKb),
      r.quartersKb.map(mb).join(' / '),
      mb(r.peakKb),
      mb(r.endKb),
      r.ended,
    ];
    report(
      `(f) job logs: ${int(options.lines)} step lines through a follow WebSocket (sandbox speed ${options.speed}; server process RSS, sandbox excluded)`,
      table([
        ['relay', 'lines', 'time', 'lines/s', 'RSS start', 'at ¼ / ½ / ¾', 'RSS peak', 'RSS end', 'how it ended'],
        row('bare Fastify (reference)', ref),
        row('InstantStart follow', ours),
      ]),
    );
    return { reference: ref, ours };
  } finally {
    await reference?.stop();
    await served.stop();
    removeDir(dir);
  }
}
