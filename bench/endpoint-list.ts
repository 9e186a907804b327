import { CLUSTER, ENDPOINT, type InferenceWorld, NAMESPACE } from './inference-world.js';
import { kubectlFor, type Kubectl } from './lib/kubectl.js';
import { paired, startReference } from './lib/load.js';
import { http, type Served } from './lib/servers.js';
import { int, median, ms, percentile, progress, ratio, report, table } from './lib/stats.js';
import { extraClusters } from './lib/world.js';

/**
 * (h) 1,000 endpoints across 10 clusters: the cluster of (g) and 9 more HyperPod clusters made with the SDK on the
 * sandbox, 100 container endpoints each. The endpoints are copies of the Deployment and Service our deploy made for
 * (g)'s endpoint (read back with kubectl, renamed, `replicas: 0` so that the sandbox does not run 1,000 pods the
 * list never reads) created straight through the Kubernetes API with kubectl: the list reads them live, with our
 * labels, as it reads what our deploys make. Then `GET /api/v1/clusters/{name}/endpoints` of each cluster in turn,
 * one request at a time: once live (our server keeps a list 2 s; rounds last longer), once again at once (the kept
 * answer), then the same request to a bare Fastify serving the same body (reference-server.ts); then autocannon on
 * one cluster's list against the same bare Fastify.
 */

export interface ListOptions {
  dir: string;
  perCluster: number;
  clusters: number;
  rounds: number;
  connections: number;
  seconds: number;
}

/** What the API server adds to an object: not part of a copy. */
function clean(o: any): any {
  const { uid, resourceVersion, creationTimestamp, generation, managedFields, ...metadata } = o.metadata;
  delete metadata.annotations?.['deployment.kubernetes.io/revision'];
  delete metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
  void [uid, resourceVersion, creationTimestamp, generation, managedFields];
  const copy = { apiVersion: o.apiVersion, kind: o.kind, metadata, spec: structuredClone(o.spec) };
  if (o.kind === 'Service') {
    delete copy.spec.clusterIP;
    delete copy.spec.clusterIPs;
  }
  if (o.kind === 'Deployment') {
    copy.spec.replicas = 0;
    delete copy.spec.template.metadata?.annotations?.['sandbox.instantstart.dev/answer-tokens'];
  }
  return copy;
}

/** Every string equal to `from` becomes `to` (names, labels, selectors); the kept deploy request is renamed too. */
function renamed(value: any, from: string, to: string): any {
  if (typeof value === 'string') {
    if (value === from) return to;
    if (value.startsWith('{') && value.includes(`"name":"${from}"`)) {
      const request = JSON.parse(value);
      request.name = to;
      return JSON.stringify(request);
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => renamed(v, from, to));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renamed(v, from, to)]));
  return value;
}

function fleetManifest(template: any[], names: string[]): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: names.flatMap((n) => renamed(template, ENDPOINT, n)),
  });
}

/** How long our server keeps an endpoint list (src/capabilities/inference/service.ts). */
const CACHE_MS = 2_000;

const names = (count: number, skip = 0) =>
  Array.from({ length: count - skip }, (_, i) => `ep-${String(i + 1 + skip).padStart(3, '0')}`);

export async function endpointList(
  served: Served,
  world: InferenceWorld,
  options: ListOptions,
): Promise<Record<string, unknown>> {
  const built = performance.now();
  const template = ['deployment', 'service'].map((kind) =>
    clean(JSON.parse(world.kubectl(['get', kind, ENDPOINT, '-n', NAMESPACE, '-o', 'json']))),
  );
  progress(`(h) ${options.clusters - 1} more HyperPod clusters on the sandbox (SDK)`);
  const extra = await extraClusters(world.admin, options.clusters - 1, 'fleet');
  const clusters: Array<{ name: string; kubectl: Kubectl }> = [
    { name: CLUSTER, kubectl: world.kubectl },
    ...extra.map((name) => ({ name, kubectl: kubectlFor(options.dir, `${name}-eks`) })),
  ];
  for (const [i, c] of clusters.entries()) {
    progress(`(h) ${options.perCluster} endpoints on ${c.name} (kubectl create)`);
    // (g)'s endpoint is one of the first cluster's.
    c.kubectl(['create', '-f', '-'], fleetManifest(template, names(options.perCluster, i === 0 ? 1 : 0)));
  }
  const buildMs = performance.now() - built;
  // Quiet from here on, as (g): sandbox time at real speed while the lists are read.
  await world.admin.speed(1);

  const path = (c: string) => `/api/v1/clusters/${c}/endpoints`;
  const first: number[] = [];
  const captured = [];
  for (const [i, c] of clusters.entries()) {
    const t0 = performance.now();
    const r = await http(`${served.url}${path(c.name)}`);
    first.push(performance.now() - t0);
    if (r.status !== 200) throw new Error(`${path(c.name)}: ${r.status} ${r.text.slice(0, 500)}`);
    if (r.body.endpoints?.length !== options.perCluster)
      throw new Error(`${c.name} lists ${r.body.endpoints?.length} endpoints, not ${options.perCluster}`);
    captured.push({ path: `/r/${i}`, status: r.status, contentType: r.contentType, body: r.text });
  }
  const reference = await startReference(options.dir, 'reference-endpoints', captured);
  try {
    const time = async (url: string) => {
      const t0 = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
      return performance.now() - t0;
    };
    progress(
      `(h) warm lists: ${options.rounds} rounds over ${clusters.length} clusters, ours and bare Fastify in turn`,
    );
    for (const [i, c] of clusters.entries()) {
      await time(`${served.url}${path(c.name)}`);
      await time(`${reference.url}/r/${i}`);
    }
    // Our list keeps a read for 2 s (a page polls it; agents ask again): a round lasts longer, so each cluster's
    // first read in it is live (its Kubernetes objects read again), and the read right after it is the kept one.
    const live: number[] = [];
    const kept: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const started = performance.now();
      for (const [i, c] of clusters.entries()) {
        live.push(await time(`${served.url}${path(c.name)}`));
        kept.push(await time(`${served.url}${path(c.name)}`));
        bare.push(await time(`${reference.url}/r/${i}`));
      }
      const left = started + CACHE_MS + 200 - performance.now();
      if (left > 0) await new Promise((r) => setTimeout(r, left));
    }
    progress(`(h) autocannon on ${CLUSTER}'s list vs bare Fastify`);
    const load = await paired(`${served.url}${path(CLUSTER)}`, `${reference.url}/r/0`, {
      connections: options.connections,
      seconds: options.seconds,
      rounds: Math.max(1, Math.round(options.rounds / 3)),
      warmupSeconds: 1,
    });
    const bytes = median(captured.map((c) => Buffer.byteLength(c.body)));
    const figures = {
      clusters: clusters.length,
      endpoints: clusters.length * options.perCluster,
      bytes,
      buildMs,
      firstMs: first,
      live: { p50: median(live), p99: percentile(live, 99), samples: live.length },
      kept: { p50: median(kept), p99: percentile(kept, 99) },
      bare: { p50: median(bare), p99: percentile(bare, 99) },
      load,
    };
    report(
      `(h) GET /api/v1/clusters/{name}/endpoints: ${int(figures.endpoints)} endpoints across ${clusters.length} clusters (${options.perCluster} each, body ~${int(bytes)} B; one request at a time, ${options.rounds} rounds over the clusters, each longer than the 2 s our list is kept)`,
      table([
        ['figure', 'ours', 'bare Fastify', 'goal'],
        [
          'first read of each cluster after the build: median / max',
          `${ms(median(first))} / ${ms(Math.max(...first))}`,
          '',
          '',
        ],
        [
          `warm list, read live (> 2 s after the last): p50 (${live.length} reads)`,
          ms(figures.live.p50),
          ms(figures.bare.p50),
          '≤ 100 ms',
        ],
        ['warm list, read live: p99', ms(figures.live.p99), ms(figures.bare.p99), ''],
        [
          'warm list, read again at once (kept 2 s): p50 / p99',
          `${ms(figures.kept.p50)} / ${ms(figures.kept.p99)}`,
          '',
          '',
        ],
        [
          `req/s, ${options.connections} connections (ours/bare ${ratio(load.ratio)})`,
          int(load.ours.rps),
          int(load.reference.rps),
          '',
        ],
        [
          'under that load: p50 / p99',
          `${ms(load.ours.p50)} / ${ms(load.ours.p99)}`,
          `${ms(load.reference.p50)} / ${ms(load.reference.p99)}`,
          '',
        ],
        ['build of the fleet (SDK clusters + kubectl create)', ms(buildMs), '', ''],
      ]),
    );
    return figures;
  } finally {
    await reference.stop();
  }
}
