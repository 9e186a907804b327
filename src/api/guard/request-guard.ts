import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '../../domain/errors.js';
import { refuseHost, refuseOrigin, type HostPolicy } from './hosts.js';
import { bearerToken } from '../../domain/bearer-token.js';
import type { TokenScope } from '../../domain/token-scopes.js';
import { refuseScope } from './scopes.js';
import { scopeOfToken, type ApiToken } from './token.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What the request guard asks of a route's callers. Default (absent): everything — a Host of
     * ours, a same-origin browser for mutations and WebSocket upgrades, and the token when the server
     * has one. `ui`: a Host of ours only (the UI's static files: public, they hold no data).
     * `liveness`: nothing (/healthz answers probes that address the server by any name).
     */
    guard?: 'ui' | 'liveness';
    /**
     * The smallest token scope that may call the route, when it is not what its method says (GET/HEAD
     * read, DELETE admin, others operate): set from `RouteSpec.destructive` / `readOnly` (route.ts).
     */
    scope?: TokenScope;
    /** The route may carry its token as `?token=` (the WebSocket: browsers cannot set its headers). */
    tokenInQuery?: boolean;
    /** How the route reports errors: problem+json (default) or JSON-RPC (/mcp). */
    errorDialect?: 'jsonrpc';
  }
}

export interface RequestGuardOptions {
  /**
   * The tokens a request may carry, each with its scope; none on a loopback server started without a
   * token. Once there is one, every guarded request must carry one of them, of a scope its route allows.
   */
  tokens: readonly ApiToken[];
  hosts: HostPolicy;
  /**
   * True when a request that matched no route will be answered with the UI's index.html (the SPA
   * fallback): those are as public as the UI's files. Any other unmatched request is guarded fully,
   * so an unknown path never tells an anonymous caller more than 401.
   */
  servesUiShell(request: FastifyRequest): boolean;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The one request guard for the REST API, the WebSocket, MCP and the UI, deny by default. It runs
 * on the **routed** request (an onRequest hook sees the route Fastify chose after decoding the
 * path), never on the raw URL — so `/%61pi/v1/…`, `//api/…` or `/API/…` get exactly the guard of the
 * route they reach. Only routes that say so (`config.guard`) are open, and only as far as they say.
 */
export function installRequestGuard(app: FastifyInstance, options: RequestGuardOptions): void {
  // A callback hook, not an async one: it runs on every request, and a promise per request is measurable.
  app.addHook('onRequest', (request, _reply, done) => {
    let refusal: Error | undefined;
    try {
      refusal = refusalOf(request, options);
    } catch (err) {
      refusal = err as Error;
    }
    done(refusal);
  });
}

/** Why the guard refuses `request`, or undefined when it may go on. */
function refusalOf(request: FastifyRequest, options: RequestGuardOptions): Error | undefined {
  const level = request.is404 ? (options.servesUiShell(request) ? 'ui' : undefined) : request.routeOptions.config.guard;
  if (level === 'liveness') return undefined;
  const host = request.headers.host;
  const badHost = refuseHost(options.hosts, host);
  if (badHost) return new ForbiddenError({ message: badHost });
  if (level === 'ui') return undefined;
  if (MUTATING.has(request.method) || isUpgrade(request)) {
    const badOrigin = refuseOrigin(request.headers.origin, host);
    if (badOrigin) return new ForbiddenError({ message: badOrigin });
  }
  if (options.tokens.length === 0) return undefined;
  const scope = presentedScope(request, options.tokens);
  if (scope === undefined) return new UnauthorizedError();
  return refuseScope(request, scope);
}

function isUpgrade(request: FastifyRequest): boolean {
  return (request.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

/** The scope of the token the request carries, or undefined when it carries none of ours. */
function presentedScope(request: FastifyRequest, tokens: readonly ApiToken[]): TokenScope | undefined {
  const presented =
    bearerToken(request.headers.authorization) ??
    (request.routeOptions.config.tokenInQuery ? queryToken(request) : undefined);
  return presented === undefined ? undefined : scopeOfToken(presented, tokens);
}

function queryToken(request: FastifyRequest): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof value === 'string' ? value : undefined;
}
