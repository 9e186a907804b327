import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startTestServer, stopAll, type TestServer } from '../helpers/server.js';

describe('request guards: API token and cross-site mutations', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    sb = await startTestSandbox();
    server = await startTestServer(sb, { speed: 1, token: 'sekret-token' });
  });
  after(() => stopAll(server, sb));

  it('with a token configured, the API needs it; liveness and the UI do not', async () => {
    const without = await server.api('GET', '/api/v1/clusters');
    assert.equal(without.status, 401);
    assert.match(without.headers.get('content-type') ?? '', /problem\+json/);
    const wrong = await server.api('GET', '/api/v1/clusters', undefined, { authorization: 'Bearer nope' });
    assert.equal(wrong.status, 401);
    const right = await server.api('GET', '/api/v1/clusters', undefined, { authorization: 'Bearer sekret-token' });
    assert.equal(right.status, 200, JSON.stringify(right.body));
    assert.equal((await server.api('GET', '/healthz')).status, 200);
    assert.equal((await server.api('GET', '/')).status, 200);
    const mcp = await server.api('POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'application/json, text/event-stream' });
    assert.equal(mcp.status, 401, 'MCP needs the token too');
  });

  it('refuses a mutation from another origin (CSRF) without changing anything', async () => {
    const auth = { authorization: 'Bearer sekret-token' };
    const body = { name: 'csrf', availabilityZone: 'us-west-2a', instanceType: 'ml.g5.8xlarge', instanceCount: 1 };
    for (const origin of ['https://evil.example', 'null']) {
      const r = await server.api('POST', '/api/v1/clusters', body, { ...auth, origin });
      assert.equal(r.status, 403, `${origin}: ${JSON.stringify(r.body)}`);
      assert.match(r.body.detail, /Cross-site/);
    }
    const ops = await server.api('GET', '/api/v1/operations', undefined, auth);
    assert.deepEqual(ops.body.operations, []);
    assert.equal((await sb.calls({ mutating: true })).length, 0);
    const sameOrigin = await server.api('PUT', '/api/v1/active-cluster', { name: 'ghost' }, { ...auth, origin: server.url });
    assert.equal(sameOrigin.status, 404, 'same-origin requests pass the guard (and the missing cluster is reported)');
  });
});
