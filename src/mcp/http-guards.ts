import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Small checks in front of the streamable HTTP endpoint, the typescript-sdk's habits without its
 * Express middlewares: Host and Origin against DNS rebinding (a web page whose name resolves to
 * 127.0.0.1 must not drive the control plane from a browser), and the bearer token.
 */

export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

/** The Host header's name without its port, as URL parses it ('[::1]' keeps its brackets). */
function hostnameOf(value: string): string | undefined {
  try {
    return new URL(`http://${value}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Why the request is refused, or undefined when Host and Origin are acceptable. */
export function checkHostAndOrigin(req: IncomingMessage, allowedHosts: readonly string[], allowedOrigins: readonly string[]): string | undefined {
  const host = req.headers.host;
  if (!host) return 'Missing Host header';
  const hostname = hostnameOf(host);
  if (!hostname || !allowedHosts.includes(hostname)) return `Host not allowed: ${host}`;
  const origin = req.headers.origin;
  // Non-browser clients send no Origin; browsers always do on cross-site requests.
  if (origin === undefined) return undefined;
  if (allowedOrigins.includes(origin)) return undefined;
  let originHost: string | undefined;
  try {
    const url = new URL(origin);
    originHost = url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.toLowerCase() : undefined;
  } catch {
    originHost = undefined;
  }
  return originHost && allowedHosts.includes(originHost) ? undefined : `Origin not allowed: ${origin}`;
}

/** The token of `Authorization: Bearer <token>`, if any. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/** Constant-time comparison (of digests, so lengths leak nothing either). */
export function sameToken(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** A JSON-RPC error answer, the shape MCP clients expect even outside a session. */
export function sendJsonRpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
