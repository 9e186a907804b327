import type { FastifyInstance } from 'fastify';

/**
 * What the browser must enforce on our behalf, on every answer: no framing (clickjacking), no MIME
 * sniffing, no referrer, and a Content-Security-Policy that lets the UI load only its own bundle
 * (JSON answers get a stricter, shorter set: JSON_HEADERS).
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

/** What a page of the UI (HTML, and the files it loads) gets: the full policy above. */
const DOCUMENT_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * What a JSON answer gets (OWASP's REST set): nothing may run or load in it if a browser opens it as
 * a page (`default-src 'none'`), no framing, no sniffing, no cross-origin embedding. The headers
 * that only a document uses (referrer, opener) are left out: every API answer is ~250 bytes
 * smaller, which is a third of a /healthz answer.
 */
const JSON_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

const JSON_TYPE = /^application\/(problem\+)?json\b/;

export function installSecurityHeaders(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every answer, and a promise per answer is measurable.
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    reply.headers(typeof type === 'string' && JSON_TYPE.test(type) ? JSON_HEADERS : DOCUMENT_HEADERS);
    done(null, payload);
  });
}
