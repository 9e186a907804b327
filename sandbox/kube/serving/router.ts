import { isAllowed, serviceAccountPrincipal } from '../authz.js';
import type { KubeCluster } from '../cluster.js';
import { hexHash, isReady, matchesSelector, T, unit, type Any } from '../controllers/util.js';
import type { KubeObject } from '../types.js';
import { parseChatRequest } from './completions.js';
import {
  once,
  podIpOf,
  readAll,
  registerServing,
  servePod,
  Unreachable,
  type PodHttpRequest,
  type PodHttpResponse,
  type ServingProcess,
} from './pod-http.js';
import { servingSpecOf, type RouterSpec } from './servers.js';

/**
 * The simulated SGLang router (sgl-project/sglang `sgl-model-gateway`, launched as
 * `python3 -m sglang_router.launch_router`). With `--service-discovery` it finds its workers as the real
 * one does through the Kubernetes API: the Running, Ready pods matching `--selector` in
 * `--service-discovery-namespace` (every namespace without it), each as `http://<pod IP>:<discovery
 * port>` — which needs its ServiceAccount to list and watch pods (checked with the cluster's
 * authorizer; without it the router has no workers and answers 503). Requests go to one worker by
 * `--policy`:
 *
 * - `cache_aware` (default): the worker whose cached prompts share the longest prefix with this one,
 *   when the match is ≥ `--cache-threshold` (0.3) of the prompt; otherwise, or when the load is
 *   unbalanced (max − min > `--balance-abs-threshold` and max > min × `--balance-rel-threshold`),
 *   the least-loaded worker (ties: the one with the smallest cache). The cache is the list of prompts
 *   sent to each worker (a stand-in for the router's approximate radix tree; assumed).
 * - `round_robin`, `random` (a hash of the request count: repeatable; assumed), `power_of_two`.
 *
 * It forwards the request and streams the worker's answer back, headers included. The main port
 * answers `/health`, `/liveness`, `/readiness`, `GET /workers` (upstream's WorkerListResponse:
 * `{workers, total, stats}`), `/v1/models`, `/v1/chat/completions`, `/v1/completions`, `/generate`;
 * the Prometheus port answers `/metrics` with upstream's names (`sgl_router_requests_total`,
 * `sgl_router_processed_requests_total`, `sgl_router_active_workers`, `sgl_router_running_requests`,
 * `sgl_router_cache_hits_total`, `sgl_router_cache_misses_total`).
 */

interface RouterState {
  picks: number;
  cache: Map<string, string[]>;
  requests: Map<string, number>;
  processed: Map<string, number>;
  running: Map<string, number>;
  cacheHits: number;
  cacheMisses: number;
}

export interface Worker {
  url: string;
  pod: KubeObject;
  port: number;
  modelId: string;
}

const FORWARDED = new Set(['/v1/chat/completions', '/v1/completions', '/generate', '/v1/models']);

const stateOf = (proc: ServingProcess): RouterState =>
  (proc.router ??= {
    picks: 0,
    cache: new Map(),
    requests: new Map(),
    processed: new Map(),
    running: new Map(),
    cacheHits: 0,
    cacheMisses: 0,
  } satisfies RouterState) as RouterState;

/** Why discovery fails for this router pod (Forbidden, as the API server would word it), or undefined. */
export function discoveryError(cluster: KubeCluster, pod: KubeObject, spec: RouterSpec): string | undefined {
  if (!spec.serviceDiscovery) return undefined;
  const ns = pod.metadata.namespace ?? 'default';
  const sa = String((pod.spec as Any)?.serviceAccountName ?? 'default');
  const who = serviceAccountPrincipal(ns, sa);
  for (const verb of ['list', 'watch'] as const) {
    if (!isAllowed(cluster, who, verb, T.pods, spec.discoveryNamespace)) {
      const where = spec.discoveryNamespace ? `in the namespace "${spec.discoveryNamespace}"` : 'at the cluster scope';
      return `pods is forbidden: User "${who.user.username}" cannot ${verb} resource "pods" in API group "" ${where}`;
    }
  }
  return undefined;
}

/** The workers the router sees now (ordered by pod name), or the discovery error. */
export function discoverWorkers(cluster: KubeCluster, pod: KubeObject, spec: RouterSpec): Worker[] | string {
  const error = discoveryError(cluster, pod, spec);
  if (error) return error;
  const live = (p: Readonly<KubeObject>) =>
    !p.metadata.deletionTimestamp && (p.status as Any)?.phase === 'Running' && !!podIpOf(p as KubeObject);
  const workerOf = (p: KubeObject, port: number): Worker => {
    const served = ((p.spec as Any)?.containers ?? []).map(servingSpecOf).find((s: Any) => s?.kind === 'model-server');
    return { url: `http://${podIpOf(p)}:${port}`, pod: p, port, modelId: served?.servedName ?? 'default' };
  };
  const found: Worker[] = [];
  if (spec.serviceDiscovery && Object.keys(spec.selector).length > 0) {
    const pods = cluster.objects.select(
      T.pods,
      spec.discoveryNamespace,
      (p) => live(p) && isReady(p as KubeObject) && matchesSelector(p.metadata.labels, { matchLabels: spec.selector }),
    ).items;
    for (const p of pods) found.push(workerOf(p, spec.discoveryPort));
  }
  for (const url of spec.workerUrls) {
    const m = /^https?:\/\/([^/:]+):(\d+)/.exec(url);
    if (!m) continue;
    const target = cluster.objects.select(T.pods, undefined, (p) => live(p) && podIpOf(p as KubeObject) === m[1]);
    if (target.items[0]) found.push(workerOf(target.items[0], Number(m[2])));
  }
  return found.sort((a, b) => String(a.pod.metadata.name).localeCompare(String(b.pod.metadata.name)));
}

const commonPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

/** Orders the workers by preference for this request (the first is the policy's pick; the rest are retries). */
function rank(state: RouterState, spec: RouterSpec, seed: string, workers: Worker[], text: string): Worker[] {
  const load = (w: Worker) => state.running.get(w.url) ?? 0;
  const cacheSize = (w: Worker) => (state.cache.get(w.url) ?? []).reduce((n, t) => n + t.length, 0);
  const byLoad = () => [...workers].sort((a, b) => load(a) - load(b) || cacheSize(a) - cacheSize(b));
  const pick = state.picks++;
  const rotate = (i: number) => [...workers.slice(i), ...workers.slice(0, i)];
  switch (spec.policy) {
    case 'round_robin':
      return rotate(pick % workers.length);
    case 'random':
      return rotate(Math.floor(unit(`${seed}|${pick}`) * workers.length));
    case 'power_of_two': {
      const a = workers[Math.floor(unit(`${seed}|${pick}|a`) * workers.length)]!;
      const b = workers[Math.floor(unit(`${seed}|${pick}|b`) * workers.length)]!;
      const chosen = load(b) < load(a) ? b : a;
      return [chosen, ...workers.filter((w) => w !== chosen)];
    }
    default: {
      const loads = workers.map(load);
      const max = Math.max(...loads);
      const min = Math.min(...loads);
      if (max - min > spec.balanceAbs && max > min * spec.balanceRel) return byLoad();
      let best: Worker | undefined;
      let bestMatch = 0;
      for (const w of workers) {
        const match = Math.max(0, ...(state.cache.get(w.url) ?? []).map((t) => commonPrefix(t, text)));
        if (match > bestMatch) [best, bestMatch] = [w, match];
      }
      const hit = !!best && text.length > 0 && bestMatch / text.length >= spec.cacheThreshold;
      if (hit) state.cacheHits += 1;
      else state.cacheMisses += 1;
      const ordered = hit ? [best!, ...byLoad().filter((w) => w !== best)] : byLoad();
      const cached = state.cache.get(ordered[0]!.url) ?? [];
      if (text && !cached.includes(text)) state.cache.set(ordered[0]!.url, [...cached, text].slice(-256));
      return ordered;
    }
  }
}

const json = (status: number, value: unknown): PodHttpResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: once(JSON.stringify(value)),
});

const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);

async function handleRouter(proc: ServingProcess, port: number, req: PodHttpRequest): Promise<PodHttpResponse> {
  const spec = proc.spec as RouterSpec;
  const state = stateOf(proc);
  const path = req.path.split('?')[0]!.replace(/\/+$/, '') || '/';
  if (port === spec.prometheusPort && port !== spec.port) {
    if (path !== '/metrics') return { status: 404, headers: {}, body: once('') };
    return {
      status: 200,
      headers: { 'content-type': 'text/plain; version=0.0.4' },
      body: once(metricsText(proc, spec, state)),
    };
  }
  bump(state.requests, `${path}|${req.method.toUpperCase()}`);
  const workers = discoverWorkers(proc.cluster, proc.pod, spec);
  const list = Array.isArray(workers) ? workers : [];
  switch (path) {
    case '/liveness':
      return { status: 200, headers: {}, body: once('') };
    case '/health':
    case '/readiness':
      return list.length > 0 ? { status: 200, headers: {}, body: once('') } : json(503, noWorkers());
    case '/workers':
      if (req.method.toUpperCase() !== 'GET') break;
      return json(200, workerList(state, list));
  }
  if (!FORWARDED.has(path)) return json(404, { error: { message: `Not found: ${path}`, code: 404 } });
  if (list.length === 0) return json(503, noWorkers());
  const body = await readAll(req.body);
  let text = '';
  if (path === '/v1/chat/completions') {
    try {
      text = parseChatRequest(body).prompt;
    } catch {
      text = '';
    }
  } else if (body.length) {
    text = body.toString('utf8');
  }
  for (const worker of rank(state, spec, String(proc.pod.metadata.uid), list, text)) {
    try {
      const answer = await servePod(proc.cluster, worker.pod, worker.port, {
        ...req,
        body: once(body) as AsyncIterable<Buffer>,
      });
      bump(state.processed, worker.url);
      bump(state.running, worker.url);
      return { ...answer, body: countedUntilDone(state, worker.url, answer.body) };
    } catch (err) {
      // The real router retries another worker when one cannot be reached.
      if (!(err instanceof Unreachable)) throw err;
    }
  }
  return json(503, noWorkers());
}

async function* countedUntilDone(state: RouterState, url: string, body: AsyncIterable<Buffer | string>) {
  try {
    yield* body;
  } finally {
    bump(state.running, url, -1);
  }
}

const noWorkers = () => ({ error: { message: 'No available workers (all circuits open or unhealthy)', code: 503 } });

function workerList(state: RouterState, workers: Worker[]) {
  const load = (w: Worker) => Math.max(0, state.running.get(w.url) ?? 0);
  return {
    workers: workers.map((w) => ({
      id: hexHash(w.url, 8) + '-' + hexHash(`${w.url}|id`, 4),
      url: w.url,
      model_id: w.modelId,
      priority: 50,
      cost: 1.0,
      worker_type: 'regular',
      is_healthy: true,
      load: load(w),
      connection_mode: 'http',
      metadata: { pod_name: String(w.pod.metadata.name), namespace: String(w.pod.metadata.namespace) },
    })),
    total: workers.length,
    stats: {
      total_workers: workers.length,
      healthy_workers: workers.length,
      total_models: new Set(workers.map((w) => w.modelId)).size,
      total_load: workers.reduce((n, w) => n + load(w), 0),
      by_type: { regular: workers.length, prefill: 0, decode: 0 },
    },
  };
}

function metricsText(proc: ServingProcess, spec: RouterSpec, state: RouterState): string {
  const workers = discoverWorkers(proc.cluster, proc.pod, spec);
  const list = Array.isArray(workers) ? workers : [];
  const out: string[] = [];
  const family = (name: string, type: string, help: string, rows: Array<[string, number]>) => {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of rows) out.push(`${name}${labels ? `{${labels}}` : ''} ${value}`);
  };
  family(
    'sgl_router_requests_total',
    'counter',
    'Total number of requests by route and method',
    [...state.requests].map(([key, n]) => {
      const [route, method] = key.split('|');
      return [`route="${route}",method="${method}"`, n];
    }),
  );
  family(
    'sgl_router_processed_requests_total',
    'counter',
    'Total requests processed by each worker',
    [...state.processed].map(([url, n]) => [`worker="${url}"`, n]),
  );
  family('sgl_router_active_workers', 'gauge', 'Number of currently active workers', [['', list.length]]);
  family(
    'sgl_router_running_requests',
    'gauge',
    'Number of running requests per worker',
    list.map((w) => [`worker="${w.url}"`, Math.max(0, state.running.get(w.url) ?? 0)]),
  );
  family('sgl_router_cache_hits_total', 'counter', 'Total cache hits of the cache-aware policy', [
    ['', state.cacheHits],
  ]);
  family('sgl_router_cache_misses_total', 'counter', 'Total cache misses of the cache-aware policy', [
    ['', state.cacheMisses],
  ]);
  return `${out.join('\n')}\n`;
}

registerServing('router', handleRouter);
