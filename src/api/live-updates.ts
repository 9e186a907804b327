import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { ApiContext } from './context.js';

/**
 * One WebSocket per browser tab at /api/v1/ws: the server pushes every operation change and log
 * line. A slow client is not allowed to grow our memory: past 4 MiB of unsent data it is dropped
 * and reconnects (the UI then refetches).
 */
export function registerLiveUpdates(app: FastifyInstance, ctx: ApiContext): void {
  const clients = new Set<WebSocket>();
  const send = (message: unknown) => {
    const text = JSON.stringify(message);
    for (const ws of clients) {
      if (ws.bufferedAmount > 4 * 1024 * 1024) {
        ws.terminate();
        clients.delete(ws);
      } else if (ws.readyState === ws.OPEN) ws.send(text);
    }
  };
  const onOperation = (operation: unknown) => send({ type: 'operation', operation });
  const onLog = (e: { operationId: string; line: unknown }) => send({ type: 'log', operationId: e.operationId, line: e.line });
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
    socket.send(JSON.stringify({ type: 'hello' }));
    socket.on('close', () => clients.delete(socket));
    socket.on('error', () => clients.delete(socket));
  });
}
