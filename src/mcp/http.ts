import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { callerToken, findInvalidParams, readJsonBody, sendJsonRpcError, wantsEventStream } from './jsonrpc-http.js';
import { capabilityTools, createMcpServer } from './server.js';
import { parseToolGroups, type ToolGroup } from './tool-groups.js';

export interface McpHttpHandlerOptions {
  /**
   * Root URL of the REST API the tools call, normally this same server: `http://127.0.0.1:3099`.
   * A function is read on each request, for servers that learn their port only after listen().
   */
  baseUrl: string | (() => string);
  /** Where unexpected failures are reported (never tokens or bodies). Default: nowhere. */
  onError?: (error: Error) => void;
  /**
   * The tools' way to the REST API; default: the global fetch (HTTP to `baseUrl`). A server that
   * mounts this handler passes its in-process fetch (src/api/in-process-fetch.ts): the same REST
   * routes and guard, without a loopback connection per call. Tests pass their own.
   */
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
 * Streamable HTTP for `/mcp`, stateless: each POST gets a fresh protocol server and transport that
 * live as long as that HTTP exchange. A call is answered as one JSON body, except a call that holds
 * its answer (wait_for_operation) or asks for progress: that one is an SSE stream, with the SDK's
 * keep-alives (jsonrpc-http.ts → wantsEventStream). Both are cheap: the tools, their schemas and
 * the tools/list answer are built once per process (tool-set.ts).
 * Stateless needs no session store, survives server restarts, and is the SDK's robust mode; GET
 * (standalone notification stream) and DELETE (end session) answer 405.
 *
 * It checks no credentials of its own: mount it behind the HTTP server's request guard (Host, Origin,
 * token — src/api/guard), as src/api/server.ts does. The caller's own bearer token is what the tools
 * forward to the REST API, so the MCP endpoint never lends a caller privileges.
 *
 * @example
 * const mcp = createMcpHttpHandler({ baseUrl: 'http://127.0.0.1:3099' });
 * http.createServer((req, res) => (req.url?.startsWith('/mcp') ? mcp.handle(req, res) : other(req, res)));
 */
export function createMcpHttpHandler(options: McpHttpHandlerOptions): McpHttpHandler {
  const open = new Set<{ server: Server; transport: StreamableHTTPServerTransport }>();
  let closed = false;

  async function handleMcpRequest(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> {
    if (closed) return sendJsonRpcError(res, 503, 'MCP endpoint is shutting down');
    if (req.method !== 'POST') {
      return sendJsonRpcError(
        res,
        405,
        'Method not allowed: this MCP endpoint is stateless; send JSON-RPC with POST.',
        { allow: 'POST' },
      );
    }
    // Mounted in Fastify the body arrives parsed; standalone, it is read here, so that it is always checked.
    const body = parsedBody !== undefined ? { ok: true as const, value: parsedBody } : await readJsonBody(req);
    if (!body.ok) return sendJsonRpcError(res, 400, body.message, {}, -32700);
    const invalid = findInvalidParams(body.value);
    if (invalid) return sendJsonRpcError(res, 200, invalid.message, {}, -32602, invalid.id);
    const token = callerToken(req);
    let groups: ToolGroup[] | undefined;
    try {
      groups = parseToolGroups(new URL(req.url ?? '/', 'http://mcp').searchParams.get('tools') ?? undefined);
    } catch (err) {
      return sendJsonRpcError(res, 400, err instanceof Error ? err.message : String(err), {}, -32602);
    }

    const baseUrl = typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl;
    const tools = capabilityTools(groups);
    const userAgent = req.headers['user-agent'];
    const server = createMcpServer({
      baseUrl,
      token,
      fetch: options.fetch,
      tools,
      ...(userAgent ? { clientHint: userAgent } : {}),
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !wantsEventStream(body.value, (name) => tools.holdsAnswer(name)),
    });
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
      await transport.handleRequest(req, res, body.value);
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
