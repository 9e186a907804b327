import type { FastifyInstance } from 'fastify';

/**
 * A `fetch` that answers from this server's own routes in-process (Fastify's inject): the request
 * goes through the same guard, parsing, validation and handlers as one that arrives over TCP, but
 * no loopback connection is opened, written, parsed and read back. The MCP endpoint mounted in this
 * server gives it to its tools (MCP tools call REST only; this is how they reach it when they live
 * in the same process). Aborting the signal aborts the injected request, as a closed socket would.
 *
 * Only what the REST client uses is supported: method, headers, a string body, a signal; the URL's
 * host becomes the Host header (the guard checks it), its path and query the request's URL.
 */
export function inProcessFetch(app: () => FastifyInstance): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    headers.host = url.host;
    init.signal?.throwIfAborted();
    const answer = await app().inject({
      method: (init.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(init.body === undefined || init.body === null ? {} : { payload: init.body as string }),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [String(value)]) responseHeaders.append(name, one);
    }
    // 204/304 may not carry a body in a web Response.
    const body = answer.statusCode === 204 || answer.statusCode === 304 ? null : answer.rawPayload;
    return new Response(body, { status: answer.statusCode, headers: responseHeaders });
  };
}
