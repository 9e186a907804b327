import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { bearerToken, checkHostAndOrigin, LOOPBACK_HOSTS, sameToken, sendJsonRpcError } from './http-guards.js';
import { createMcpServer } from './server.js';

export interface McpHttpHandlerOptions {
  /**
   * Root URL of the REST API the tools call, normally this same server: `http://127.0.0.1:3099`.
   * A function is read on each request, for servers that learn their port only after listen().
   */
  baseUrl: string | (() => string);
  /**
   * The server's API token, when it has one (it must when bound beyond loopback). Requests to /mcp
   * must then carry `Authorization: Bearer <token>`. Either way the caller's own bearer token is what
   * the tools forward to the REST API: the MCP endpoint never lends a caller privileges.
   */
  token?: string;
  /** Host names (no port) accepted in Host and Origin. Default: 127.0.0.1, localhost, [::1]. */
  allowedHosts?: readonly string[];
  /** Exact Origin values accepted besides those whose host is in allowedHosts. */
  allowedOrigins?: readonly string[];
  /** Where unexpected failures are reported (never tokens or bodies). Default: nowhere. */
  onError?: (error: Error) => void;
  /** For tests: a fetch for the REST calls. */
  fetch?: typeof fetch;
}

type HandleMcpRequest = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => Promise<void>;

/** `(req, res, parsedBody?) => Promise<void>` (also as `.handle`) plus `close()`, for a `/mcp` route. */
export type McpHttpHandler = HandleMcpRequest & {
  handle: HandleMcpRequest;
  /** Closes every open MCP exchange; later requests get 503. */
  close(): Promise<void>;
};

/**
 * Streamable HTTP for `/mcp`, stateless: each POST gets a fresh McpServer and transport that live
 * as long as that HTTP exchange (a wait_for_operation call keeps its SSE answer open, with the SDK's
 * keep-alives). Stateless needs no session store, survives server restarts, and is the SDK's
 * robust mode; GET (standalone notification stream) and DELETE (end session) answer 405.
 *
 * Host and Origin must name an allowed host (default: loopback names) — pass `allowedHosts` when the
 * server is reached under another name.
 *
 * @example
 * const mcp = createMcpHttpHandler({ baseUrl: 'http://127.0.0.1:3099' });
 * http.createServer((req, res) => (req.url?.startsWith('/mcp') ? mcp.handle(req, res) : other(req, res)));
 */
export function createMcpHttpHandler(options: McpHttpHandlerOptions): McpHttpHandler {
  const allowedHosts = (options.allowedHosts ?? LOOPBACK_HOSTS).map((h) => h.toLowerCase());
  const allowedOrigins = options.allowedOrigins ?? [];
  const open = new Set<{ server: McpServer; transport: StreamableHTTPServerTransport }>();
  let closed = false;

  async function handleMcpRequest(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> {
    if (closed) return sendJsonRpcError(res, 503, 'MCP endpoint is shutting down');
    const refused = checkHostAndOrigin(req, allowedHosts, allowedOrigins);
    if (refused) return sendJsonRpcError(res, 403, refused);
    const token = bearerToken(req);
    if (options.token && !(token && sameToken(token, options.token))) {
      return sendJsonRpcError(res, 401, 'This server requires an API token: send Authorization: Bearer <token>.', {
        'www-authenticate': 'Bearer realm="instantstart"',
      });
    }
    if (req.method !== 'POST') {
      return sendJsonRpcError(res, 405, 'Method not allowed: this MCP endpoint is stateless; send JSON-RPC with POST.', { allow: 'POST' });
    }

    const baseUrl = typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl;
    const server = createMcpServer({ baseUrl, token, fetch: options.fetch });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const entry = { server, transport };
    open.add(entry);
    // The exchange ends when the answer is sent or the client goes away; both close the pair,
    // which aborts the tool's REST call (a cancelled wait stops waiting server-side too).
    res.on('close', () => {
      open.delete(entry);
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, parsedBody);
    } catch (err) {
      options.onError?.(err instanceof Error ? err : new Error(String(err)));
      sendJsonRpcError(res, 500, 'Internal error in the MCP endpoint');
    }
  }

  return Object.assign(handleMcpRequest, {
    handle: handleMcpRequest,
    async close(): Promise<void> {
      closed = true;
      const entries = [...open];
      open.clear();
      await Promise.allSettled(entries.flatMap(({ server, transport }) => [transport.close(), server.close()]));
    },
  });
}
