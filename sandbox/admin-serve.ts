import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeCluster } from './kube/cluster.js';
import { T, type Any } from './kube/controllers/util.js';
import { servePod, servingSpecOf, Unreachable, type PodHttpResponse } from './kube/serving/index.js';

/**
 * `/_sandbox/kube/<cluster>/pods/<namespace>/<pod>[:<port>]/serve/<path>`: a sandbox device that sends one request
 * straight to what a pod's port serves (a simulated model server or router, kube/serving), with no Kubernetes API
 * server, authentication or service proxy in between, and streams the answer back as the server yields it. The bench
 * measures the model server through it, as the reference for the same request sent through our API and the service
 * proxy. Without a port, the first port of the pod's first serving container. Loopback and unsigned, like the rest
 * of `/_sandbox/*`; product code never calls it.
 */

const SERVE_PATH = /^\/_sandbox\/kube\/([^/]+)\/pods\/([^/]+)\/([^/]+)\/serve(\/.*)?$/;

export interface ServeRoute {
  cluster: string;
  namespace: string;
  pod: string;
  port?: number;
  path: string;
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The route's parts, or undefined when the path is not a direct-serve path. */
export function matchServe(rawPath: string): ServeRoute | undefined {
  const m = SERVE_PATH.exec(rawPath);
  if (!m) return undefined;
  const [pod, port] = decode(m[3]!).split(':', 2) as [string, string | undefined];
  return {
    cluster: decode(m[1]!),
    namespace: decode(m[2]!),
    pod,
    ...(port !== undefined && /^\d+$/.test(port) ? { port: Number(port) } : {}),
    path: m[4] ?? '/',
  };
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host']);

function problem(res: ServerResponse, status: number, error: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error }));
}

export async function serveDirect(
  route: ServeRoute,
  search: string,
  req: IncomingMessage,
  res: ServerResponse,
  clusterNamed: (name: string) => KubeCluster | 'ambiguous' | undefined,
): Promise<void> {
  const cluster = clusterNamed(route.cluster);
  if (cluster === 'ambiguous') return problem(res, 400, `EKS clusters named ${route.cluster} live in several Regions`);
  if (!cluster) return problem(res, 404, `no live sandbox EKS cluster named ${route.cluster}`);
  const pod = cluster.objects.get(T.pods, route.namespace, route.pod);
  if (!pod) return problem(res, 404, `no pod ${route.namespace}/${route.pod} in ${route.cluster}`);
  const port =
    route.port ??
    ((pod.spec as Any)?.containers as Any[] | undefined)
      ?.map((c) => servingSpecOf(c)?.port)
      .find((p): p is number => p !== undefined);
  if (port === undefined) return problem(res, 400, `pod ${route.namespace}/${route.pod} runs no serving container`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  let answer: PodHttpResponse;
  try {
    answer = await servePod(cluster, pod, port, {
      method: (req.method ?? 'GET').toUpperCase(),
      path: `${route.path}${search}`,
      headers,
      body: req,
    });
  } catch (err) {
    if (err instanceof Unreachable) return problem(res, 503, err.message);
    throw err;
  }
  res.writeHead(answer.status, answer.headers);
  res.flushHeaders();
  let gone = false;
  res.on('close', () => (gone = true));
  for await (const chunk of answer.body) {
    if (gone || res.destroyed) break;
    if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  }
  if (!res.writableEnded) res.end();
}
