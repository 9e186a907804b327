import type { FastifyInstance } from 'fastify';

/**
 * What the browser must enforce on our behalf, on every answer: no framing (clickjacking), no MIME
 * sniffing, no referrer, and a Content-Security-Policy that lets the UI load only its own bundle.
 *
 * The UI is a Vite bundle with no inline script; Cloudscape sets inline styles, hence
 * `'unsafe-inline'` for styles only. `connect-src 'self'` covers the same-origin WebSocket.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(HEADERS);
    return payload;
  });
}
