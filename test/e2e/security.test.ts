import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { rawRequest, rawUpgrade } from '../helpers/raw-http.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnServer, startTestServer, stopAll, type TestServer } from '../helpers/server.js';

const TOKEN = 'sekret-token';
const CREATE = { name: 'sneaky', availabilityZone: 'us-west-2a', instanceType: 'ml.g5.8xlarge', instanceCount: 1 };
const SAMPLE: Record<string, string> = {
  name: 'demo',
  cluster: 'demo',
  group: 'workers',
  id: 'op-1',
  phase: 'hyperpod',
  nodeId: 'i-0123456789abcdef0',
};

/** Every spelling of a path that a router may decode, fold or ignore — and that a raw-URL check would miss. */
function spellings(path: string): string[] {
  const segments = path.split('/');
  const last = segments.at(-1)!;
  return [
    path,
    path.replace('/api/', '/%61pi/'),
    path.replace('/api/', '/%61%70%69/'),
    `${segments.slice(0, -1).join('/')}/%${last.charCodeAt(0).toString(16)}${last.slice(1)}`,
    path.replace('/api/', '/API/'),
    path.replace('/api/', '/Api/'),
    `/${path}`,
    path.replace('/api/v1/', '/api//v1/'),
    path.replace('/api/v1/', '/api/./v1/'),
    `${path}/`,
  ];
}

/** The OpenAPI document's operations with sample path parameters: every REST route there is. */
async function everyOperation(
  server: TestServer,
  headers: Record<string, string>,
): Promise<Array<{ method: string; path: string }>> {
  const doc = await server.api('GET', '/api/openapi.json', undefined, headers);
  assert.equal(doc.status, 200);
  const out: Array<{ method: string; path: string }> = [];
  for (const [template, ops] of Object.entries<Record<string, unknown>>(doc.body.paths)) {
    const path = template.replace(/\{(\w+)\}/g, (_, p: string) => SAMPLE[p] ?? 'x');
    for (const method of Object.keys(ops)) out.push({ method: method.toUpperCase(), path });
  }
  return out;
}

describe('request guard on a server started with --token', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    sb = await startTestSandbox();
    server = await startTestServer(sb, { speed: 1, token: TOKEN });
  });
  after(() => stopAll(server, sb));

  it('answers 401 to every route under every spelling of its path, and nothing changes', async () => {
    const operations = await everyOperation(server, { authorization: `Bearer ${TOKEN}` });
    assert.ok(operations.length >= 30, `the OpenAPI document lists the routes (${operations.length})`);
    const routes = [
      ...operations,
      { method: 'GET', path: '/api/openapi.json' },
      { method: 'POST', path: '/mcp' },
      { method: 'GET', path: '/api/v1/nope' },
    ];
    for (const { method, path } of routes) {
      const body =
        method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify(path.endsWith('/clusters') ? CREATE : {});
      for (const spelled of spellings(path)) {
        const withConfirm = method === 'DELETE' ? `${spelled}?confirm=true` : spelled;
        const r = await rawRequest(server.url, method, withConfirm, { body });
        assert.equal(r.status, 401, `${method} ${withConfirm} without a token → ${r.status} ${r.text.slice(0, 200)}`);
      }
    }
    // The query is not a place for the token, except on the WebSocket (browsers cannot set its headers).
    assert.equal((await rawRequest(server.url, 'GET', `/api/v1/clusters?token=${TOKEN}`)).status, 401);
    const ops = await server.api('GET', '/api/v1/operations', undefined, { authorization: `Bearer ${TOKEN}` });
    assert.deepEqual(ops.body.operations, [], 'no operation was started');
    assert.equal((await sb.calls({ mutating: true })).length, 0, 'no mutating AWS call was made');
  });

  it('keeps only liveness and the UI open, and compares the token exactly', async () => {
    assert.equal((await rawRequest(server.url, 'GET', '/healthz')).status, 200);
    const ui = await rawRequest(server.url, 'GET', '/');
    assert.equal(ui.status, 200);
    assert.match(ui.text, /<div id="root">/);
    const deepLink = await rawRequest(server.url, 'GET', '/clusters/demo');
    assert.equal(deepLink.status, 200, 'client-side routes load the UI shell');
    assert.match(deepLink.text, /<div id="root">/);
    for (const wrong of [TOKEN.slice(0, -1), `${TOKEN}x`, TOKEN.toUpperCase(), '']) {
      assert.equal(
        (await rawRequest(server.url, 'GET', '/api/v1/clusters', { headers: { authorization: `Bearer ${wrong}` } }))
          .status,
        401,
        `token '${wrong}'`,
      );
    }
    const right = await rawRequest(server.url, 'GET', '/%61pi/v1/clusters', {
      headers: { authorization: `bearer ${TOKEN}` },
    });
    assert.equal(right.status, 200, 'the right token opens every spelling');
    const unauthorized = await rawRequest(server.url, 'GET', '/api/v1/clusters');
    assert.match(String(unauthorized.headers['www-authenticate']), /Bearer/);
  });

  it('refuses WebSocket upgrades without the token under every spelling, and closes their sockets', async () => {
    for (const path of ['/api/v1/ws', '/%61pi/v1/ws', '/api/v1/w%73', '//api/v1/ws', '/API/v1/ws']) {
      const attempt = await rawUpgrade(server.url, path);
      assert.equal(attempt.status, 401, path);
      await withDeadline(attempt.closedByServer, 10_000, `the server closes the refused upgrade of ${path}`);
    }
    const ok = await rawUpgrade(server.url, `/api/v1/ws?token=${TOKEN}`);
    assert.equal(ok.status, 101, 'the token in the query opens the WebSocket');
    ok.destroy();
  });
});

describe('request guard on the default loopback server (no token)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let named: TestServer;
  before(async () => {
    sb = await startTestSandbox();
    server = await startTestServer(sb, { speed: 1 });
    named = await startTestServer(sb, { speed: 1, allowedHosts: ['ops.example.com'] });
  });
  after(() => stopAll(named, server, sb));

  it('refuses a foreign Host (DNS rebinding) on reads, mutations, MCP and the UI; liveness still answers', async () => {
    const port = new URL(server.url).port;
    const evil = { Host: `evil.example:${port}` };
    const read = await rawRequest(server.url, 'GET', '/api/v1/clusters', { headers: evil });
    assert.equal(read.status, 403);
    assert.match(read.json.detail, /DNS rebinding/);
    const create = await rawRequest(server.url, 'POST', '/api/v1/clusters', {
      headers: { ...evil, Origin: `http://evil.example:${port}` },
      body: JSON.stringify(CREATE),
    });
    assert.equal(create.status, 403, 'a rebinding page whose Origin equals its Host is still refused');
    const mcp = await rawRequest(server.url, 'POST', '/mcp', {
      headers: { ...evil, accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(mcp.status, 403);
    assert.equal(mcp.json.error.code, -32000, 'MCP clients get a JSON-RPC error');
    assert.equal((await rawRequest(server.url, 'GET', '/', { headers: evil })).status, 403);
    assert.equal((await rawRequest(server.url, 'GET', '/healthz', { headers: evil })).status, 200);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      assert.equal(
        (await rawRequest(server.url, 'GET', '/api/v1/clusters', { headers: { Host: host } })).status,
        200,
        host,
      );
    }
    assert.equal((await server.api('GET', '/api/v1/operations')).body.operations.length, 0);
    assert.equal((await sb.calls({ mutating: true })).length, 0);
  });

  it('accepts the names given with --allowed-host, and only those', async () => {
    const port = new URL(named.url).port;
    assert.equal(
      (await rawRequest(named.url, 'GET', '/api/v1/clusters', { headers: { Host: `ops.example.com:${port}` } })).status,
      200,
    );
    assert.equal(
      (await rawRequest(named.url, 'GET', '/api/v1/clusters', { headers: { Host: `OPS.example.com:${port}` } })).status,
      200,
    );
    assert.equal(
      (
        await rawRequest(named.url, 'GET', '/api/v1/clusters', {
          headers: { Host: `ops.example.com.evil.example:${port}` },
        })
      ).status,
      403,
    );
  });

  it('refuses cross-site mutations and cross-site WebSockets (the live feed carries operation inputs and logs)', async () => {
    for (const origin of ['http://evil.example', 'null', `http://localhost:1`, 'file://']) {
      const r = await server.api('POST', '/api/v1/clusters', CREATE, { origin });
      assert.equal(r.status, 403, `${origin}: ${JSON.stringify(r.body)}`);
      assert.match(r.body.detail, /Cross-site/);
      const ws = await rawUpgrade(server.url, '/api/v1/ws', { Origin: origin });
      assert.equal(ws.status, 403, `WebSocket from ${origin}`);
      await withDeadline(ws.closedByServer, 10_000, 'the server closes the refused upgrade');
    }
    assert.equal((await sb.calls({ mutating: true })).length, 0);
    const sameOrigin = await server.api('PUT', '/api/v1/active-cluster', { name: 'ghost' }, { origin: server.url });
    assert.equal(sameOrigin.status, 404, 'same-origin requests pass the guard (and the missing cluster is reported)');
    const hello = await firstMessage(
      new WebSocket(`${server.url.replace('http', 'ws')}/api/v1/ws`, { origin: server.url }),
    );
    assert.equal(hello.type, 'hello', 'the UI itself (same origin) gets the live feed');
  });

  it('closes refused upgrades, so shutdown completes with clients still connected', async () => {
    const extra = await startTestServer(sb, { speed: 1, token: TOKEN });
    const attempts = [];
    for (let i = 0; i < 20; i++) attempts.push(await rawUpgrade(extra.url, '/api/v1/ws'));
    assert.ok(attempts.every((a) => a.status === 401));
    await Promise.all(
      attempts.map((a) => withDeadline(a.closedByServer, 10_000, 'every refused upgrade is closed by the server')),
    );
    const open = new WebSocket(`${extra.url.replace('http', 'ws')}/api/v1/ws?token=${TOKEN}`);
    await firstMessage(open);
    await withDeadline(extra.close(), 20_000, 'close() completes although a WebSocket client is still connected');
  });

  it('SIGTERM ends `instantstart serve` although refused upgrades and a live client are still open', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'instantstart-sigterm-'));
    const proc = await spawnServer(sb, dataDir);
    try {
      for (let i = 0; i < 3; i++)
        assert.equal((await rawUpgrade(proc.url, '/api/v1/ws', { Origin: 'http://evil.example' })).status, 403);
      const live = new WebSocket(`${proc.url.replace('http', 'ws')}/api/v1/ws`);
      await new Promise((resolve, reject) => live.once('message', resolve).once('error', reject));
      await withDeadline(proc.stop(), 30_000, 'the server exits after SIGTERM');
      assert.equal(proc.child.exitCode, 0, 'a clean exit, not the shutdown deadline');
    } finally {
      if (proc.child.exitCode === null) await proc.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('tells the browser not to frame, sniff or run foreign scripts', async () => {
    for (const path of ['/', '/api/v1/clusters', '/api/v1/no-such-endpoint']) {
      const r = await rawRequest(server.url, 'GET', path);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', path);
      assert.equal(r.headers['x-frame-options'], 'DENY', path);
      assert.equal(r.headers['cross-origin-resource-policy'], 'same-origin', path);
      const csp = String(r.headers['content-security-policy']);
      assert.match(csp, /frame-ancestors 'none'/, path);
      // The UI's page may run its own bundle only; a JSON answer opened as a page may run nothing.
      const json = /json/.test(String(r.headers['content-type']));
      if (path !== '/') assert.ok(json, `${path}: ${r.headers['content-type']}`);
      assert.match(csp, json ? /^default-src 'none'; frame-ancestors 'none'$/ : /script-src 'self'(;|$)/, path);
    }
  });
});

describe('logs', () => {
  it('never carry the token, and stay small whatever a client sends', async () => {
    const sb = await startTestSandbox();
    const lines: string[] = [];
    const server = await startTestServer(sb, { speed: 1, token: TOKEN, logLines: lines });
    try {
      const auth = { authorization: `Bearer ${TOKEN}` };
      await firstMessage(new WebSocket(`${server.url.replace('http', 'ws')}/api/v1/ws?token=${TOKEN}`));
      await rawUpgrade(server.url, '/api/v1/ws?token=wrong-guess').then((a) => a.destroy());
      const hugeKey = 'k'.repeat(900 * 1024);
      const body = await server.api('POST', '/api/v1/clusters', `{"${hugeKey}": 1}`, auth);
      assert.equal(body.status, 400);
      assert.ok(JSON.stringify(body.body).length < 10_000, 'the answer does not echo the 900 KB key either');
      const query = await rawRequest(server.url, 'GET', `/api/v1/operations?${'q'.repeat(8 * 1024)}=1`, {
        headers: auth,
      });
      assert.equal(query.status, 400);
      await server.api('GET', '/api/v1/clusters', undefined, auth);
    } finally {
      await stopAll(server, sb);
    }
    assert.ok(
      lines.some((l) => l.includes('/api/v1/ws?token=[redacted]')),
      'the WebSocket request is logged, its token redacted',
    );
    for (const line of lines) {
      assert.ok(!line.includes(TOKEN) && !line.includes('wrong-guess'), `a token in the log: ${line.slice(0, 300)}`);
      assert.ok(line.length < 8 * 1024, `a ${line.length}-character log line: ${line.slice(0, 300)}`);
    }
  });
});

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: not within ${ms / 1000} s`)), ms);
    }),
  ]);
}

function firstMessage(ws: WebSocket): Promise<any> {
  return new Promise((resolve, reject) => {
    ws.once('message', (data) => {
      resolve(JSON.parse(String(data)));
      ws.close();
    });
    ws.once('error', reject);
  });
}
