import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rawExchange } from '../helpers/raw-http.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const good = { name: 'fine', availabilityZone: 'us-west-2a', instanceType: 'ml.g5.8xlarge', instanceCount: 1 };

/** [method, path, body, the field the problem must name] */
const CASES: Array<[string, string, unknown, string]> = [
  ['POST', '/api/v1/clusters', {}, 'name'],
  ['POST', '/api/v1/clusters', { ...good, name: 'Bad_Name' }, 'name'],
  ['POST', '/api/v1/clusters', { ...good, name: 'x'.repeat(40) }, 'name'],
  ['POST', '/api/v1/clusters', { ...good, instanceCount: 0 }, 'instanceCount'],
  ['POST', '/api/v1/clusters', { ...good, instanceCount: 'four' }, 'instanceCount'],
  ['POST', '/api/v1/clusters', { ...good, instanceType: 'p5.48xlarge' }, 'instanceType'],
  ['POST', '/api/v1/clusters', { ...good, availabilityZone: 'mars-1a' }, 'availabilityZone'],
  ['POST', '/api/v1/clusters', { ...good, region: 'us-east-1' }, 'availabilityZone'],
  ['POST', '/api/v1/clusters', { ...good, capacityType: 'training-plan' }, 'trainingPlanArn'],
  ['POST', '/api/v1/clusters', { ...good, capacityType: 'reserved' }, 'capacityType'],
  ['POST', '/api/v1/clusters', { ...good, subnetCidr: '10.0.0.0/16' }, 'subnetCidr'],
  [
    'POST',
    '/api/v1/clusters',
    { ...good, storage: { fsxLustre: { storageCapacityGiB: 3600 } } },
    'storage.fsxLustre.storageCapacityGiB',
  ],
  ['POST', '/api/v1/clusters', { ...good, storage: { fsxlustre: {} } }, 'storage.fsxlustre'],
  ['POST', '/api/v1/clusters', '{"name": ', '(body)'],
  ['DELETE', '/api/v1/clusters/fine', undefined, 'confirm'],
  ['DELETE', '/api/v1/clusters/fine?confirm=yes', undefined, 'confirm'],
  ['DELETE', '/api/v1/clusters/bad_name!?confirm=true', undefined, 'name'],
  ['PUT', '/api/v1/active-cluster', { name: '' }, 'name'],
  ['PUT', '/api/v1/active-cluster', { name: 'ghost' }, ''],
  ['GET', '/api/v1/instance-types?availabilityZone=nowhere', undefined, 'availabilityZone'],
  ['GET', '/api/v1/instance-types?family=ml.p5', undefined, 'family'],
  ['GET', '/api/v1/instance-types?accelerators=yes', undefined, 'accelerators'],
  ['GET', '/api/v1/availability-zones?region=Oregon', undefined, 'region'],
  ['GET', '/api/v1/clusters?region=1', undefined, 'region'],
  ['POST', '/api/v1/preflight/quotas', { instanceType: 'ml.g5.8xlarge', instanceCount: -1 }, 'instanceCount'],
  ['POST', '/api/v1/preflight/clusters', { ...good, deepHealthChecks: 'yes' }, 'deepHealthChecks'],
  ['GET', '/api/v1/operations?limit=0', undefined, 'limit'],
  ['GET', '/api/v1/operations?status=done', undefined, 'status'],
  ['GET', '/api/v1/operations/nope', undefined, ''],
  ['GET', '/api/v1/operations/nope/wait?timeoutSeconds=999', undefined, 'timeoutSeconds'],
  ['GET', '/api/v1/operations/nope/events?after=-1', undefined, 'after'],
  ['POST', '/api/v1/operations/nope/phases/eks/retry', undefined, ''],
  ['POST', '/api/v1/operations/nope/phases/Bad Phase/retry', undefined, 'phase'],
  ['POST', '/api/v1/operations/nope/cancel', undefined, ''],
  // Query parameters no route declares are refused by name, not ignored.
  ['GET', '/api/v1/config?foo=1', undefined, 'foo'],
  ['GET', '/api/v1/clusters/demo?verbose=true', undefined, 'verbose'],
  ['POST', '/api/v1/operations/nope/cancel?force=1', undefined, 'force'],
  // What the router itself refuses is problem+json too.
  ['GET', '/api/v1/clusters/%E0%A4%A', undefined, '(path)'],
  ['GET', `/api/v1/clusters/${'a'.repeat(2000)}`, undefined, '(path)'],
  // Keys that would reach an object's prototype are refused outright.
  ['POST', '/api/v1/clusters', `{"__proto__": {"admin": true}, "name": "fine"}`, '(body)'],
  ['POST', '/api/v1/clusters', `{"constructor": {"prototype": {"admin": true}}}`, '(body)'],
];

describe('bad input on every endpoint: 4xx problem+json naming the field, no state change', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
  });
  after(() => stopAll(server, sb));

  it('refuses each case clearly and changes nothing in the cloud', async () => {
    const before = JSON.stringify(await sb.inventory());
    const mutationsBefore = (await sb.calls({ mutating: true })).length;
    for (const [method, path, body, field] of CASES) {
      const r = await server.api(method, path, body);
      const what = `${method} ${path} ${typeof body === 'string' ? body : JSON.stringify(body)} → ${r.status} ${JSON.stringify(r.body)}`;
      assert.ok(r.status >= 400 && r.status < 500, what);
      assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/, what);
      assert.equal(typeof r.body.detail, 'string', what);
      assert.equal(r.body.status, r.status, what);
      if (field)
        assert.ok(
          r.body.errors?.some((e: any) => e.path === field),
          `names ${field}: ${what}`,
        );
    }
    assert.equal(JSON.stringify(await sb.inventory()), before, 'the sandbox inventory did not change');
    assert.equal((await sb.calls({ mutating: true })).length, mutationsBefore, 'no mutating AWS call was made');
    const ops = await server.api('GET', '/api/v1/operations');
    assert.deepEqual(ops.body.operations, [], 'no operation was started');
  });

  it('refuses bodies that are not UTF-8 JSON with 415, and MCP errors in JSON-RPC', async () => {
    const utf16 = await fetch(`${server.url}/api/v1/clusters`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-16' },
      body: Buffer.from(JSON.stringify(good), 'utf16le'),
    });
    assert.equal(utf16.status, 415);
    assert.match(utf16.headers.get('content-type') ?? '', /problem\+json/);
    assert.match(((await utf16.json()) as any).detail, /UTF-8/);
    const text = await server.api('POST', '/api/v1/clusters', 'name=fine', { 'content-type': 'text/plain' });
    assert.equal(text.status, 415);
    assert.match(text.headers.get('content-type') ?? '', /problem\+json/);

    const mcp = (body: string) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });
    const notJson = await mcp('{"jsonrpc": "2.0", "id": 1, "method": ');
    assert.equal(notJson.status, 400);
    assert.equal(((await notJson.json()) as any).error.code, -32700, 'invalid JSON is a JSON-RPC Parse error');
    const badParams = await mcp(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 42 } }));
    const answer = (await badParams.json()) as any;
    assert.equal(answer.error.code, -32602, JSON.stringify(answer));
    assert.equal(answer.id, 3);
    assert.match(answer.error.message, /params\.name/);
    assert.equal((await sb.calls({ mutating: true })).length, 0);
  });

  it('answers bytes that are no HTTP request (a Content-Length that lies) as problem+json saying why, and changes nothing', async () => {
    const before = (await sb.calls()).length;
    const host = new URL(server.url).host;
    const head = (length: string) =>
      `POST /api/v1/clusters HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    const body = JSON.stringify(good);
    const cases: Array<[string, string, boolean, RegExp]> = [
      [
        'longer than the body, then the client closes',
        head(String(body.length + 100)) + body,
        true,
        /ended before the body its Content-Length announced/,
      ],
      ['shorter than the body', head('5') + body, false, /bytes after its body do not start a request/],
      ['not a number', head('lots') + body, false, /Content-Length is not a length/],
      [
        'given twice',
        `${head(String(body.length)).replace('\r\n\r\n', `\r\nContent-Length: ${body.length + 1}\r\n\r\n`)}${body}`,
        false,
        /gives its length twice/,
      ],
    ];
    for (const [what, bytes, end, why] of cases) {
      const answer = await rawExchange(server.url, bytes, { end });
      assert.equal(answer.status, 400, `${what}: ${answer.raw}`);
      assert.match(String(answer.headers['content-type']), /^application\/problem\+json/, `${what}: ${answer.raw}`);
      assert.equal(answer.json?.status, 400, what);
      assert.equal(answer.json?.title, 'Bad Request', what);
      assert.match(answer.json?.detail ?? '', why, what);
    }
    assert.equal((await sb.calls()).length, before, 'nothing reached the cloud');
  });

  it('explains a quota shortfall before anything is created', async () => {
    const r = await server.api('POST', '/api/v1/clusters', {
      ...good,
      name: 'big',
      instanceType: 'ml.p5.48xlarge',
      availabilityZone: 'us-west-2b',
      instanceCount: 4,
    });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    const problem = r.body.errors.find((e: any) => e.path === 'instanceCount' || e.path === 'instanceType');
    assert.ok(problem, JSON.stringify(r.body));
    assert.match(r.body.detail, /ml\.p5\.48xlarge for cluster usage/);
    assert.match(JSON.stringify(r.body), /service-quotas|Service Quotas/);
    assert.equal((await sb.calls({ mutating: true })).length, 0);
  });
});
