import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';

export interface SharedPort {
  /** The listening socket (its address is the sandbox's port). */
  front: NetServer;
  /** Stops listening and ends every open connection, idle keep-alive ones included. */
  close(): Promise<void>;
}

/**
 * Serves plain HTTP (the AWS endpoint, admin API) and HTTPS (the clusters' Kubernetes APIs) on
 * one port: the first byte of a connection tells them apart (22 opens a TLS handshake), and the
 * connection is handed to the matching server. Users remember one port; kubeconfigs stay valid.
 * The HTTP servers never listen themselves, so they do not track these connections (their
 * `closeAllConnections` finds none): this front keeps them, or a stop would wait for every client's
 * idle keep-alive connection to time out (5 s in Node's HTTP server).
 */
export function listenShared(http: HttpServer, https: HttpsServer, port: number, host: string): Promise<SharedPort> {
  const open = new Set<Socket>();
  // No Nagle: Node's HTTP servers turn it off for the connections they accept, but these are accepted here (and Go's
  // net, which real API servers run on, turns it off too). With it on, an answer written in pieces (headers flushed,
  // then each streamed chunk) waits for the client's delayed ACK: stalls of ~40 ms.
  const front = createNetServer({ noDelay: true }, (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === 22 ? https : http).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
    socket.on('error', () => socket.destroy());
  });
  const close = () =>
    new Promise<void>((resolve) => {
      front.close(() => resolve());
      for (const socket of open) socket.destroy();
    });
  return new Promise((resolve, reject) => {
    front.once('error', reject);
    front.listen(port, host, () => resolve({ front, close }));
  });
}
