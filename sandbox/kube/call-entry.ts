import type { IncomingMessage } from 'node:http';
import type { CallRecord } from '../core/calls.js';

/** The Kubernetes verbs that change something, by HTTP method (PATCH with an apply body is "apply"). */
const WRITES: Readonly<Record<string, string>> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/**
 * A call-log line for a Kubernetes write (GET /_sandbox/calls?service=kubernetes): which verb on which
 * resource, e.g. `apply hyperpodpytorchjobs` about `default/llama`, so a test can count the writes a
 * request made as it counts AWS mutations. Reads are not logged (watches and polls would drown them).
 * undefined for a read, a request through the proxy subresource, or a path that names no resource.
 */
export function kubeCallEntry(
  req: IncomingMessage,
  status: number,
  sandboxTime: string,
): Omit<CallRecord, 'seq'> | undefined {
  const method = (req.method ?? 'GET').toUpperCase();
  const verb = Object.hasOwn(WRITES, method) ? WRITES[method]! : undefined;
  if (!verb) return undefined;
  const path = (req.url ?? '/').split('?')[0]!.split('/').filter(Boolean).map(decodeURIComponentSafe);
  // /k8s/<endpoint>/api/<v>/…  or  /k8s/<endpoint>/apis/<group>/<v>/…
  const rest = path[2] === 'api' ? path.slice(4) : path[2] === 'apis' ? path.slice(5) : undefined;
  if (!rest?.length) return undefined;
  const namespaced = rest[0] === 'namespaces' && rest.length >= 3;
  const [resource, name, subresource] = namespaced ? rest.slice(2) : rest;
  // A POST through a Service's or pod's proxy is a request to the workload (a chat completion), not a write.
  if (subresource === 'proxy') return undefined;
  const apply = verb === 'patch' && String(req.headers['content-type'] ?? '').startsWith('application/apply-patch');
  return {
    time: new Date().toISOString(),
    sandboxTime,
    service: 'kubernetes',
    operation: `${apply ? 'apply' : verb} ${resource}${subresource ? `/${subresource}` : ''}`,
    region: '',
    paramsDigest: '',
    ...(name ? { subject: namespaced ? `${rest[1]}/${name}` : name } : {}),
    mutating: true,
    status,
  };
}

function decodeURIComponentSafe(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
