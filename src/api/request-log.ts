import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Query parameters whose values are credentials (the WebSocket's `token`); redacted from every log line. */
const SECRET_PARAMS = /^(token|access_token|api[_-]?key|password|secret)$/i;
/** A request line is a summary: a huge URL (a 900 KB query, a fuzzed path) must not become a huge log line. */
const MAX_URL_CHARS = 512;

/** The URL as it may be logged: credential parameters redacted, the whole clipped. */
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
        return eq >= 0 && SECRET_PARAMS.test(decoded) ? `${name}=[redacted]` : pair;
      });
    safe = `${url.slice(0, q)}?${params.join('&')}`;
  }
  return clipText(safe, MAX_URL_CHARS);
}

/** At most `max` characters of attacker-chosen text, saying how much was cut. */
export function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/**
 * One line per request, written when it completes: method, redacted URL, status, duration. Fastify's
 * default writes two lines (incoming + completed) with the raw URL, which put `?token=` values and
 * megabyte URLs into the log. Liveness probes log at debug: they would drown everything else.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, url: loggableUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (request.url === '/healthz') reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }

  override routeNotFound(): void {}
}
