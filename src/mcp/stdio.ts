import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RestClient } from './rest-client.js';
import { capabilityTools, createMcpServer } from './server.js';
import type { ToolGroup } from './tool-groups.js';

export interface StdioMcpOptions {
  /** The running InstantStart server, e.g. `http://127.0.0.1:3099`. */
  url: string;
  /** API token for that server; falls back to the INSTANTSTART_API_TOKEN environment variable. */
  token?: string;
  /** Serve only these tool groups (tool-groups.ts); default: every tool. */
  groups?: readonly ToolGroup[];
  /** For tests; default process.stdin / process.stdout / stderr. */
  stdin?: Readable;
  stdout?: Writable;
  log?: (line: string) => void;
}

export interface StdioMcpSession {
  /** Resolves when the client goes away (stdin ends) or close() is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * `instantstart mcp`: an MCP server on stdin/stdout whose tools call a running server's REST API.
 * stdout carries only the protocol, so every diagnostic goes to stderr.
 *
 * @example
 * const session = await runStdioMcp({ url: 'http://127.0.0.1:3099', token: process.env.INSTANTSTART_API_TOKEN });
 * await session.closed;
 */
export async function runStdioMcp({
  url,
  token = process.env.INSTANTSTART_API_TOKEN,
  groups,
  stdin = process.stdin,
  stdout = process.stdout,
  log = (line) => process.stderr.write(`instantstart mcp: ${line}\n`),
}: StdioMcpOptions): Promise<StdioMcpSession> {
  const api = new RestClient({ baseUrl: url, token }); // also validates the URL before anything starts
  // stdio is one session: a destructive tool can ask the user through the client (elicitation) and hear back.
  const server = createMcpServer({ baseUrl: api.baseUrl, token, tools: capabilityTools(groups), canAsk: true });
  const transport = new StdioServerTransport(stdin, stdout);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing = false;
  const close = async () => {
    if (closing) return closed;
    closing = true;
    stdin.off('end', onEnd);
    // Closing the server aborts in-flight tool calls, so a pending wait does not keep the process alive.
    await server.close().catch(() => undefined);
    resolveClosed();
  };
  const onEnd = () => void close();
  transport.onerror = (err) => log(`transport error: ${err.message}`);
  stdin.once('end', onEnd);
  await server.connect(transport);
  // However the connection ends (close() or the transport giving up), `closed` settles.
  server.onclose = () => resolveClosed();
  log(`serving MCP on stdio; tools call ${api.baseUrl}`);
  // A missing server is worth a warning, not a refusal: it may start after the agent does.
  void api
    .get('/healthz', { timeoutMs: 3000 })
    .catch((err: unknown) =>
      log(`warning: ${err instanceof Error ? err.message : String(err)} — tools will fail until it answers`),
    );
  return { closed, close };
}
