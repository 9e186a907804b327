import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { registerPlaybookPrompts } from '../../src/mcp/playbooks.js';
import { LOG_PAGE_LINES, registerResources } from '../../src/mcp/resources.js';
import { RestClient } from '../../src/mcp/rest-client.js';
import { SHARED_FIELDS } from '../../src/mcp/listed-schema.js';
import { createMcpServer, SERVER_INSTRUCTIONS } from '../../src/mcp/server.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { startFakeRest, type FakeRest } from './fake-rest.js';

// Tests run from the repository root (as the other MCP tests that start bin/instantstart.mjs).
const SKILLS = join(process.cwd(), 'agent', 'skills');
const DOCS = join(process.cwd(), 'docs');
const playbookFiles = () => readdirSync(SKILLS).filter((f) => f.endsWith('.md'));
const docFiles = () => ['README.md', ...readdirSync(DOCS).filter((f) => f.endsWith('.md'))];
const textOf = (content: { text?: unknown; type: string }) => {
  assert.equal(content.type, 'text');
  return String(content.text);
};

/** The text of a resource's first content (these resources are all text). */
function resourceText(result: ReadResourceResult): string {
  const first = result.contents[0];
  assert.ok(first && 'text' in first, 'a text resource');
  return first.text;
}

async function connect(server: { connect(t: InMemoryTransport): Promise<void> }): Promise<Client> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(a), client.connect(b)]);
  return client;
}

describe('MCP prompts (the playbooks) and resources (docs, OpenAPI, operation logs), against a stand-in REST API', () => {
  let rest: FakeRest;
  let client: Client;
  const logLines = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({
      seq: from + i + 1,
      at: '2026-01-01T00:00:00.000Z',
      level: 'info',
      phase: 'network',
      message: `line ${from + i + 1}`,
    }));
  before(async () => {
    rest = await startFakeRest({
      'GET /api/openapi.json': () => ({ body: { openapi: '3.1.0', paths: { '/api/v1/clusters': {} } } }),
      // A log of LOG_PAGE_LINES + 3 lines: one full page, then the last three.
      'GET /api/v1/operations/op-1/events': ({ query }) => {
        const after = Number(query.after);
        const lines = logLines(after, Math.min(Number(query.limit), LOG_PAGE_LINES + 3 - after));
        return { body: { lines, nextAfter: lines.at(-1)?.seq ?? after } };
      },
    });
    client = await connect(createMcpServer({ baseUrl: rest.url, token: 'caller-token' }));
  });
  after(async () => {
    await client.close();
    await rest.close();
  });

  it('declares prompts and resources at initialize, with short instructions that name them', () => {
    const caps = client.getServerCapabilities();
    assert.ok(caps?.prompts && caps.resources && caps.tools);
    assert.equal(client.getInstructions(), SERVER_INSTRUCTIONS);
    // A few lines: what the server is, where the playbooks are, the polling rule and the arguments every tool shares.
    assert.ok(SERVER_INSTRUCTIONS.split('\n').length <= 5 && SERVER_INSTRUCTIONS.length < 1_100);
    for (const field of SHARED_FIELDS.keys()) assert.match(SERVER_INSTRUCTIONS, new RegExp(`\\b${field} is `));
    assert.match(SERVER_INSTRUCTIONS, /prompts/);
    assert.match(SERVER_INSTRUCTIONS, /resources/);
  });

  it('lists every agent/skills file as a prompt, titled by its heading and described by its front matter', async () => {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(
      prompts.map((p) => p.name).sort(),
      playbookFiles()
        .map((f) => f.replace(/\.md$/, ''))
        .sort(),
    );
    for (const prompt of prompts) {
      const text = readFileSync(join(SKILLS, `${prompt.name}.md`), 'utf8');
      assert.equal(
        `# ${prompt.title}`,
        text.split('\n').find((l) => l.startsWith('# ')),
      );
      assert.equal(prompt.description, /^description: (.*)$/m.exec(text)?.[1]);
      assert.deepEqual(
        prompt.arguments?.map((a) => [a.name, a.required]),
        [
          ['cluster', false],
          ['request', false],
        ],
      );
    }
  });

  it('prompts/get answers the playbook as a user message; arguments come first as a short preface', async () => {
    const bare = await client.getPrompt({ name: 'create-cluster' });
    assert.equal(bare.messages.length, 1);
    assert.equal(bare.messages[0]!.role, 'user');
    assert.equal(textOf(bare.messages[0]!.content), readFileSync(join(SKILLS, 'create-cluster.md'), 'utf8'));

    const filled = await client.getPrompt({
      name: 'heal-node',
      arguments: { cluster: 'demo', request: 'node 3 is failing' },
    });
    const text = textOf(filled.messages[0]!.content);
    assert.ok(text.startsWith('The user asked: node 3 is failing\nThe cluster: demo\n'), text.slice(0, 200));
    assert.ok(text.endsWith(readFileSync(join(SKILLS, 'heal-node.md'), 'utf8')));

    await assert.rejects(client.getPrompt({ name: 'no-such-playbook' }), /Prompt no-such-playbook not found/);
    await assert.rejects(
      client.getPrompt({ name: 'heal-node', arguments: { cluster: 'x'.repeat(201) } }),
      /Invalid arguments for prompt heal-node: cluster/,
    );
  });

  it('lists the docs and the OpenAPI document as resources, and the operation log as a template', async () => {
    const { resources } = await client.listResources();
    const docs = resources.filter((r) => r.uri.startsWith('instantstart://docs/'));
    assert.deepEqual(
      docs.map((r) => r.uri).sort(),
      docFiles()
        .map((f) => `instantstart://docs/${f}`)
        .sort(),
    );
    for (const doc of docs) assert.equal(doc.mimeType, 'text/markdown');
    assert.equal(docs.find((d) => d.uri.endsWith('/MCP.md'))?.title, 'MCP server');
    const openapi = resources.find((r) => r.uri === 'instantstart://openapi.json');
    assert.equal(openapi?.mimeType, 'application/json');
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => [t.uriTemplate, t.mimeType]),
      [
        ['instantstart://operations/{id}/log', 'text/plain'],
        ['instantstart://operations/{id}/log{?after}', 'text/plain'],
      ],
    );
  });

  it('reads a doc from the package', async () => {
    const doc = await client.readResource({ uri: 'instantstart://docs/OPERATIONS.md' });
    assert.equal(doc.contents[0]!.mimeType, 'text/markdown');
    assert.equal(resourceText(doc), readFileSync(join(DOCS, 'OPERATIONS.md'), 'utf8'));
    await assert.rejects(client.readResource({ uri: 'instantstart://docs/NOPE.md' }), /not found/);
  });

  it("reads the OpenAPI document through REST with the caller's token", async () => {
    rest.requests.length = 0;
    const openapi = await client.readResource({ uri: 'instantstart://openapi.json' });
    assert.equal(openapi.contents[0]!.mimeType, 'application/json');
    assert.ok(JSON.parse(resourceText(openapi)).paths['/api/v1/clusters']);
    assert.equal(rest.requests.length, 1);
    assert.equal(rest.requests[0]!.headers.authorization, 'Bearer caller-token');
  });

  it('reads an operation log a page at a time; the last line names the URI that reads on', async () => {
    const first = resourceText(await client.readResource({ uri: 'instantstart://operations/op-1/log' }));
    const lines = first.split('\n');
    assert.equal(lines.length, LOG_PAGE_LINES + 1);
    assert.equal(lines[0], '2026-01-01T00:00:00.000Z INFO [network] line 1');
    const next = `instantstart://operations/op-1/log?after=${LOG_PAGE_LINES}`;
    assert.equal(lines.at(-1), `(more follows: read ${next})`);

    const second = await client.readResource({ uri: next });
    assert.equal(second.contents[0]!.uri, next);
    const rest2 = resourceText(second).split('\n');
    assert.deepEqual(
      rest2.slice(0, -1),
      [501, 502, 503].map((n) => `2026-01-01T00:00:00.000Z INFO [network] line ${n}`),
    );
    assert.match(
      rest2.at(-1)!,
      /^\(end of the log for now; read instantstart:\/\/operations\/op-1\/log\?after=503 later/,
    );
    assert.deepEqual(
      rest.requests.filter((r) => r.path.endsWith('/events')).map((r) => r.query),
      [
        { after: '0', limit: String(LOG_PAGE_LINES) },
        { after: String(LOG_PAGE_LINES), limit: String(LOG_PAGE_LINES) },
      ],
    );
    // Unknown operation: the REST 404 reaches the client as an error, not as an empty log.
    await assert.rejects(client.readResource({ uri: 'instantstart://operations/op-404/log' }), /404|Not Found/);
  });

  it("lists and reads what the SDK's own registerPrompt / registerResource / ResourceTemplate would", async () => {
    const sdk = new McpServer({ name: 'sdk', version: '0' });
    registerPlaybookPrompts(sdk);
    registerResources(sdk, new RestClient({ baseUrl: rest.url, token: 'caller-token' }));
    const viaSdk = await connect(sdk);
    try {
      assert.deepEqual((await client.listPrompts()).prompts, (await viaSdk.listPrompts()).prompts);
      assert.deepEqual((await client.listResources()).resources, (await viaSdk.listResources()).resources);
      assert.deepEqual(
        (await client.listResourceTemplates()).resourceTemplates,
        (await viaSdk.listResourceTemplates()).resourceTemplates,
      );
      const get = { name: 'train', arguments: { cluster: 'demo' } };
      assert.deepEqual(await client.getPrompt(get), await viaSdk.getPrompt(get));
      for (const uri of ['instantstart://docs/README.md', 'instantstart://operations/op-1/log?after=501']) {
        assert.deepEqual(await client.readResource({ uri }), await viaSdk.readResource({ uri }));
      }
    } finally {
      await viaSdk.close();
    }
  });
});

describe('MCP resources on the real server: the OpenAPI document and a running operation’s log (streamable HTTP)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let http: Client;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    http = new Client({ name: 'resources-e2e', version: '1.0.0' });
    await http.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  after(() => stopAll(http, server, sb));

  it('reads the OpenAPI document the REST API serves', async () => {
    const document = JSON.parse(resourceText(await http.readResource({ uri: 'instantstart://openapi.json' })));
    assert.deepEqual(document, (await server.api('GET', '/api/openapi.json')).body);
    assert.ok(document.paths['/api/v1/operations/{id}/events']);
  });

  it("reads an operation's log through the template, as REST has it", async () => {
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'logged',
      availabilityZone: 'us-west-2c',
      instanceType: 'ml.g5.8xlarge',
      instanceCount: 1,
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const id: string = created.body.operation.id;
    // The operation logs as it goes: wait for a few lines (sandbox time runs 600× faster).
    let events: { lines: Array<{ seq: number; message: string }>; nextAfter: number } = { lines: [], nextAfter: 0 };
    for (let i = 0; i < 100 && events.lines.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      events = (await server.api('GET', `/api/v1/operations/${id}/events?limit=2`)).body;
    }
    assert.ok(events.lines.length >= 2, 'the operation wrote log lines');
    const uri = `instantstart://operations/${id}/log`;
    const text = resourceText(await http.readResource({ uri }));
    const lines = text.split('\n');
    assert.ok(lines[0]!.endsWith(events.lines[0]!.message), lines[0]);
    assert.ok(lines[1]!.endsWith(events.lines[1]!.message), lines[1]);
    assert.match(lines.at(-1)!, new RegExp(`read instantstart://operations/${id}/log\\?after=\\d+`));

    const onwards = resourceText(await http.readResource({ uri: `${uri}?after=${events.lines[0]!.seq}` }));
    assert.ok(onwards.split('\n')[0]!.endsWith(events.lines[1]!.message), onwards.slice(0, 200));
  });
});
