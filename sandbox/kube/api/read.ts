import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeCluster } from '../cluster.js';
import { badRequest, gone, notFound } from '../errors.js';
import { apiVersionOf, type KubeObject } from '../types.js';
import { sendJson } from './http.js';
import { served, type ResourceRequest } from './paths.js';
import { hasSelectors, objectMatcher } from './selectors.js';
import { tableOptions, toTable } from './table.js';

/** GET of one object, and lists with selectors, `limit`/`continue` and Table output. */

export function getOne(
  cluster: KubeCluster,
  r: ResourceRequest,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
): void {
  const obj = served(r.type, cluster.objects.get(r.type, r.namespace, r.name!));
  if (!obj) throw notFound(r.type, r.name!);
  const table = tableOptions(req.headers.accept, query);
  if (table)
    return sendJson(
      res,
      200,
      toTable(r.type, [obj], cluster.now(), table, { resourceVersion: obj.metadata.resourceVersion }),
    );
  sendJson(res, 200, obj);
}

/** The objects a list (or deletecollection) selects, in key order (namespace, then name). */
export function selectObjects(cluster: KubeCluster, r: ResourceRequest, query: URLSearchParams): KubeObject[] {
  return cluster.objects.select(r.type, r.namespace, objectMatcher(r.type, query)).items;
}

/**
 * A continue token carries the list's resourceVersion and the key of the last object sent. Like
 * etcd after compaction, a token older than the watch history is refused with 410 Expired.
 */
interface ContinueToken {
  rv: string;
  start: string;
}

const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const encodeContinue = (t: ContinueToken) =>
  Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', ...t })).toString('base64url');

function decodeContinue(cluster: KubeCluster, r: ResourceRequest, text: string): ContinueToken {
  let token: Partial<ContinueToken> = {};
  try {
    token = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<ContinueToken>;
  } catch {
    // reported below
  }
  if (
    typeof token.rv !== 'string' ||
    typeof token.start !== 'string' ||
    !/^\d+$/.test(token.rv) ||
    Number(token.rv) > Number(cluster.objects.resourceVersion)
  ) {
    throw badRequest('continue key is not valid: the continue token is malformed');
  }
  try {
    // Probing a watch from the token's version tells whether that version is still in history.
    cluster.objects.watch({ type: r.type }, Number(token.rv), () => {})();
  } catch {
    throw gone(
      'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
    );
  }
  return token as ContinueToken;
}

export function list(
  cluster: KubeCluster,
  r: ResourceRequest,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
): void {
  const table = tableOptions(req.headers.accept, query);
  let resourceVersion = cluster.objects.resourceVersion;
  const cont = query.get('continue');
  const token = cont ? decodeContinue(cluster, r, cont) : undefined;
  if (token) resourceVersion = token.rv;
  const limitText = query.get('limit');
  const limit = limitText ? Number(limitText) : 0;
  if (!Number.isInteger(limit) || limit < 0)
    throw badRequest(`limit: Invalid value: "${limitText}": must be a non-negative integer`);
  const matches = objectMatcher(r.type, query);
  // Only the page is copied out of the store: selectors and the continue position are tested in place.
  const selected = cluster.objects.select(
    r.type,
    r.namespace,
    (o) => (!token || keyOf(o) > token.start) && matches(o),
    limit > 0 ? limit : undefined,
  );
  let items = selected.items;
  const metadata: Record<string, unknown> = { resourceVersion };
  if (limit > 0 && selected.total > limit) {
    metadata.continue = encodeContinue({ rv: resourceVersion, start: keyOf(items[items.length - 1]!) });
    // The API only counts what is left when no selector filters the list.
    if (!hasSelectors(query)) metadata.remainingItemCount = selected.total - limit;
  }
  items = items.map((o) => served(r.type, o));
  if (table) return sendJson(res, 200, toTable(r.type, items, cluster.now(), table, metadata));
  sendJson(res, 200, { kind: r.type.listKind, apiVersion: apiVersionOf(r.type), metadata, items });
}
