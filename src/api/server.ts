import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { ApiContext } from './context.js';
import { registerLiveUpdates } from './live-updates.js';
import { buildOpenApi } from './openapi.js';
import { sendProblem } from './problem.js';
import { RouteRegistry } from './route.js';
import { registerClusterRoutes } from './routes/clusters.js';
import { registerInstanceGroupRoutes } from './routes/instance-groups.js';
import { registerNodeRoutes } from './routes/nodes.js';
import { registerAutoscalingRoutes } from './routes/autoscaling.js';
import { registerOperationRoutes } from './routes/operations.js';
import { registerPreflightRoutes } from './routes/preflight.js';
import { registerSystemRoutes } from './routes/system.js';
import { installGuards } from './security.js';

export interface BuildServerOptions {
  logger: Logger;
  /** Built UI (vite output); served at / with an SPA fallback when present. */
  webRoot?: string;
  /** Mounts MCP at /mcp (src/mcp's handler, which calls this server's REST API). */
  mcp?: { handle(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, body?: unknown): Promise<void>; close(): Promise<void> };
}

/**
 * The HTTP face: REST under /api/v1, OpenAPI, WebSocket, MCP and the UI, from one Fastify app.
 * Request ids come from Fastify and appear on every log line; authorization headers are redacted.
 */
export async function buildServer(ctx: ApiContext, options: BuildServerOptions): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: 1024 * 1024,
    genReqId: () => `req-${Math.random().toString(36).slice(2, 10)}`,
  });
  app.setErrorHandler((err, request, reply) => sendProblem(reply, request, err));
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET' || !options.webRoot) {
      return reply.code(404).type('application/problem+json').send({ type: 'https://instantstart.dev/problems/not-found', title: 'Not found', status: 404, detail: `${request.method} ${request.url.split('?')[0]} is not an endpoint of this server; see /api/openapi.json.` });
    }
    return reply.sendFile('index.html');
  });
  // Mutations carry JSON or nothing; a DELETE/POST without a body must not be refused for its content type.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (!text.trim()) return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('The request body is not valid JSON.'), { statusCode: 400 }), undefined);
    }
  });
  installGuards(app, { token: ctx.config.token });
  await app.register(fastifyWebsocket);

  const routes = new RouteRegistry();
  registerSystemRoutes(app, routes, ctx);
  registerPreflightRoutes(app, routes, ctx);
  registerClusterRoutes(app, routes, ctx);
  registerInstanceGroupRoutes(app, routes, ctx);
  registerAutoscalingRoutes(app, routes, ctx);
  registerNodeRoutes(app, routes, ctx);
  registerOperationRoutes(app, routes, ctx);
  registerLiveUpdates(app, ctx);
  const openapi = buildOpenApi(routes.routes, { version: ctx.config.version });
  app.get('/api/openapi.json', async () => openapi);

  if (options.mcp) {
    const mcp = options.mcp;
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      app.route({
        method,
        url: '/mcp',
        handler: async (request, reply) => {
          reply.hijack();
          await mcp.handle(request.raw, reply.raw, request.body);
        },
      });
    }
    app.addHook('onClose', async () => mcp.close());
  }

  if (options.webRoot && existsSync(join(options.webRoot, 'index.html'))) {
    await app.register(fastifyStatic, { root: options.webRoot, wildcard: false, index: ['index.html'] });
  }
  return app;
}
