import type { IncomingMessage, ServerResponse } from 'node:http';
import { ClientRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { bearerToken } from '../domain/bearer-token.js';

/**
 * JSON-RPC details of the streamable HTTP endpoint that the MCP SDK leaves to its host: the caller's
 * bearer token (forwarded to the REST API, never checked here — the HTTP server's request guard
 * checks Host, Origin and the token before /mcp is reached), error answers outside a session, and
 * `params` validation that answers -32602 Invalid params instead of the SDK's -32603 with a zod dump.
 */

/** The caller's token (`Authorization: Bearer <token>`), if any: what the tools present to the REST API. */
export function callerToken(req: IncomingMessage): string | undefined {
  return bearerToken(req.headers.authorization);
}

/** A JSON-RPC error answer, the shape MCP clients expect even outside a session. */
export function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
  id: string | number | null = null,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}

const REQUEST_SCHEMAS = new Map<string, z.ZodType>(
  ClientRequestSchema.options.map((schema) => [
    (schema.shape.method as unknown as { value: string }).value,
    schema as unknown as z.ZodType,
  ]),
);

export interface InvalidParams {
  id: string | number | null;
  message: string;
}

/**
 * The first request in `body` (a message or a batch) whose `params` do not fit its method, if any.
 * Unknown methods and notifications are left to the SDK (it answers -32601 Method not found itself).
 */
export function findInvalidParams(body: unknown): InvalidParams | undefined {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!message || typeof message !== 'object') continue;
    const { method, id } = message as { method?: unknown; id?: unknown };
    if (typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) continue;
    const schema = REQUEST_SCHEMAS.get(method);
    if (!schema) continue;
    const parsed = schema.safeParse(message);
    if (parsed.success) continue;
    const issue = parsed.error.issues[0]!;
    const where = issue.path.map(String).join('.') || 'params';
    return { id, message: `Invalid params for ${method}: ${where}: ${issue.message}` };
  }
  return undefined;
}

/**
 * True when an answer to `body` should be an event stream: a request asking for progress
 * notifications (`_meta.progressToken`), or a call of a tool that holds its answer (`holdsAnswer`).
 * Everything else is answered as one JSON body, which costs both sides less than a stream.
 */
export function wantsEventStream(body: unknown, holdsAnswer: (tool: string) => boolean): boolean {
  return (Array.isArray(body) ? body : [body]).some((message) => {
    if (!message || typeof message !== 'object') return false;
    const { method, params } = message as {
      method?: unknown;
      params?: { name?: unknown; _meta?: { progressToken?: unknown } };
    };
    if (!params || typeof params !== 'object') return false;
    if (params._meta && typeof params._meta === 'object' && params._meta.progressToken !== undefined) return true;
    return method === 'tools/call' && typeof params.name === 'string' && holdsAnswer(params.name);
  });
}

/** Largest JSON-RPC body read when the handler runs without a framework in front (Fastify's limit is the same). */
const MAX_BODY_BYTES = 1024 * 1024;

/** Reads and parses a request body: the parsed value, or why it is not JSON (for a -32700 answer). */
export async function readJsonBody(
  req: IncomingMessage,
): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      return { ok: false, message: `Parse error: the body is larger than ${MAX_BODY_BYTES} bytes.` };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, message: 'Parse error: the body is not valid JSON.' };
  }
}
