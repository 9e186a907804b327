import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';

/**
 * Serves plain HTTP (the AWS endpoint, admin API) and HTTPS (the clusters' Kubernetes APIs) on
 * one port: the first byte of a connection tells them apart (22 opens a TLS handshake), and the
 * connection is handed to the matching server. Users remember one port; kubeconfigs stay valid.
 */
export function listenShared(http: HttpServer, https: HttpsServer, port: number, host: string): Promise<NetServer> {
  const front = createNetServer((socket: Socket) => {
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === 22 ? https : http).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
    socket.on('error', () => socket.destroy());
  });
  return new Promise((resolve, reject) => {
    front.once('error', reject);
    front.listen(port, host, () => resolve(front));
  });
}
