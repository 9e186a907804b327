import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describeToolBehaviour } from './behaviour.js';
import { call } from './client-helpers.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { accepted, closedPort, operation, startFakeRest, type FakeRest } from './fake-rest.js';

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

/**
 * Over stdio a destructive tool asks the user through the client (MCP elicitation) when the client can be asked:
 * the model's `confirm` alone no longer deletes anything. A client without the capability keeps the confirm field.
 */
describe('destructive tools ask the user through elicitation (stdio)', () => {
  let rest: FakeRest;
  const asked: string[] = [];
  let reply: 'accept' | 'decline' = 'decline';
  let session: ReturnType<typeof spawnStdio>;
  before(async () => {
    rest = await startFakeRest({
      'DELETE /api/v1/clusters/demo': () => accepted(operation({ kind: 'delete-cluster' })),
    });
    session = spawnStdio(['--url', rest.url]);
    session.client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    session.client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return reply === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    });
    await session.client.connect(session.transport);
  });
  after(async () => {
    await session.client.close();
    await rest.close();
  });
  const deletes = () => rest.requests.filter((r) => r.method === 'DELETE');

  it('a declined delete_cluster sends nothing, whatever confirm the model set', async () => {
    const result = await call(session.client, 'delete_cluster', { cluster: 'demo', confirm: true });
    assert.equal(result.isError, true);
    assert.match(result.text, /delete_cluster was not run: the user declined it\. Nothing was changed\./);
    assert.match(asked.at(-1)!, /cluster: demo.*cannot be undone/);
    assert.deepEqual(deletes(), []);
  });

  it('an accepted one is sent once, confirmed', async () => {
    reply = 'accept';
    const result = await call(session.client, 'delete_cluster', { cluster: 'demo', confirm: true });
    assert.equal(result.isError, undefined, result.text);
    assert.equal(deletes().length, 1);
    assert.equal(deletes()[0]!.query.confirm, 'true');
  });

  it('a read tool never asks', async () => {
    const before = asked.length;
    rest.routes.set('GET /api/v1/clusters', () => ({ body: { region: 'us-west-2', clusters: [] } }));
    await call(session.client, 'list_clusters');
    assert.equal(asked.length, before);
  });
});
