import { paired, startReference, type Paired } from './lib/load.js';
import { http, type SandboxAdmin, type Served } from './lib/servers.js';
import { int, ms, progress, ratio, report, table } from './lib/stats.js';
import { extraClusters } from './lib/world.js';

/**
 * (a) REST reads against a bare Fastify answering the same bodies. Each body is captured from our
 * server first and served byte for byte (same status and content type) by reference-server.ts in
 * another process; autocannon then loads ours and the reference in turn, round after round.
 */

export interface ReadsOptions {
  dir: string;
  cluster: string;
  operationId: string;
  zone: string;
  connections: number;
  rounds: number;
  seconds: number;
  warmupSeconds: number;
}

interface Endpoint {
  label: string;
  path: string;
  /** What the captured answer must show for the figure to mean what its label says. */
  check?: (body: any) => string | undefined;
}

export interface ReadFigure extends Paired {
  label: string;
  path: string;
  bytes: number;
}

async function measure(
  served: Served,
  endpoints: Endpoint[],
  options: ReadsOptions,
  name: string,
): Promise<ReadFigure[]> {
  const captured = [];
  for (const [i, e] of endpoints.entries()) {
    const r = await http(`${served.url}${e.path}`);
    if (r.status !== 200) throw new Error(`${e.label}: our server answered ${r.status}: ${r.text.slice(0, 500)}`);
    const problem = e.check?.(r.body);
    if (problem) throw new Error(`${e.label}: ${problem}`);
    captured.push({ path: `/r/${i}`, status: r.status, contentType: r.contentType, body: r.text });
  }
  const reference = await startReference(options.dir, name, captured);
  try {
    const out: ReadFigure[] = [];
    for (const [i, e] of endpoints.entries()) {
      progress(`(a) ${e.label}: ours vs bare Fastify, ${options.rounds} × ${options.seconds} s each`);
      const p = await paired(`${served.url}${e.path}`, `${reference.url}/r/${i}`, options);
      out.push({ label: e.label, path: e.path, bytes: Buffer.byteLength(captured[i]!.body), ...p });
    }
    return out;
  } finally {
    await reference.stop();
  }
}

const clusters = (n: number) => (body: any) =>
  body?.clusters?.length === n ? undefined : `expected ${n} clusters, the answer lists ${body?.clusters?.length}`;

export async function restReads(served: Served, admin: SandboxAdmin, options: ReadsOptions): Promise<ReadFigure[]> {
  const first = await measure(
    served,
    [
      { label: 'GET /healthz', path: '/healthz' },
      { label: 'GET /api/v1/clusters (1 cluster)', path: '/api/v1/clusters', check: clusters(1) },
      { label: 'GET /api/v1/operations', path: '/api/v1/operations' },
      { label: 'GET /api/v1/operations/{id}', path: `/api/v1/operations/${options.operationId}` },
      {
        label: 'GET /api/v1/instance-types?region&availabilityZone',
        path: `/api/v1/instance-types?region=us-west-2&availabilityZone=${options.zone}`,
      },
      {
        label: 'GET /api/v1/clusters/{name}/nodes?limit=50',
        path: `/api/v1/clusters/${options.cluster}/nodes?limit=50`,
      },
    ],
    options,
    'reference-1',
  );
  progress('(a) making 9 more HyperPod clusters on the sandbox (SDK) for the 10-cluster list');
  await extraClusters(admin, 9);
  const ten = await measure(
    served,
    [{ label: 'GET /api/v1/clusters (10 clusters)', path: '/api/v1/clusters', check: clusters(10) }],
    options,
    'reference-10',
  );
  const all = [first[0]!, first[1]!, ten[0]!, ...first.slice(2)];
  report(
    `(a) REST reads vs a bare Fastify serving the same bodies (autocannon, ${options.connections} connections, ${options.rounds} alternating rounds of ${options.seconds} s; medians)`,
    table([
      [
        'endpoint',
        'body',
        'ours req/s',
        'bare req/s',
        'ours/bare',
        'ours p50',
        'ours p99',
        'bare p50',
        'bare p99',
        'failures',
      ],
      ...all.map((f) => [
        f.label,
        `${int(f.bytes)} B`,
        int(f.ours.rps),
        int(f.reference.rps),
        ratio(f.ratio),
        ms(f.ours.p50),
        ms(f.ours.p99),
        ms(f.reference.p50),
        ms(f.reference.p99),
        int(f.ours.failures),
      ]),
    ]),
  );
  return all;
}
