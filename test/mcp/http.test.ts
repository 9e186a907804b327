import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpHttpHandler, type McpHttpHandlerOptions } from '../../src/mcp/http.js';
import { describeToolBehaviour } from './behaviour.js';
import { call } from './client-helpers.js';
import { operation, startFakeRest, type FakeRest } from './fake-rest.js';

/** A node:http server with the handler on /mcp, as the Fastify server mounts it. */
async function startMcpHttp(options: McpHttpHandlerOptions): Promise<{ url: string; close(): Promise<void> }> {
  const handler = createMcpHttpHandler(options);
  const server: Server = createServer((req, res) => {
    if (req.url?.split('?')[0] === '/mcp') void handler.handle(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function connectClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describeToolBehaviour('streamable HTTP', async (restUrl) => {
  // A function, as a server passes it when it learns its port only after listen().
  const mcp = await startMcpHttp({ baseUrl: () => restUrl });
  const client = await connectClient(mcp.url);
  return {
    client,
    async close() {
      await client.close();
      await mcp.close();
    },
  };
});

describe('the /mcp endpoint', () => {
  let rest: FakeRest;
  let open: { url: string; close(): Promise<void> };
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  });
  const post = (url: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: initialize,
    });

  before(async () => {
    rest = await startFakeRest({
      'GET /api/v1/active-cluster': () => ({ body: { name: 'demo', region: 'us-west-2' } }),
      'GET /api/v1/operations/op-1/wait': () => ({ body: operation({ id: 'op-1', status: 'succeeded' }) }),
    });
    open = await startMcpHttp({ baseUrl: rest.url });
  });
  after(async () => {
    await open.close();
    await rest.close();
  });

  it('answers an initialize from a loopback client', async () => {
    const res = await post(open.url);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /"name":"instantstart"/);
  });

  it('answers GET and DELETE with 405 (stateless endpoint)', async () => {
    const res = await fetch(open.url, { headers: { accept: 'text/event-stream' } });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    await res.text();
  });

  it("forwards the caller's bearer token to the REST API, and nothing else", async () => {
    rest.requests.length = 0;
    const client = await connectClient(open.url, { authorization: 'Bearer s3cret' });
    try {
      const result = await call(client, 'get_active_cluster');
      assert.equal(result.isError, undefined, result.text);
      assert.match(result.text, /Active cluster: demo/);
      const req = rest.requests.find((r) => r.path === '/api/v1/active-cluster');
      assert.equal(req?.headers.authorization, 'Bearer s3cret');
    } finally {
      await client.close();
    }
  });

  it('serves only the tool groups ?tools= names (with the polling tools), and refuses an unknown group naming the groups', async () => {
    const client = await connectClient(`${open.url}?tools=diagnostics`);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('diagnose_node') && names.includes('wait_for_operation'), names.join(', '));
      assert.ok(!names.includes('create_cluster') && !names.includes('submit_training_job'), names.join(', '));
      const outside = await call(client, 'create_cluster', { name: 'x' });
      assert.equal(outside.isError, true, 'a tool outside the groups is unknown here');
    } finally {
      await client.close();
    }
    const res = await post(`${open.url}?tools=cluster,gpu`);
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { code: number; message: string } };
    assert.equal(body.error.code, -32602);
    assert.match(body.error.message, /no tool group 'gpu' \(groups: cluster, workloads, diagnostics\)/);
  });

  it('answers params that do not fit the method with -32602 Invalid params, naming the field', async () => {
    const res = await fetch(open.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 5 } }),
    });
    const body = (await res.json()) as { id: number; error: { code: number; message: string } };
    assert.equal(body.id, 7);
    assert.equal(body.error.code, -32602);
    assert.match(body.error.message, /params\.name/);
    assert.doesNotMatch(body.error.message, /\[\s*\{/, 'no zod issue dump');
  });

  it('answers a call as one JSON body; a wait, or a call asking for progress, as an event stream', async () => {
    const callTool = (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
      fetch(open.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
        }),
      });
    const plain = await callTool('get_active_cluster', {});
    assert.match(String(plain.headers.get('content-type')), /^application\/json/);
    assert.match(
      ((await plain.json()) as { result: { content: Array<{ text: string }> } }).result.content[0]!.text,
      /Active cluster: demo/,
    );
    const wait = await callTool('wait_for_operation', { operationId: 'op-1', timeoutSeconds: 5 });
    assert.match(String(wait.headers.get('content-type')), /^text\/event-stream/);
    assert.match(await wait.text(), /SUCCEEDED/);
    const withProgress = await callTool('get_active_cluster', {}, { progressToken: 'p-1' });
    assert.match(String(withProgress.headers.get('content-type')), /^text\/event-stream/);
    await withProgress.text();
  });

  it('forwards no credentials of its own when the caller sends none', async () => {
    rest.requests.length = 0;
    const client = await connectClient(open.url);
    try {
      await call(client, 'get_active_cluster');
      assert.equal(rest.requests[0].headers.authorization, undefined);
    } finally {
      await client.close();
    }
  });
});
