import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import type { ApiContext } from '../../src/api/context.js';
import { CLOSE_DROPPED, LIVE_BUFFER_CAP, registerLiveUpdates } from '../../src/api/live-updates.js';
import { LiveTopics } from '../../src/api/live-topics.js';

/**
 * The live-updates socket (/api/v1/ws) with a client that stops reading while operation log lines
 * pour out: past its cap the client is sent `dropped` and closed with 4008 — which it reads once it
 * reads again — never cut without a close frame (an abnormal 1006).
 */
describe('live updates: a client that stops reading', () => {
  let app: FastifyInstance;
  const operations = new EventEmitter();
  let url: string;

  before(async () => {
    app = Fastify({ forceCloseConnections: true });
    await app.register(fastifyWebsocket);
    registerLiveUpdates(app, { operations } as unknown as ApiContext, new LiveTopics());
    url = (await app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  });
  after(() => app.close());

  it('is sent dropped and closed with 4008, not cut', async () => {
    const ws = new WebSocket(`${url}/api/v1/ws`);
    const messages: Array<{ type: string; reason?: string }> = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data)) as { type: string }));
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise((resolve) => ws.once('message', resolve));
    const socket = (ws as unknown as { _socket: Socket })._socket;
    socket.pause();
    // Far more than the cap and what the kernel's buffers take, in bursts so the server's send buffer grows.
    const text = 'x'.repeat(64 * 1024);
    for (let burst = 0; burst < 40; burst++) {
      for (let i = 0; i < 16; i++)
        operations.emit('log', { operationId: 'op-1', line: { seq: burst * 16 + i, message: text } });
      await new Promise((r) => setImmediate(r));
    }
    assert.ok(40 * 16 * text.length > 4 * LIVE_BUFFER_CAP);
    await new Promise((r) => setTimeout(r, 500));
    socket.resume();
    assert.equal(await closed, CLOSE_DROPPED);
    assert.equal(messages.at(-1)?.type, 'dropped');
    assert.match(messages.at(-1)?.reason ?? '', /did not keep up/);
    assert.ok(messages.length < 40 * 16, `nothing more was queued after the drop (${messages.length} messages)`);
  });
});
