import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Capability } from '../capabilities/capability.js';
import type { OperationView } from '../domain/schemas/operations.js';
import type { ApiContext } from './context.js';
import { LiveTopics } from './live-topics.js';
import { registerLiveUpdates } from './live-updates.js';
import { buildOpenApi } from './openapi.js';
import { NotFoundError } from '../domain/errors.js';
import { hostPolicy, type HostPolicy } from './guard/hosts.js';
import { installAuditTrail } from './audit-trail.js';
import { installRequestGuard } from './guard/request-guard.js';
import { installSecurityHeaders } from './guard/security-headers.js';
import { INVALID_JSON, problemFor, sendProblem } from './problem.js';
import { lazyChildLogger } from './lazy-request-logger.js';
import { answerClientError } from './client-error.js';
import { RequestLog } from './request-log.js';
import { Replays } from './idempotency.js';
import { RouteRegistry } from './route.js';

export interface BuildServerOptions {
  logger: Logger;
  /** The capabilities whose routes this server serves (src/capabilities/index.ts). */
  capabilities: readonly Capability<unknown>[];
  /** Built UI (vite output); served at / with an SPA fallback when present. */
  webRoot?: string;
  /** Mounts MCP at /mcp (src/mcp's handler, which calls this server's REST API). */
  mcp?: {
    handle(
      req: import('node:http').IncomingMessage,
      res: import('node:http').ServerResponse,
      body?: unknown,
    ): Promise<void>;
    close(): Promise<void>;
  };
  /** Names this server answers to (the request guard's Host allowlist). Default: loopback names only. */
  hosts?: HostPolicy;
}

/**
 * The HTTP face: REST under /api/v1, OpenAPI, WebSocket, MCP and the UI, from one Fastify app behind
 * one request guard (guard/request-guard.ts). Request ids come from Fastify and appear on every log
 * line; request lines carry no credentials (request-log.ts).
 */
export async function buildServer(ctx: ApiContext, options: BuildServerOptions): Promise<FastifyInstance> {
  const webRoot = options.webRoot && existsSync(join(options.webRoot, 'index.html')) ? options.webRoot : undefined;
  const servesUiShell = (request: FastifyRequest) =>
    webRoot !== undefined && (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(request.url);
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    logController: new RequestLog(),
    bodyLimit: 1024 * 1024,
    genReqId: nextRequestId,
    childLoggerFactory: lazyChildLogger,
    // Shutdown must not wait on clients: open keep-alive and WebSocket connections are closed.
    forceCloseConnections: true,
    // A malformed URL never reaches a route (nor its guard): answer it as problem+json, saying nothing more.
    frameworkErrors: (err, _request, reply) => {
      const problem = problemFor(err);
      void (reply as FastifyReply).code(problem.status).type('application/problem+json').send(problem);
    },
    // Bytes that are no HTTP request (a Content-Length that lies): problem+json too, not Node's bare 400.
    clientErrorHandler: answerClientError,
  });
  app.setErrorHandler((err, request, reply) => sendProblem(reply, request, err));
  app.setNotFoundHandler(async (request, reply) => {
    if (!servesUiShell(request)) {
      const path = request.url.split('?')[0]!;
      return sendProblem(
        reply,
        request,
        new NotFoundError({
          resource: 'endpoint',
          id: path,
          message: `${request.method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path} is not an endpoint of this server; see /api/openapi.json.`,
        }),
      );
    }
    // The UI's client-side routes (/clusters/demo, …) all load the app's one page.
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(await readFile(join(webRoot!, 'index.html')));
  });
  installJsonBodyParser(app);
  // Registered before the guard so that its onRequest hook marks upgrade requests first, and its
  // onResponse hook then closes the socket of every upgrade the guard refuses.
  await app.register(fastifyWebsocket);
  installRequestGuard(app, {
    tokens: ctx.config.tokens ?? [],
    hosts: options.hosts ?? hostPolicy({ bind: '127.0.0.1' }),
    servesUiShell,
  });
  installSecurityHeaders(app);
  installAuditTrail(app, () => ctx.audit?.(), ctx.config.tokens ?? []);

  const routes = new RouteRegistry(new Replays(ctx));
  const region = (requested?: string) => requested ?? ctx.config.region;
  const live = new LiveTopics();
  const checkRetry = async (operation: OperationView): Promise<void> => {
    for (const capability of options.capabilities) {
      const check =
        capability.retryChecks && Object.hasOwn(capability.retryChecks, operation.kind)
          ? capability.retryChecks[operation.kind]
          : undefined;
      if (check) await check(ctx.service(capability), operation);
    }
  };
  for (const capability of options.capabilities) {
    capability.routes?.({ app, routes, api: ctx, service: () => ctx.service(capability), region, live, checkRetry });
  }
  registerLiveUpdates(app, ctx, live);
  const openapi = buildOpenApi(routes.routes, { version: ctx.config.version });
  app.get('/api/openapi.json', async () => openapi);

  if (options.mcp) {
    const mcp = options.mcp;
    app.route({
      method: ['GET', 'POST', 'DELETE'],
      url: '/mcp',
      // Any token may speak MCP: each tool's REST call carries the caller's token and is guarded for its own scope.
      config: { errorDialect: 'jsonrpc', scope: 'read' },
      handler: async (request, reply) => {
        reply.hijack();
        await mcp.handle(request.raw, reply.raw, request.body);
      },
    });
    app.addHook('onClose', async () => mcp.close());
  }

  if (webRoot) {
    // The UI's files are public (they hold no data): the guard only checks their Host.
    await app.register(async (ui) => {
      ui.addHook('onRoute', (route) => {
        route.config = { ...(route.config ?? {}), guard: 'ui' };
      });
      await ui.register(fastifyStatic, { root: webRoot, wildcard: false, index: ['index.html'] });
    });
  }
  return app;
}

/**
 * Request ids: a random prefix per process (ids from two runs do not collide in one log) and a
 * counter — unique within the run and cheaper than a random string per request.
 */
const REQUEST_ID_PREFIX = `req-${Math.random().toString(36).slice(2, 6)}`;
let requestCount = 0;
function nextRequestId(): string {
  requestCount += 1;
  return `${REQUEST_ID_PREFIX}${requestCount.toString(36).padStart(4, '0')}`;
}

/** True for paths under /api or /mcp however they are spelled (percent-encoded, doubled slashes, any case). */
function isApiPath(url: string): boolean {
  let path = url.split('?')[0]!;
  try {
    path = decodeURIComponent(path);
  } catch {
    // malformed escapes: judged as sent
  }
  path = path.replace(/\/+/g, '/').toLowerCase();
  return path === '/api' || path.startsWith('/api/') || path === '/mcp' || path.startsWith('/mcp/');
}

/**
 * JSON bodies only, strictly: UTF-8 only (another charset is 415, never misread as UTF-8), no
 * `__proto__`/`constructor.prototype` keys (Fastify's secure parser), and an empty body reads as
 * none so that a DELETE/POST without content is not refused for its content type.
 */
function installJsonBodyParser(app: FastifyInstance): void {
  const secureParse = app.getDefaultJsonParser('error', 'error');
  // Every body this API takes is JSON: anything else is 415 Unsupported Media Type, not a string to validate.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset && charset !== 'utf-8' && charset !== 'utf8') {
      return done(
        Object.assign(
          new Error(`The request body must be UTF-8 JSON; charset=${charset.slice(0, 40)} is not supported.`),
          { statusCode: 415 },
        ),
        undefined,
      );
    }
    const text = String(body);
    if (!text.trim()) return done(null, undefined);
    secureParse(request, text, (err: Error | null, parsed?: unknown) => {
      if (!err) return done(null, parsed);
      const poisoned = /prototype|__proto__|constructor/i.test(err.message);
      const message = poisoned
        ? 'The request body uses a reserved key (__proto__ or constructor.prototype).'
        : 'The request body is not valid JSON.';
      done(
        Object.assign(new Error(message), {
          statusCode: 400,
          code: poisoned ? 'INSTANTSTART_RESERVED_KEY' : INVALID_JSON,
        }),
        undefined,
      );
    });
  });
}
