import { Client as ClientClass, type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../src/mcp/server.js';

/** Calls a tool and returns its result with the text blocks joined (what a model reads). */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult & { text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content
    .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
  return { ...result, text };
}

/** A client connected in memory to a server with every tool (its REST calls go nowhere): for reading the tool list. */
export async function inMemoryToolClient(): Promise<{ client: Client; tools: Tool[] }> {
  const server = createMcpServer({ baseUrl: 'http://127.0.0.1:1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new ClientClass({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(a), client.connect(b)]);
  return { client, tools: (await client.listTools()).tools };
}

/**
 * A listed tool's four hints as a client reads them: `tools/list` leaves out the ones equal to MCP's defaults
 * (readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true; src/mcp/listed-schema.ts).
 */
export function hintsOf(
  tool: Tool,
): Required<
  Pick<NonNullable<Tool['annotations']>, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>
> {
  const a = tool.annotations ?? {};
  const readOnly = a.readOnlyHint ?? false;
  return {
    readOnlyHint: readOnly,
    destructiveHint: readOnly ? false : (a.destructiveHint ?? true),
    idempotentHint: readOnly ? true : (a.idempotentHint ?? false),
    openWorldHint: a.openWorldHint ?? true,
  };
}
