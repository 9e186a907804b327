import type { IncomingMessage, ServerResponse } from 'node:http';
import { KubeError, methodNotAllowed } from '../errors.js';
import type { KubeRequestContext, KubeVerb } from './context.js';
import { deleteCollection, deleteOne } from './delete.js';
import { handleDiscovery } from './discovery.js';
import { readBody, sendError } from './http.js';
import { patch } from './patch.js';
import { resolvePath, type ResourceRequest } from './paths.js';
import { podLog } from './pod-log.js';
import { matchProxy, proxyRequest, proxyVerb } from './proxy.js';
import { getOne, list } from './read.js';
import { scale } from './scale.js';
import { watch } from './watch.js';
import { writeOptions } from './write-options.js';
import { create, update } from './write.js';

/**
 * Serves one request of a cluster's Kubernetes API. `path` is the request path after the
 * cluster's endpoint prefix (always starts with `/`), with its query string.
 */
export async function handleKubeApi(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  ctx: KubeRequestContext,
): Promise<void> {
  try {
    const url = new URL(path, 'http://kube.invalid');
    const query = url.searchParams;
    const method = (req.method ?? 'GET').toUpperCase();
    const cluster = ctx.cluster;
    // Services' and pods' proxy subresources carry a path of their own after `/proxy`.
    const proxied = matchProxy(url.pathname);
    if (proxied) {
      ctx.authorize(proxyVerb(method), proxied.type, proxied.namespace, 'proxy');
      return await proxyRequest(cluster, proxied, req, res, url.search);
    }
    const r = resolvePath(cluster, url.pathname);
    if (!r) {
      ctx.authorize('get', undefined, undefined);
      const answer =
        method === 'GET' ? handleDiscovery(cluster, url.pathname, String(req.headers.accept ?? '')) : undefined;
      if (!answer) throw new KubeError(404, 'NotFound', 'the server could not find the requested resource');
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
      return;
    }
    const verb = verbOf(method, r, query);
    ctx.authorize(verb, r.type, r.namespace, r.subresource);
    const body = method === 'GET' ? Buffer.alloc(0) : await readBody(req);

    if (r.subresource === 'log') return podLog(cluster, r, res, query);
    if (r.subresource === 'scale')
      return scale(
        cluster,
        r,
        method,
        body,
        req,
        res,
        writeOptions(query, req, method === 'PUT' ? 'UpdateOptions' : 'PatchOptions'),
      );
    switch (verb) {
      case 'get':
        return getOne(cluster, r, req, res, query);
      case 'list':
        return list(cluster, r, req, res, query);
      case 'watch':
        return watch(cluster, r, req, res, query);
      case 'create':
        return create(cluster, r, body, req, res, writeOptions(query, req, 'CreateOptions'));
      case 'update':
        return update(cluster, r, body, req, res, writeOptions(query, req, 'UpdateOptions'));
      case 'patch':
        return patch(cluster, r, body, req, res, writeOptions(query, req, 'PatchOptions'), query);
      case 'delete':
        return deleteOne(cluster, r, body, req, res, query);
      case 'deletecollection':
        return deleteCollection(cluster, r, body, req, res, query);
    }
  } catch (err) {
    sendError(res, err);
  }
}

const isWatch = (query: URLSearchParams) => ['true', '1'].includes(query.get('watch') ?? '');

/**
 * The RBAC verb of a request, refusing what the path does not serve (405): a namespaced kind is
 * only listed and watched across namespaces; subresources take GET, PUT and PATCH (logs only GET).
 */
function verbOf(method: string, r: ResourceRequest, query: URLSearchParams): KubeVerb {
  const refuse = () => methodNotAllowed('the server does not allow this method on the requested resource');
  const acrossNamespaces = r.type.namespaced && r.namespace === undefined;
  if (r.subresource) {
    if (method === 'GET') return 'get';
    if (r.subresource === 'log') throw refuse();
    if (method === 'PUT') return 'update';
    if (method === 'PATCH') return 'patch';
    throw refuse();
  }
  switch (method) {
    case 'GET':
      if (isWatch(query)) return 'watch';
      return r.name === undefined ? 'list' : 'get';
    case 'POST':
      if (r.name !== undefined || acrossNamespaces) throw refuse();
      return 'create';
    case 'PUT':
      if (r.name === undefined) throw refuse();
      return 'update';
    case 'PATCH':
      if (r.name === undefined) throw refuse();
      return 'patch';
    case 'DELETE':
      if (acrossNamespaces) throw refuse();
      return r.name === undefined ? 'deletecollection' : 'delete';
    default:
      throw refuse();
  }
}
