import type { KubeCluster } from '../cluster.js';
import type { Any } from '../controllers/util.js';
import type { KubeObject } from '../types.js';
import { portsOf, servingSpecOf, startupMs, type ServingSpec } from './servers.js';

/**
 * HTTP inside the cluster, in process: what a pod's port answers. The API server's proxy and the
 * SGLang router reach simulated servers through `servePod`, with bodies as streams both ways (a
 * request body is read only by the server that needs it; a response is written chunk by chunk as the
 * server yields it). A port nobody listens on — no serving container, one still loading, a pod not
 * running — refuses the connection, as a real pod's would.
 */

export interface PodHttpRequest {
  method: string;
  /** Path and query, starting with `/`. */
  path: string;
  /** Lower-case names, hop-by-hop headers already removed. */
  headers: Record<string, string>;
  body: AsyncIterable<Buffer>;
}

export interface PodHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Buffer | string>;
}

/** A dial that failed: the text Go's net package prints after `dial tcp <ip>:<port>: `. */
export class Unreachable extends Error {
  constructor(
    readonly address: string,
    why = 'connect: connection refused',
  ) {
    super(`dial tcp ${address}: ${why}`);
    this.name = 'Unreachable';
  }
}

/** What a serving container's running process knows (lost when it restarts, as a process's memory is). */
export interface ServingProcess {
  cluster: KubeCluster;
  pod: KubeObject;
  container: string;
  spec: ServingSpec;
  /** Requests being answered now. */
  running: number;
  /** Requests answered so far. */
  served: number;
  /** Tokens counted for /metrics. */
  promptTokens: number;
  generationTokens: number;
  /** The router's own state (router.ts). */
  router?: unknown;
}

export type PortHandler = (proc: ServingProcess, port: number, req: PodHttpRequest) => Promise<PodHttpResponse>;

const processes = new WeakMap<KubeCluster, Map<string, ServingProcess>>();
const handlers = new Map<string, PortHandler>();

/** Registers what answers a kind of serving container (model servers, the router: no import circle). */
export function registerServing(kind: ServingSpec['kind'], handler: PortHandler): void {
  handlers.set(kind, handler);
}

/** Reads a request body whole (the servers parse JSON). */
export async function readAll(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c);
  return Buffer.concat(chunks);
}

export async function* once(text: string | Buffer): AsyncIterable<Buffer | string> {
  yield text;
}

export const podIpOf = (pod: KubeObject): string | undefined => (pod.status as Any | undefined)?.podIP;

/**
 * The process listening on `port` of a pod, or why the dial fails. A container listens once it has
 * run for its start-up time (servers.ts); its process is remembered by pod uid, container and restart.
 */
export function listener(cluster: KubeCluster, pod: KubeObject, port: number): ServingProcess {
  const address = `${podIpOf(pod) ?? ''}:${port}`;
  const status = (pod.status ?? {}) as Any;
  if (status.phase !== 'Running' || !status.podIP) throw new Unreachable(address, 'connect: no route to host');
  const now = cluster.now();
  for (const container of ((pod.spec as Any)?.containers ?? []) as Any[]) {
    const spec = servingSpecOf(container);
    if (!spec || !portsOf(spec).includes(port)) continue;
    const cs = ((status.containerStatuses ?? []) as Any[]).find((c) => c.name === container.name);
    const started = cs?.state?.running?.startedAt;
    if (!started || now < Date.parse(started) + startupMs(spec)) break;
    const key = `${pod.metadata.uid}|${container.name}|${cs.restartCount ?? 0}`;
    const byCluster = processes.get(cluster) ?? new Map<string, ServingProcess>();
    processes.set(cluster, byCluster);
    let proc = byCluster.get(key);
    if (!proc) {
      proc = {
        cluster,
        pod,
        container: container.name,
        spec,
        running: 0,
        served: 0,
        promptTokens: 0,
        generationTokens: 0,
      };
      byCluster.set(key, proc);
    }
    proc.pod = pod;
    return proc;
  }
  throw new Unreachable(address);
}

/** Sends a request to a pod's port (throws Unreachable when nothing answers there). */
export async function servePod(
  cluster: KubeCluster,
  pod: KubeObject,
  port: number,
  req: PodHttpRequest,
): Promise<PodHttpResponse> {
  const proc = listener(cluster, pod, port);
  const handler = handlers.get(proc.spec.kind);
  if (!handler) throw new Unreachable(`${podIpOf(pod)}:${port}`);
  return handler(proc, port, req);
}

/** Counts a request in `running` until its answer has been written (or abandoned). */
export async function* tracked(
  proc: ServingProcess,
  body: AsyncIterable<Buffer | string>,
): AsyncIterable<Buffer | string> {
  try {
    yield* body;
  } finally {
    proc.running = Math.max(0, proc.running - 1);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
