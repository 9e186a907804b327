import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '../domain/errors.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Small request guards, as the MCP TypeScript SDK keeps them: a bearer token when configured; for
 * mutations, a CSRF defence — a browser's cross-site request carries a foreign Origin, and a plain
 * HTML form cannot send application/json without a CORS preflight we never grant.
 */
export function installGuards(app: FastifyInstance, options: { token?: string }): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.url === '/healthz') return;
    if (options.token) {
      const auth = request.headers.authorization ?? '';
      const given = auth.startsWith('Bearer ') ? auth.slice(7) : '';
      // The UI's static files are public; the API, WebSocket and MCP are not.
      const isApi = request.url.startsWith('/api/') || request.url.startsWith('/mcp');
      const wsToken = request.url.startsWith('/api/v1/ws') ? new URL(request.url, 'http://x').searchParams.get('token') ?? '' : '';
      if (isApi && !request.url.startsWith('/api/openapi.json') && !sameToken(given || wsToken, options.token)) throw new UnauthorizedError();
    }
    if (MUTATING.has(request.method) && !request.url.startsWith('/mcp')) {
      const origin = request.headers.origin;
      const host = request.headers.host;
      if (origin && host && originHost(origin) !== host) {
        throw new ForbiddenError(`Cross-site request refused: Origin ${origin} is not this server (${host}).`);
      }
    }
  });
}

/** The host of an Origin header; `null` (sandboxed frames, file://) and garbage count as foreign. */
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}
