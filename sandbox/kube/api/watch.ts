import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeCluster } from '../cluster.js';
import { badRequest, isKubeError } from '../errors.js';
import { apiVersionOf, type KubeObject, type WatchEvent } from '../types.js';
import { served, type ResourceRequest } from './paths.js';
import { objectMatcher, type Matcher } from './selectors.js';
import { tableOptions, toTable } from './table.js';

/**
 * Watches as the API streams them: one JSON event per line over a chunked 200 response.
 * Without a resourceVersion (or "0") the current objects come first as synthetic ADDED events;
 * from a version, the changes after it — and when that version is older than the history, an
 * ERROR event carrying a 410 Expired Status (what client-go and client-node's informers relist
 * on). Selectors are applied per event as the watch cache does: an object that stops matching is
 * sent as DELETED, one that starts matching as ADDED.
 */

/** Real time between BOOKMARK events when the client allows them (tests shorten it). */
export const watchSettings = { bookmarkIntervalMs: 60_000 };

export function watch(
  cluster: KubeCluster,
  r: ResourceRequest,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
): void {
  const selected = objectMatcher(r.type, query);
  // The deprecated watch of one object (`…/pods/x?watch=true`) is a watch with a name selector.
  const matches: Matcher = r.name === undefined ? selected : (o) => o.metadata.name === r.name && selected(o);
  const table = tableOptions(req.headers.accept, query);
  const rvParam = query.get('resourceVersion') ?? '';
  if (rvParam && !/^\d+$/.test(rvParam))
    throw badRequest(`resourceVersion: Invalid value: "${rvParam}": must be a non-negative integer`);
  const timeoutText = query.get('timeoutSeconds');
  const timeout = timeoutText ? Number(timeoutText) : 0;
  if (!Number.isFinite(timeout) || timeout < 0) throw badRequest(`timeoutSeconds: Invalid value: "${timeoutText}"`);
  const bookmarks = query.get('allowWatchBookmarks') === 'true';
  const initialEvents = query.get('sendInitialEvents') === 'true';

  res.writeHead(200, {
    'content-type': 'application/json',
    'cache-control': 'no-cache, private',
    'transfer-encoding': 'chunked',
  });
  res.flushHeaders();
  const send = (event: { type: string; object: unknown }) => {
    if (!res.writableEnded && !res.destroyed) res.write(`${JSON.stringify(event)}\n`);
  };
  const sendObject = (type: WatchEvent['type'], obj: KubeObject) => {
    const object = served(r.type, obj);
    send({
      type,
      object: table
        ? toTable(r.type, [object], cluster.now(), table, { resourceVersion: object.metadata.resourceVersion })
        : object,
    });
  };
  const bookmark = (annotations?: Record<string, string>) =>
    send({
      type: 'BOOKMARK',
      object: {
        kind: r.type.kind,
        apiVersion: apiVersionOf(r.type),
        metadata: { resourceVersion: cluster.objects.resourceVersion, ...(annotations ? { annotations } : {}) },
      },
    });

  // Whether the client has each object (by uid) as matching, so selector transitions come out right.
  const known = new Map<string, boolean>();
  const keyOf = (o: KubeObject) => o.metadata.uid ?? `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
  const current = cluster.objects.list(r.type, r.namespace);
  const synthetic = !rvParam || rvParam === '0' || initialEvents;
  const from = synthetic ? Number(cluster.objects.resourceVersion) : Number(rvParam);
  for (const o of current) {
    // Objects unchanged since `from` are in the state the client saw; later changes replay from history.
    if (synthetic || Number(o.metadata.resourceVersion) <= from) known.set(keyOf(o), matches(o));
  }
  if (synthetic) {
    for (const o of current) if (known.get(keyOf(o))) sendObject('ADDED', o);
    if (initialEvents && bookmarks) bookmark({ 'k8s.io/initial-events-end': 'true' });
  }

  const onEvent = (event: WatchEvent) => {
    const o = event.object;
    if (r.namespace !== undefined && o.metadata.namespace !== r.namespace) return;
    const k = keyOf(o);
    const before = known.get(k);
    if (event.type === 'DELETED') {
      known.delete(k);
      if (before ?? matches(o)) sendObject('DELETED', o);
      return;
    }
    const now = matches(o);
    known.set(k, now);
    if (now) sendObject(before === false || (before === undefined && event.type === 'ADDED') ? 'ADDED' : 'MODIFIED', o);
    else if (before) sendObject('DELETED', o);
  };

  let stop: () => void;
  try {
    stop = cluster.objects.watch(
      { type: r.type, ...(r.namespace !== undefined ? { namespace: r.namespace } : {}) },
      from,
      onEvent,
    );
  } catch (err) {
    if (!isKubeError(err)) throw err;
    send({ type: 'ERROR', object: err.toStatus() });
    res.end();
    return;
  }

  const timers: NodeJS.Timeout[] = [];
  if (timeout > 0) timers.push(setTimeout(() => res.end(), timeout * 1000));
  if (bookmarks) timers.push(setInterval(() => bookmark(), watchSettings.bookmarkIntervalMs));
  const close = () => {
    stop();
    for (const t of timers) clearTimeout(t);
  };
  res.on('close', close);
  res.on('finish', close);
}
