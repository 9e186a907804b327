import type { FastifyRequest } from 'fastify';
import { InsufficientScopeError } from '../../domain/errors.js';
import { scopeCovers, type TokenScope } from '../../domain/token-scopes.js';

/**
 * The scope a request needs, from its method and its route's declared option (`config.scope`):
 * safe methods read, DELETE destroys, any other method changes. A route that is more or less than its
 * method says declares it once, where it is defined — `RouteSpec.destructive` (a POST that deletes or
 * replaces: admin) and `RouteSpec.readOnly` (a POST that changes nothing: read) in src/api/route.ts;
 * /mcp needs read, because each of its tools' REST calls is guarded again with the caller's token.
 */
export function methodScope(method: string): TokenScope {
  if (method === 'GET' || method === 'HEAD') return 'read';
  return method === 'DELETE' ? 'admin' : 'operate';
}

/** Why a token of `scope` may not make `request`, or undefined when it may. */
export function refuseScope(request: FastifyRequest, scope: TokenScope): InsufficientScopeError | undefined {
  // An unmatched request reaches only the 404 answer: any valid token may learn that much.
  const needed = request.is404 ? 'read' : (request.routeOptions.config.scope ?? methodScope(request.method));
  if (scopeCovers(scope, needed)) return undefined;
  // The route's declared pattern, never the request's URL: no caller text (nor a ?token=) is echoed.
  const route = `${request.method} ${(request.routeOptions.url ?? '').replace(/:(\w+)/g, '{$1}')}`;
  return new InsufficientScopeError({ tokenScope: scope, needed, route });
}
