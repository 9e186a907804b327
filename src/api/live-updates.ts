import type { FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { canonicalJson } from '../domain/canonical-json.js';
import type { OperationSnapshot } from '../domain/schemas/operations.js';
import { withStatusLinks } from './operation-links.js';
import type { ApiContext } from './context.js';
import type { LiveTopics } from './live-topics.js';

/** Watches one socket may hold at once (a page watches one or two clusters; more is a misbehaving client). */
const WATCHES_PER_SOCKET = 16;
/** Client messages are tiny; anything larger is not ours. */
const MAX_CLIENT_MESSAGE = 4 * 1024;
/** Past this much unsent data a client is not keeping up: it is sent `dropped` and closed with CLOSE_DROPPED. */
export const LIVE_BUFFER_CAP = 4 * 1024 * 1024;
/** The close code of a dropped client, as on a job log follow (docs/API.md). */
export const CLOSE_DROPPED = 4008;
/** How long a dropped client has to read its backlog and the close frame behind it before the socket is cut (ws's own closing timeout). */
const DROP_GRACE_MS = 30_000;

/**
 * One WebSocket per browser tab at /api/v1/ws: the server pushes every operation change and log
 * line, and — for topics the tab asks to watch (live-topics.ts, e.g. a cluster's nodes) — a
 * "changed" signal when the shared watch of that topic sees a change. A slow client is not allowed
 * to grow our memory: past 4 MiB of unsent data it is sent `dropped` and closed with 4008, and reconnects (the UI then
 * refetches).
 */
export function registerLiveUpdates(app: FastifyInstance, ctx: ApiContext, topics: LiveTopics): void {
  const clients = new Set<WebSocket>();
  const deliver = (ws: WebSocket, text: string) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount <= LIVE_BUFFER_CAP) return void ws.send(text);
    // Dropped as documented — `dropped`, then close 4008 — not cut (which a client sees as an abnormal 1006): both wait
    // behind what it has not read, and nothing more is queued for it. One that never reads again is cut after the
    // grace.
    clients.delete(ws);
    ws.send(
      JSON.stringify({ type: 'dropped', reason: 'the client did not keep up: reconnect and read the state again' }),
    );
    ws.close(CLOSE_DROPPED, 'dropped');
    setTimeout(() => ws.terminate(), DROP_GRACE_MS).unref();
  };
  const send = (message: unknown) => {
    const text = JSON.stringify(message);
    for (const ws of clients) deliver(ws, text);
  };
  // The browser keeps it as the operation's REST view: the same links as GET answers with.
  const onOperation = (operation: OperationSnapshot) =>
    send({ type: 'operation', operation: withStatusLinks(operation) });
  const onLog = (e: { operationId: string; line: unknown }) =>
    send({ type: 'log', operationId: e.operationId, line: e.line });
  ctx.operations.on('operation', onOperation as never);
  ctx.operations.on('log', onLog as never);
  app.addHook('onClose', async () => {
    ctx.operations.off('operation', onOperation as never);
    ctx.operations.off('log', onLog as never);
    for (const ws of clients) ws.terminate();
  });
  // Browsers cannot set headers on a WebSocket, so the UI sends its token as ?token= (redacted from logs).
  app.get('/api/v1/ws', { websocket: true, config: { tokenInQuery: true } }, (socket) => {
    clients.add(socket);
    const watches = new Map<string, () => void>();
    const stopAll = () => {
      clients.delete(socket);
      for (const stop of watches.values()) stop();
      watches.clear();
    };
    socket.send(JSON.stringify({ type: 'hello' }));
    socket.on('message', (data: RawData) => onClientMessage(socket, watches, topics, data));
    socket.on('close', stopAll);
    socket.on('error', stopAll);
  });

  function onClientMessage(socket: WebSocket, watches: Map<string, () => void>, all: LiveTopics, data: RawData): void {
    const text = String(data);
    if (text.length > MAX_CLIENT_MESSAGE) return;
    let msg: { type?: unknown; topic?: unknown; params?: unknown };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return;
    }
    if ((msg.type !== 'watch' && msg.type !== 'unwatch') || typeof msg.topic !== 'string') return;
    const topic = all.get(msg.topic);
    const parsed = topic?.params.safeParse(msg.params ?? {});
    if (!topic || !parsed?.success) {
      deliver(
        socket,
        JSON.stringify({ type: 'watch-refused', topic: msg.topic, reason: topic ? 'invalid params' : 'unknown topic' }),
      );
      return;
    }
    const key = `${msg.topic}:${canonicalJson(parsed.data)}`;
    if (msg.type === 'unwatch') {
      watches.get(key)?.();
      watches.delete(key);
      return;
    }
    if (watches.has(key)) return;
    if (watches.size >= WATCHES_PER_SOCKET) {
      deliver(
        socket,
        JSON.stringify({
          type: 'watch-refused',
          topic: msg.topic,
          reason: `at most ${WATCHES_PER_SOCKET} watches per connection`,
        }),
      );
      return;
    }
    const changed = JSON.stringify({ type: 'changed', topic: msg.topic, params: parsed.data });
    try {
      watches.set(
        key,
        topic.watch(parsed.data, () => deliver(socket, changed)),
      );
    } catch {
      // The cloud is not available (no credentials yet): nothing to watch; the page polls meanwhile.
      deliver(
        socket,
        JSON.stringify({ type: 'watch-refused', topic: msg.topic, reason: 'the cloud is not available' }),
      );
    }
  }
}
