import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeCluster } from '../cluster.js';
import { KubeError, badRequest, methodNotAllowed, notFound } from '../errors.js';
import { T, type Any } from '../controllers/util.js';
import { servePod, Unreachable, type PodHttpResponse } from '../serving/index.js';
import type { KubeObject, ResourceType } from '../types.js';
import type { KubeVerb } from './context.js';

/**
 * The `proxy` subresource of Services and Pods, as kube-apiserver serves it
 * (kubernetes pkg/registry/core/service/proxy.go and storage.go `ResourceLocation`,
 * pkg/registry/core/pod/strategy.go `ResourceLocation`, v1.35):
 * `/api/v1/namespaces/<ns>/services/[http:|https:]<name>[:<port>]/proxy/<path>` and the same under
 * `pods/`. RBAC checks `services/proxy` / `pods/proxy` with the verb of the method (GET/HEAD get, POST
 * create, PUT update, PATCH patch, DELETE delete). A Service's port number is first turned into the
 * port's name; its Endpoints then give the address (no subsets: 503 `no endpoints available for
 * service "<name>"`; no ready address with that port: the same with the id as written). Upstream
 * picks an address at random; the sandbox takes them in turn (assumed: repeatable). The request and
 * the answer stream through as they come (SSE chunk by chunk), hop-by-hop headers and the caller's
 * Authorization dropped (the API server's authentication filter removes it). A pod that does not
 * answer on the port gives 503 `error trying to reach service: dial tcp <ip>:<port>: connect:
 * connection refused` (apimachinery pkg/util/proxy/transport.go). OPTIONS, which upstream also
 * proxies, is refused with 405 here (assumed: no simulated server answers it).
 */

const PROXY_PATH = /^\/api\/v1\/namespaces\/([^/]+)\/(services|pods)\/([^/]+)\/proxy(\/.*)?$/;

export interface ProxyRequest {
  namespace: string;
  type: ResourceType;
  /** `name`, `name:port` or `scheme:name:port`, decoded. */
  id: string;
  /** The path sent to the backend (still percent-encoded), `/` at least. */
  path: string;
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

export function matchProxy(pathname: string): ProxyRequest | undefined {
  const m = PROXY_PATH.exec(pathname);
  if (!m) return undefined;
  return {
    namespace: decode(m[1]!),
    type: m[2] === 'services' ? T.services : T.pods,
    id: decode(m[3]!),
    path: m[4] || '/',
  };
}

export function proxyVerb(method: string): KubeVerb {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return 'get';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return 'delete';
    default:
      throw methodNotAllowed('the server does not allow this method on the requested resource');
  }
}

/** utilnet.SplitSchemeNamePort: `name`, `name:port`, `scheme:name:port` with scheme "", http or https. */
function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  const [scheme, name, port] =
    parts.length === 1
      ? ['', parts[0]!, '']
      : parts.length === 2
        ? ['', parts[0]!, parts[1]!]
        : parts.length === 3
          ? parts
          : [];
  if (name === undefined || name === '' || !['', 'http', 'https'].includes(scheme!)) return undefined;
  return { scheme: scheme!, name, port: port! };
}

const unavailable = (message: string) => new KubeError(503, 'ServiceUnavailable', message);

/** Endpoint addresses already handed out per Service, to take them in turn. */
const turns = new WeakMap<KubeCluster, Map<string, number>>();

interface Target {
  pod: KubeObject;
  port: number;
  scheme: string;
}

function serviceTarget(cluster: KubeCluster, namespace: string, id: string): Target {
  const parsed = splitSchemeNamePort(id);
  if (!parsed) throw badRequest(`invalid service request "${id}"`);
  let portName = parsed.port;
  if (/^-?\d+$/.test(parsed.port)) {
    const svc = cluster.objects.get(T.services, namespace, parsed.name);
    if (!svc) throw notFound(T.services, parsed.name);
    const found = (((svc.spec as Any)?.ports ?? []) as Any[]).find((p) => Number(p.port) === Number(parsed.port));
    if (!found) throw unavailable(`no service port ${Number(parsed.port)} found for service "${parsed.name}"`);
    portName = found.name ?? '';
  }
  const eps = cluster.objects.get(T.endpoints, namespace, parsed.name);
  if (!eps) throw notFound(T.endpoints, parsed.name);
  const subsets = (eps.subsets ?? []) as Any[];
  if (subsets.length === 0) throw unavailable(`no endpoints available for service "${parsed.name}"`);
  for (const ss of subsets) {
    const addresses = (ss.addresses ?? []) as Any[];
    const port = ((ss.ports ?? []) as Any[]).find((p) => (p.name ?? '') === portName);
    if (!port || addresses.length === 0) continue;
    const key = `${namespace}/${parsed.name}`;
    const byCluster = turns.get(cluster) ?? new Map<string, number>();
    turns.set(cluster, byCluster);
    const start = byCluster.get(key) ?? 0;
    byCluster.set(key, start + 1);
    for (let i = 0; i < addresses.length; i++) {
      const addr = addresses[(start + i) % addresses.length]!;
      // isValidAddress: the address names a pod of this namespace that still has that IP.
      const ref = addr.targetRef as Any | undefined;
      if (ref?.kind !== 'Pod' || ref.namespace !== namespace) continue;
      const pod = cluster.objects.get(T.pods, namespace, String(ref.name));
      const ips = (((pod?.status as Any)?.podIPs ?? []) as Any[]).map((p) => p.ip);
      if (pod && ips.includes(addr.ip)) return { pod, port: Number(port.port), scheme: parsed.scheme };
    }
  }
  throw unavailable(`no endpoints available for service "${id}"`);
}

const NAMED_PORTS: Record<string, number> = { http: 80, https: 443 };

function podTarget(cluster: KubeCluster, namespace: string, id: string): Target {
  const parsed = splitSchemeNamePort(id);
  if (!parsed) throw badRequest(`invalid pod request "${id}"`);
  const pod = cluster.objects.get(T.pods, namespace, parsed.name);
  if (!pod) throw notFound(T.pods, parsed.name);
  let port = parsed.port;
  if (port === '') {
    const declared = (((pod.spec as Any)?.containers ?? []) as Any[]).find((c) => c.ports?.length)?.ports?.[0];
    if (declared) port = String(declared.containerPort);
  }
  const ip = (pod.status as Any)?.podIP as string | undefined;
  if (!ip) throw badRequest('address not allowed');
  const number =
    port === '' ? (parsed.scheme === 'https' ? 443 : 80) : /^\d+$/.test(port) ? Number(port) : NAMED_PORTS[port];
  if (number === undefined)
    throw unavailable(`error trying to reach service: dial tcp: lookup tcp/${port}: unknown port`);
  return { pod, port: number, scheme: parsed.scheme };
}

/** RFC 9110 §7.6.1: what is about one connection, never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function forwardedHeaders(req: IncomingMessage, host: string): Record<string, string> {
  const out: Record<string, string> = {};
  const listed = String(req.headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase());
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.includes(name) || name === 'authorization') continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  out.host = host;
  const client = req.socket.remoteAddress;
  if (client) out['x-forwarded-for'] = out['x-forwarded-for'] ? `${out['x-forwarded-for']}, ${client}` : client;
  return out;
}

export async function proxyRequest(
  cluster: KubeCluster,
  p: ProxyRequest,
  req: IncomingMessage,
  res: ServerResponse,
  search: string,
): Promise<void> {
  const target =
    p.type === T.services ? serviceTarget(cluster, p.namespace, p.id) : podTarget(cluster, p.namespace, p.id);
  const ip = String((target.pod.status as Any).podIP);
  const address = `${ip}:${target.port}`;
  // The simulated servers speak plain HTTP: a TLS client gets what Go's TLS says of such a server.
  if (target.scheme === 'https')
    throw unavailable('error trying to reach service: tls: first record does not look like a TLS handshake');
  let answer: PodHttpResponse;
  try {
    answer = await servePod(cluster, target.pod, target.port, {
      method: (req.method ?? 'GET').toUpperCase(),
      path: `${p.path}${search}`,
      headers: forwardedHeaders(req, address),
      body: req,
    });
  } catch (err) {
    if (err instanceof Unreachable) throw unavailable(`error trying to reach service: ${err.message}`);
    throw err;
  }
  await stream(answer, req, res);
}

/** Writes the backend's answer as it comes, stopping (and ending the backend's stream) if the caller goes away. */
async function stream(answer: PodHttpResponse, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers))
    if (!HOP_BY_HOP.has(name.toLowerCase())) headers[name] = value;
  res.writeHead(answer.status, headers);
  res.flushHeaders();
  let gone = false;
  res.on('close', () => (gone = true));
  if ((req.method ?? 'GET').toUpperCase() === 'HEAD') {
    res.end();
    return;
  }
  for await (const chunk of answer.body) {
    if (gone || res.destroyed) break;
    if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  }
  if (!res.writableEnded) res.end();
}
