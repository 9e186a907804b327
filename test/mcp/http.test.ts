import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpHttpHandler, type McpHttpHandlerOptions } from '../../src/mcp/http.js';
import { describeToolBehaviour } from './behaviour.js';
import { call } from './client-helpers.js';
import { startFakeRest, type FakeRest } from './fake-rest.js';

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

function rawPost(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

describe('the /mcp endpoint', () => {
  let rest: FakeRest;
  let open: { url: string; close(): Promise<void> };
  let secured: { url: string; close(): Promise<void> };
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  });
  const post = (url: string, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: initialize });

  before(async () => {
    rest = await startFakeRest({ 'GET /api/v1/active-cluster': () => ({ body: { name: 'demo', region: 'us-west-2' } }) });
    open = await startMcpHttp({ baseUrl: rest.url });
    secured = await startMcpHttp({ baseUrl: rest.url, token: 's3cret' });
  });
  after(async () => {
    await open.close();
    await secured.close();
    await rest.close();
  });

  it('answers an initialize from a loopback client', async () => {
    const res = await post(open.url);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /"name":"instantstart"/);
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin', async () => {
    const { port } = new URL(open.url);
    // fetch will not send a Host other than the URL's, so this one goes through node:http.
    const badHost = await rawPost(open.url, { host: `evil.example:${port}` });
    assert.equal(badHost.status, 403);
    assert.match(badHost.body, /Host not allowed/);
    const badOrigin = await post(open.url, { origin: 'http://evil.example' });
    assert.equal(badOrigin.status, 403);
    assert.match(await badOrigin.text(), /Origin not allowed/);
    const goodOrigin = await post(open.url, { origin: `http://localhost:${port}` });
    assert.equal(goodOrigin.status, 200);
    await goodOrigin.text();
  });

  it('answers GET and DELETE with 405 (stateless endpoint)', async () => {
    const res = await fetch(open.url, { headers: { accept: 'text/event-stream' } });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    await res.text();
  });

  it('with a server token, requires the bearer and forwards it to the REST API', async () => {
    const anonymous = await post(secured.url);
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.headers.get('www-authenticate') ?? '', /Bearer/);
    await anonymous.text();
    const wrong = await post(secured.url, { authorization: 'Bearer nope' });
    assert.equal(wrong.status, 401);
    await wrong.text();

    const client = await connectClient(secured.url, { authorization: 'Bearer s3cret' });
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

  it('without a server token, forwards no credentials of its own', async () => {
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
