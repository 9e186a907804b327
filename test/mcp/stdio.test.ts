import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describeToolBehaviour } from './behaviour.js';
import { call } from './client-helpers.js';
import { closedPort } from './fake-rest.js';

/** The compiled fixture next to this compiled test (dist/… or .build-mcp/out/…). */
const ENTRY = fileURLToPath(new URL('./fixtures/stdio-entry.js', import.meta.url));

function spawnStdio(args: string[]): { client: Client; transport: StdioClientTransport; stderr(): string } {
  const transport = new StdioClientTransport({ command: process.execPath, args: [ENTRY, ...args], stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return { client: new Client({ name: 'test', version: '1.0.0' }), transport, stderr: () => stderr };
}

describeToolBehaviour('stdio (spawned `instantstart mcp` entry)', async (restUrl) => {
  const { client, transport } = spawnStdio(['--url', restUrl]);
  await client.connect(transport);
  return { client, close: () => client.close() };
});

describe('the stdio MCP server', () => {
  let session: ReturnType<typeof spawnStdio>;
  let downUrl: string;
  before(async () => {
    // Nothing listens there: every REST call is refused.
    downUrl = `http://127.0.0.1:${await closedPort()}`;
    session = spawnStdio(['--url', downUrl]);
    await session.client.connect(session.transport);
  });
  after(() => session.client.close());

  it('logs to stderr only and explains an unreachable server as a tool error', async () => {
    const result = await call(session.client, 'list_clusters');
    assert.equal(result.isError, true);
    assert.ok(result.text.includes(`cannot reach the InstantStart server at ${downUrl}`), result.text);
    assert.match(result.text, /ECONNREFUSED/);
    assert.match(result.text, /instantstart serve/);
    assert.match(session.stderr(), /instantstart mcp: serving MCP on stdio/);
  });
});
