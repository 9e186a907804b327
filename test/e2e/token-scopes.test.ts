import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { rawRequest, rawUpgrade } from '../helpers/raw-http.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnServe, startTestServer, stopAll, type TestServer } from '../helpers/server.js';
import { startServer } from '../../src/cli/serve.js';
import { call, hintsOf } from '../mcp/client-helpers.js';

const ADMIN = 'admin-token-1';
const OPERATE = 'operate-token-1';
const READ = 'read-token-1';
const SAMPLE: Record<string, string> = {
  name: 'demo',
  group: 'workers',
  id: 'op-1',
  phase: 'hyperpod',
  nodeId: 'i-0123456789abcdef0',
};

interface Route {
  method: string;
  /** As the OpenAPI document writes it (`/api/v1/clusters/{name}`): what a refusal names. */
  template: string;
  path: string;
  /** The scope the document says the route needs. */
  scope: string;
  /** Takes Idempotency-Key: a mutation (every route that is not a GET or a POST that changes nothing). */
  mutating: boolean;
}

/** Every REST route, from the server's own OpenAPI document (its route table), with sample path parameters. */
async function everyRoute(server: TestServer): Promise<Route[]> {
  const doc = await server.api('GET', '/api/openapi.json', undefined, bearer(READ));
  assert.equal(doc.status, 200);
  const out: Route[] = [];
  for (const [template, ops] of Object.entries<Record<string, any>>(doc.body.paths)) {
    const path = template.replace(/\{(\w+)\}/g, (_, p: string) => SAMPLE[p] ?? 'x');
    for (const [method, op] of Object.entries(ops)) {
      const scopes = op.security?.[0]?.bearer;
      assert.ok(Array.isArray(scopes) && scopes.length === 1, `${method} ${template} declares its scope`);
      const mutating = (op.parameters ?? []).some((p: any) => p.name === 'Idempotency-Key');
      out.push({ method: method.toUpperCase(), template, path, scope: scopes[0], mutating });
    }
  }
  return out;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A request of `route` with `token`: DELETEs confirmed, other mutations with an empty body (the guard reads neither). */
function send(server: TestServer, route: Route, token: string) {
  const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}';
  const path = route.method === 'DELETE' ? `${route.path}?confirm=true` : route.path;
  return rawRequest(server.url, route.method, path, {
    headers: { ...bearer(token), ...(body ? { 'content-type': 'application/json' } : {}) },
    body,
  });
}

describe('token scopes: read < operate < admin, enforced on every REST route and through MCP', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let routes: Route[];
  before(async () => {
    sb = await startTestSandbox();
    server = await startTestServer(sb, { speed: 1, token: ADMIN, operateTokens: [OPERATE], readTokens: [READ] });
    routes = await everyRoute(server);
  });
  after(() => stopAll(server, sb));

  it('declares each route’s scope from its method and its option: GETs read, DELETEs and node actions admin', () => {
    assert.ok(routes.length >= 30, `the OpenAPI document lists the routes (${routes.length})`);
    for (const r of routes) {
      const at = `${r.method} ${r.template}`;
      if (r.method === 'GET') assert.equal(r.scope, 'read', at);
      if (r.method === 'DELETE') assert.equal(r.scope, 'admin', at);
      if (r.mutating) assert.notEqual(r.scope, 'read', `${at} changes something`);
      else assert.equal(r.scope, 'read', `${at} changes nothing`);
    }
    for (const action of ['reboot', 'replace', 'delete']) {
      const route = routes.find((r) => r.template === `/api/v1/clusters/{name}/nodes/${action}`);
      assert.equal(route?.scope, 'admin', `node ${action} is destructive`);
    }
    const operate = routes.filter((r) => r.scope === 'operate');
    assert.ok(operate.length >= 10, `most mutations are operate (${operate.length})`);
  });

  it('refuses every mutating route to a read token with 403 naming both scopes, and nothing changes', async () => {
    const mutating = routes.filter((r) => r.mutating);
    assert.ok(mutating.length >= 25, `mutating routes: ${mutating.length}`);
    for (const r of mutating) {
      const answer = await send(server, r, READ);
      assert.equal(answer.status, 403, `${r.method} ${r.path} with a read token → ${answer.status} ${answer.text}`);
      assert.match(String(answer.headers['content-type']), /application\/problem\+json/);
      assert.equal(
        answer.json.detail,
        `This token may only read (scope read); ${r.method} ${r.template} needs ${r.scope}.`,
      );
      assert.equal(answer.json.code, 'InsufficientScope');
      assert.match(answer.json.remedy, new RegExp(`token of scope ${r.scope}`));
    }
    const ops = await server.api('GET', '/api/v1/operations', undefined, bearer(READ));
    assert.deepEqual(ops.body.operations, [], 'no operation was started');
    assert.equal((await sb.calls({ mutating: true })).length, 0, 'no mutating AWS call was made');
  });

  it('lets a read token through every GET and every POST that changes nothing', async () => {
    for (const r of routes.filter((x) => x.scope === 'read')) {
      const answer = await send(server, r, READ);
      assert.ok(![401, 403].includes(answer.status), `${r.method} ${r.path} → ${answer.status} ${answer.text}`);
    }
  });

  it('lets an operate token reach every non-destructive mutation, and refuses it the destructive ones', async () => {
    for (const r of routes.filter((x) => x.mutating)) {
      const answer = await send(server, r, OPERATE);
      if (r.scope === 'admin') {
        assert.equal(answer.status, 403, `${r.method} ${r.path} → ${answer.status}`);
        assert.equal(
          answer.json.detail,
          `This token may read and make changes, but not destroy or replace (scope operate); ${r.method} ${r.template} needs admin.`,
        );
      } else {
        // The handler answers (an empty body is a 400, a missing cluster a 404): the guard let it through.
        assert.ok(![401, 403].includes(answer.status), `${r.method} ${r.path} → ${answer.status} ${answer.text}`);
      }
    }
  });

  it('lets the admin token (--token) reach every route', async () => {
    for (const r of routes) {
      const answer = await send(server, r, ADMIN);
      assert.ok(![401, 403].includes(answer.status), `${r.method} ${r.path} → ${answer.status} ${answer.text}`);
    }
  });

  it('answers 401 (not 403) to no token or a wrong one, and opens the live WebSocket to a read token', async () => {
    const create = routes.find((r) => r.method === 'POST' && r.template === '/api/v1/clusters')!;
    for (const wrong of ['', `${READ}x`, READ.toUpperCase()]) {
      assert.equal((await send(server, create, wrong)).status, 401, `token '${wrong}'`);
    }
    assert.equal((await rawRequest(server.url, 'GET', '/api/v1/clusters')).status, 401);
    const ws = await rawUpgrade(server.url, `/api/v1/ws?token=${READ}`);
    assert.equal(ws.status, 101, 'a read token opens the live WebSocket');
    ws.destroy();
    const header = await rawUpgrade(server.url, '/api/v1/ws', bearer(READ));
    assert.equal(header.status, 101, 'in the Authorization header too');
    header.destroy();
    // The log follows are WebSocket GETs too: a read token passes the guard (and learns the job is missing).
    for (const path of [
      '/api/v1/clusters/demo/jobs/default/job-1/logs/follow',
      '/api/v1/clusters/demo/endpoints/default/endpoint-1/logs/follow',
    ]) {
      const follow = await rawUpgrade(server.url, `${path}?token=${READ}`);
      assert.ok(![401, 403].includes(follow.status), `${path} → ${follow.status}`);
      follow.destroy();
      const bare = await rawUpgrade(server.url, path);
      assert.equal(bare.status, 401, `${path} without a token`);
      bare.destroy();
    }
  });

  describe('MCP with a read token', () => {
    let http: Client;
    let stdio: Client;
    let tools: Tool[];
    before(async () => {
      http = new Client({ name: 'scopes-http', version: '1.0.0' });
      await http.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: bearer(READ) } }),
      );
      tools = (await http.listTools()).tools;
      stdio = new Client({ name: 'scopes-stdio', version: '1.0.0' });
      await stdio.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: ['bin/instantstart.mjs', 'mcp', '--url', server.url, '--token', READ],
          stderr: 'ignore',
        }),
      );
    });
    after(() => stopAll(http, stdio));

    it('answers a read tool, and refuses every mutating tool with the scope error (streamable HTTP)', async () => {
      const listed = await call(http, 'list_clusters', {});
      assert.ok(!listed.isError, listed.text);
      const operationIds = async () =>
        (await server.api('GET', '/api/v1/operations', undefined, bearer(READ))).body.operations.map((o: any) => o.id);
      const operationsBefore = await operationIds();
      const mutatingCallsBefore = (await sb.calls({ mutating: true })).length;
      const mutating = tools.filter((t) => !hintsOf(t).readOnlyHint);
      assert.ok(mutating.length >= 20, `mutating tools: ${mutating.length}`);
      // Arguments are built from each tool's input schema (and BY_NAME where a field checks more than its JSON Schema
      // says), so that the SDK's validation, which runs before the tool and so before any REST call, lets them through
      // and the refusal seen is the server's. The guard runs before REST validates anything, so they need only look valid.
      const unsent: string[] = [];
      for (const tool of mutating) {
        const r = await call(http, tool.name, sampleObject(tool.inputSchema as JsonSchema));
        if (/Input validation error/.test(r.text))
          unsent.push(`${tool.name}: ${r.text.split('\n').slice(1, -1).join(' ')}`);
      }
      // The listed schemas leave out string patterns (src/mcp/listed-schema.ts): such fields get a plausible value here.
      assert.deepEqual(unsent, [], 'extend BY_NAME so these sample arguments pass');
      for (const tool of mutating) {
        const args = sampleObject(tool.inputSchema as JsonSchema);
        const r = await call(http, tool.name, args);
        assert.ok(r.isError, `${tool.name} with a read token must fail: ${r.text}`);
        assert.match(
          r.text,
          /HTTP 403 Forbidden — This token may only read \(scope read\); [A-Z]+ \/api\/v1\/\S+ needs (operate|admin)\./,
          tool.name,
        );
        assert.match(r.text, /To fix: Nothing was changed\. Ask a person to make this change/, tool.name);
      }
      assert.deepEqual(await operationIds(), operationsBefore, 'no operation was started');
      assert.equal((await sb.calls({ mutating: true })).length, mutatingCallsBefore, 'no mutating AWS call was made');
    });

    it('answers the same over stdio (instantstart mcp --token)', async () => {
      const listed = await call(stdio, 'list_clusters', {});
      assert.ok(!listed.isError, listed.text);
      const create = tools.find((t) => t.name === 'create_cluster')!;
      const r = await call(stdio, 'create_cluster', sampleObject(create.inputSchema as JsonSchema));
      assert.ok(r.isError);
      assert.match(r.text, /This token may only read \(scope read\); POST \/api\/v1\/clusters needs operate\./);
    });
  });
});

describe('instantstart serve: --read-token and --operate-token', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(() => stopAll(sb));

  it('takes repeated and comma-separated tokens, from flags or the environment, and never prints them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'instantstart-scopes-'));
    const { INSTANTSTART_API_TOKEN: _admin, ...env } = process.env;
    const proc = await spawnServe(
      ['--data-dir', dataDir, '--sandbox-url', sb.url, '--region', sb.env.AWS_REGION!, '--read-token', 'r-one,r-two'],
      { ...env, INSTANTSTART_LOG_LEVEL: 'info', INSTANTSTART_OPERATE_TOKEN: 'o-one, o-two' },
      dataDir,
    );
    try {
      const create = (token?: string) => proc.api('POST', '/api/v1/clusters', {}, token ? bearer(token) : {});
      assert.equal((await proc.api('GET', '/api/v1/clusters', undefined, bearer('r-two'))).status, 200);
      const refused = await create('r-one');
      assert.equal(refused.status, 403);
      assert.equal(refused.body.detail, 'This token may only read (scope read); POST /api/v1/clusters needs operate.');
      assert.equal((await create('o-two')).status, 400, 'an operate token reaches validation');
      assert.equal((await create()).status, 401, 'with tokens configured, none is 401');
      for (const token of ['r-one', 'r-two', 'o-one', 'o-two']) assert.ok(!proc.output().includes(token), token);
    } finally {
      await proc.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses one token given for two scopes at start, without saying it', async () => {
    await assert.rejects(
      startServer({
        cloud: 'sandbox',
        host: '127.0.0.1',
        port: 0,
        dataDir: join(tmpdir(), 'never-made'),
        region: 'us-west-2',
        token: 'twice-given',
        readTokens: ['twice-given'],
      }),
      (err: Error) => /given for scope admin and scope read/.test(err.message) && !err.message.includes('twice-given'),
    );
  });
});

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  minLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  default?: unknown;
}

/** Strings a name, id or zone field accepts, tried in turn against a pattern. */
const STRING_CANDIDATES = ['demo', 'i-0123456789abcdef0', 'op-1', 'us-west-2a', 'ml.g5.8xlarge', 'a', '1', 'demo-1'];

/** Fields whose tool schema checks more than its JSON Schema tells (a refinement): a value that passes. */
const BY_NAME: Record<string, unknown> = {
  availabilityZone: 'us-west-2b',
  instanceType: 'ml.c5.xlarge',
  instanceTypes: ['ml.c5.xlarge'],
  nodeIds: ['i-0123456789abcdef0'],
  modelId: 'Qwen/Qwen2.5-0.5B-Instruct',
  artifactStoreUri: 's3://demo-bucket/mlflow',
  changes: { 'metrics-server': true },
  // A nested field: the listed schema names its type only (its format is the server's to check).
  prometheusUrl: 'http://prometheus.example:9090',
};

/** The smallest object a JSON Schema accepts: its required properties, each a plausible value. */
function sampleObject(schema: JsonSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of schema.required ?? []) {
    const value = Object.hasOwn(BY_NAME, key) ? BY_NAME[key] : sample(schema.properties?.[key] ?? {});
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function sample(schema: JsonSchema): unknown {
  if (schema.format === 'uri') return 'http://prometheus.example:9090';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice) return sample(choice.find((s) => s.type !== 'null') ?? choice[0]!);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return sampleObject(schema);
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items ?? {}));
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'string': {
      const pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : undefined;
      const fits = (s: string) => (!pattern || pattern.test(s)) && s.length >= (schema.minLength ?? 0);
      return STRING_CANDIDATES.find(fits) ?? 'x'.repeat(schema.minLength ?? 1);
    }
    default:
      return 'demo';
  }
}
