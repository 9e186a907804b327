import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';

/**
 * The WebSocket of a live log follow (a training job's, an endpoint's): the target is resolved before the upgrade,
 * so a missing object or a bad field is an HTTP problem, not a socket; then one follow session per socket, sent one
 * JSON message at a time. A client that does not keep up is sent `dropped` and closed (the server's memory per
 * client stays bounded; the UI reconnects with sinceSeconds).
 */

/**
 * Past this much unsent data on a follow socket the client is not keeping up: it is sent `dropped`
 * and closed, so the server's memory per client stays bounded (the UI reconnects with sinceSeconds).
 */
export const FOLLOW_BUFFER_CAP = 2 * 1024 * 1024;
/** WebSocket close codes of a follow (4000–4999 are the application's). */
export const CLOSE_DROPPED = 4008;
/**
 * How long a dropped client has to read its backlog and the close frame behind it before the socket
 * is cut (ws's own closing timeout). The close frame waits behind up to FOLLOW_BUFFER_CAP of unsent
 * lines: a client that paused for a few seconds and reads again must get `dropped` and 4008 as
 * documented, not an abnormal 1006; meanwhile it holds only that capped backlog.
 */
export const DROP_GRACE_MS = 30_000;
/** What a client may send on a follow socket: nothing but pings; anything bigger is not ours. */
const MAX_CLIENT_MESSAGE = 1024;

/** Where a follow sends its messages (the shared follow's sink, src/workflows/pod-logs/follow.ts). */
export interface FollowSocketSink<M> {
  send(message: M): boolean;
  drop(reason: string): void;
  fail(): void;
}

export interface FollowSocketRoute<T, M> {
  /** The path in the API's `{param}` form. */
  url: string;
  /** Parses the request and resolves what to follow (throws the problem the client gets as HTTP). */
  resolve(request: FastifyRequest): Promise<T>;
  /** Starts the follow of `target` into `sink`; `stop` ends it when the socket goes. */
  follow(target: T, sink: FollowSocketSink<M>): { stop(): void };
  /** The message that says the client was dropped. */
  dropped(reason: string): M;
  /** Where docs/API.md describes the messages (said in the 426 answer to a plain GET). */
  docs: string;
}

export function registerFollowSocket<T, M>(app: FastifyInstance, route: FollowSocketRoute<T, M>): void {
  const targets = new WeakMap<FastifyRequest, T>();
  app.route({
    method: 'GET',
    url: route.url.replace(/\{(\w+)\}/g, ':$1'),
    // Browsers cannot set a WebSocket's headers: the UI sends its token as ?token= (redacted from logs).
    config: { tokenInQuery: true },
    preHandler: async (request) => {
      targets.set(request, await route.resolve(request));
    },
    handler: async (_request, reply) =>
      reply
        .code(426)
        .header('upgrade', 'websocket')
        .type('application/problem+json')
        .send({
          type: 'about:blank',
          title: 'Upgrade Required',
          status: 426,
          detail: `This path is a WebSocket: connect with Upgrade: websocket (docs/API.md → ${route.docs}).`,
        }),
    wsHandler: (socket: WebSocket, request: FastifyRequest) => {
      const target = targets.get(request);
      targets.delete(request);
      if (target === undefined) return socket.close(1011, 'nothing to follow');
      let dropped = false;
      const session = route.follow(target, {
        send(message: M) {
          if (socket.readyState !== socket.OPEN) return false;
          if (socket.bufferedAmount > FOLLOW_BUFFER_CAP) return false;
          socket.send(JSON.stringify(message));
          return true;
        },
        drop(reason: string) {
          if (dropped || socket.readyState !== socket.OPEN) return;
          dropped = true;
          // Best effort: it queues behind what the client has not read; the close follows it.
          socket.send(JSON.stringify(route.dropped(reason)));
          socket.close(CLOSE_DROPPED, 'dropped');
          // A client that never reads again never completes the closing handshake: cut it after the grace.
          setTimeout(() => socket.terminate(), DROP_GRACE_MS).unref();
        },
        fail() {
          if (socket.readyState === socket.OPEN) socket.close(1011, 'the log stream failed');
        },
      });
      const end = () => session.stop();
      socket.on('close', end);
      socket.on('error', end);
      socket.on('message', (data: RawData) => {
        if (String(data).length > MAX_CLIENT_MESSAGE) socket.close(1009, 'message too big');
      });
    },
  });
}
