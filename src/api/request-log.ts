import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { isSecretName, REDACTED } from '../domain/secret-names.js';

/** A request line is a summary: a huge URL (a 900 KB query, a fuzzed path) must not become a huge log line. */
const MAX_URL_CHARS = 512;

/**
 * The URL as it may be logged: the value of every parameter whose name is a secret name (the
 * WebSocket's `token`, and a credential sent under any other name: `hf_token`, `hfToken`,
 * `access-token`, `api_key`…; src/domain/secret-names.ts) redacted, the whole clipped.
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  let safe = url;
  if (q >= 0) {
    const params = url
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const name = eq < 0 ? pair : pair.slice(0, eq);
        let decoded = name;
        try {
          decoded = decodeURIComponent(name);
        } catch {
          // a malformed name is logged as sent
        }
        return eq >= 0 && isSecretName(decoded) ? `${name}=${REDACTED}` : pair;
      });
    safe = `${url.slice(0, q)}?${params.join('&')}`;
  }
  return clipText(safe, MAX_URL_CHARS);
}

/** At most `max` characters of attacker-chosen text, saying how much was cut. */
export function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/** Why a request was refused (4xx), for its line. */
const refusals = new WeakMap<FastifyRequest, string>();

/** Records why `request` was refused, so that its one line says it (problem.ts calls this). */
export function noteRefusal(request: FastifyRequest, detail: string): void {
  refusals.set(request, detail);
}

/** A request slower than this is worth a line at info (long polls excepted). */
export const SLOW_REQUEST_MS = 1000;
/** Requests that hold their answer by design: the operation wait, the WebSockets (live updates, a job log follow), MCP exchanges (wait_for_operation). */
const LONG_BY_DESIGN =
  /^\/api\/v1\/operations\/[^?]*\/wait(\?|$)|^\/api\/v1\/ws(\?|$)|^\/api\/v1\/clusters\/[^/?]+\/jobs\/[^/?]+\/[^/?]+\/logs\/follow(\?|$)|^\/mcp(\/|\?|$)/;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * At most one line per request, written when it completes: method, redacted URL, status, duration.
 * Fastify's default writes two lines (incoming + completed) with the raw URL, which put `?token=`
 * values and megabyte URLs into the log.
 *
 * Quiet by default: at info, only what a person wants to see — changes (POST/PUT/PATCH/DELETE, except
 * MCP exchanges, whose REST calls log themselves), answers ≥ 400, and requests slower than
 * SLOW_REQUEST_MS; failures (≥ 500 or a thrown error) at error. Every other request (reads, the UI's
 * files, probes) is at debug: INSTANTSTART_LOG_LEVEL=debug logs every request. The level is checked
 * before the line is built, so a quiet request costs no formatting.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const level = requestLevel(request.method, request.url, reply.statusCode, reply.elapsedTime, error);
    // pino's check; a logger without one (none in this server) gets every line.
    if ((reply.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.(level) === false) return;
    const detail = refusals.get(request);
    const line = {
      method: request.method,
      url: loggableUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
      ...(detail ? { detail } : {}),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log[level](line, 'request completed');
  }

  override routeNotFound(): void {}
}

/** The level of a completed request's line (see RequestLog). */
export function requestLevel(
  method: string,
  url: string,
  status: number,
  elapsedMs: number,
  error?: Error | null,
): 'error' | 'info' | 'debug' {
  if (error || status >= 500) return 'error';
  if (status >= 400) return 'info';
  const longByDesign = LONG_BY_DESIGN.test(url);
  if (!READS.has(method) && !longByDesign) return 'info';
  if (elapsedMs >= SLOW_REQUEST_MS && !longByDesign) return 'info';
  return 'debug';
}
