import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { rawRequest, type RawAnswer } from '../helpers/raw-http.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startTestServer, stopAll, type TestServer } from '../helpers/server.js';

/**
 * Malformed input of every kind, sent to every operation of the OpenAPI document (so a new route is
 * fuzzed the day it is added): wrong types, huge strings, deep nesting, prototype keys as names and
 * keys, NUL, bad content types, oversize and broken bodies, bad path and query parameters,
 * percent-encoded paths. Each answer must be a 4xx problem+json (never a 5xx, never a mutation
 * accepted); without the token every one must be refused; and the cloud must be left untouched.
 */

const TOKEN = 'fuzz-token';
const SEED = 20261204;
const SAMPLE: Record<string, string> = {
  name: 'demo',
  cluster: 'demo',
  group: 'workers',
  id: 'op-1',
  phase: 'hyperpod',
  nodeId: 'i-0123456789abcdef0',
};
/** Read-only POSTs: they may answer 200 to input that happens to be valid. */
const READ_ONLY_POSTS = new Set(['/api/v1/preflight/quotas', '/api/v1/preflight/clusters']);
/** A valid body per mutation, so that one bad field is what the server has to find. */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'POST /api/v1/clusters': {
    name: 'fuzzed',
    availabilityZone: 'us-west-2a',
    instanceType: 'ml.g5.8xlarge',
    instanceCount: 1,
  },
  'POST /api/v1/preflight/clusters': {
    name: 'fuzzed',
    availabilityZone: 'us-west-2a',
    instanceType: 'ml.g5.8xlarge',
    instanceCount: 1,
  },
  'POST /api/v1/preflight/quotas': { instanceType: 'ml.g5.8xlarge', instanceCount: 1 },
  'POST /api/v1/clusters/{name}/instance-groups': {
    name: 'extra',
    availabilityZone: 'us-west-2a',
    instanceType: 'ml.g5.8xlarge',
    instanceCount: 1,
  },
  'PATCH /api/v1/clusters/{name}/instance-groups/{group}': { instanceCount: 2 },
  'PUT /api/v1/clusters/{name}/autoscaling': { enabled: true, instanceGroups: ['workers'] },
  'PUT /api/v1/active-cluster': { name: 'demo' },
  'POST /api/v1/clusters/{name}/nodes/reboot': { nodeIds: ['i-0123456789abcdef0'] },
  'POST /api/v1/clusters/{name}/nodes/replace': { nodeIds: ['i-0123456789abcdef0'], confirm: true },
  'POST /api/v1/clusters/{name}/nodes/delete': { nodeIds: ['i-0123456789abcdef0'], confirm: true },
  'POST /api/v1/clusters/{name}/nodes/deep-health-check': { instanceGroupName: 'workers' },
};

const PROTOTYPE_NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'prototype',
  'isPrototypeOf',
  '__defineGetter__',
];
const NASTY_SEGMENTS = [
  ...PROTOTYPE_NAMES,
  '%00',
  'a%00b',
  '..',
  '%2e%2e',
  '%2F',
  'a%2Fb',
  '%5C',
  'x'.repeat(90),
  'x'.repeat(300),
  '%F0%9F%98%80',
  '%E0%A4%A',
  '%ZZ',
  '%',
  '%20',
  'null',
  'undefined',
  '-1',
  '0',
  "'%3B%20DROP%20TABLE%20operations%3B--",
  '%3Cscript%3E',
  'A'.repeat(64),
  'i-0',
  'op-%00',
];
const NASTY_QUERY_VALUES = [
  '',
  'x'.repeat(4000),
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  '0x10',
  'true',
  'false',
  'null',
  '%00',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  '%E0%A4%A',
  '%F0%9F%98%80',
  'a,b',
  '1.5',
];
const UNDECLARED_QUERIES = [
  '__proto__=1',
  'constructor=1',
  'constructor[prototype][admin]=1',
  '__proto__[admin]=1',
  'toString=1',
  'a[b]=c',
  'token=x',
  '%00=1',
  '=1',
  'x&&&y',
];
const WRONG_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  '',
  ' ',
  'x'.repeat(70_000),
  '\u0000',
  'a\u0000b',
  '__proto__',
  [],
  [1, 'a', null],
  {},
  { __proto__: { admin: true } },
  { constructor: { prototype: { admin: true } } },
  [[[[[]]]]],
  '😀'.repeat(100),
];

interface Operation {
  method: string;
  template: string;
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
}

interface FuzzCase {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  op: Operation;
  what: string;
}

function fill(template: string, overrides: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, p: string) => overrides[p] ?? SAMPLE[p] ?? 'x');
}

function deep(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Every malformed request this test sends, from the OpenAPI document's operations. */
function cases(operations: Operation[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  const randomStrings = fc.sample(fc.string({ unit: 'binary', maxLength: 40 }), { seed: SEED, numRuns: 25 });
  const randomJson = fc.sample(fc.jsonValue({ maxDepth: 4 }), { seed: SEED, numRuns: 25 });
  for (const op of operations) {
    const key = `${op.method} ${op.template}`;
    const valid = VALID_BODIES[key] ?? {};
    const baseBody = op.hasBody ? JSON.stringify(valid) : undefined;
    const add = (c: Omit<FuzzCase, 'op' | 'method'> & { method?: string }) => out.push({ method: op.method, op, ...c });

    for (const param of op.pathParams) {
      for (const value of [...NASTY_SEGMENTS, ...randomStrings.map(encodeURIComponent)]) {
        add({
          path: fill(op.template, { [param]: value }),
          body: baseBody,
          what: `${key} with ${param}=${value.slice(0, 40)}`,
        });
      }
    }
    for (const param of op.queryParams) {
      // `confirm=true` is the one value that makes a delete valid: every other one must be refused.
      for (const value of NASTY_QUERY_VALUES.filter((v) => !(param === 'confirm' && v === 'true')))
        add({
          path: `${fill(op.template)}?${param}=${encodeURIComponent(value)}`,
          body: baseBody,
          what: `${key} ?${param}=${value.slice(0, 40)}`,
        });
      add({ path: `${fill(op.template)}?${param}=a&${param}=b`, body: baseBody, what: `${key} ?${param} twice` });
      add({ path: `${fill(op.template)}?${param}[]=1`, body: baseBody, what: `${key} ?${param}[]` });
    }
    for (const query of UNDECLARED_QUERIES)
      add({ path: `${fill(op.template)}?${query}`, body: baseBody, what: `${key} ?${query}` });

    if (op.hasBody) {
      const path = fill(op.template);
      const bodies: Array<[string, string]> = [
        ['invalid JSON', '{"name": '],
        ['a JSON array', '[]'],
        ['a JSON string', '"x"'],
        ['a JSON number', '1'],
        ['JSON null', 'null'],
        ['deep nesting', deep(5000)],
        ['a __proto__ key', '{"__proto__": {"admin": true}}'],
        ['a constructor.prototype key', '{"constructor": {"prototype": {"admin": true}}}'],
        ['a NUL key', '{"\\u0000": 1}'],
        ['a huge key', `{"${'k'.repeat(200_000)}": 1}`],
        ['an oversize body', JSON.stringify({ ...valid, padding: 'x'.repeat(1_100_000) })],
        ['a lone surrogate', '{"name": "\\ud800"}'],
        ...randomJson.map((v, i): [string, string] => [`random JSON #${i}`, JSON.stringify(v)]),
      ];
      for (const [what, body] of bodies) add({ path, body, what: `${key} with ${what}` });
      for (const field of Object.keys(valid)) {
        for (const value of WRONG_VALUES)
          add({
            path,
            body: JSON.stringify({ ...valid, [field]: value }),
            what: `${key} with ${field}=${JSON.stringify(value).slice(0, 40)}`,
          });
      }
      for (const value of WRONG_VALUES.slice(0, 6))
        add({ path, body: JSON.stringify({ ...valid, unexpected: value }), what: `${key} with an unknown field` });
      for (const contentType of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'multipart/form-data; boundary=x',
        'application/jsonx',
        '',
      ]) {
        add({
          path,
          body: JSON.stringify(valid),
          headers: { 'content-type': contentType },
          what: `${key} as ${contentType || 'no content type'}`,
        });
      }
    }
  }
  return out;
}

function isProblem(r: RawAnswer): boolean {
  return (
    /^application\/problem\+json/.test(String(r.headers['content-type'] ?? '')) &&
    typeof r.json?.detail === 'string' &&
    r.json?.status === r.status
  );
}

/** A refusal by the router before any route (bad percent-encoding, an over-long parameter): no route, no guard to bypass. */
function refusedByRouter(r: RawAnswer): boolean {
  return (r.status === 400 || r.status === 414) && isProblem(r) && r.json.errors?.[0]?.path === '(path)';
}

describe('fuzz: malformed input to every OpenAPI operation', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let operations: Operation[];
  let all: FuzzCase[];
  before(async () => {
    sb = await startTestSandbox();
    server = await startTestServer(sb, { speed: 1, token: TOKEN });
    const doc = await server.api('GET', '/api/openapi.json', undefined, { authorization: `Bearer ${TOKEN}` });
    operations = [];
    for (const [template, ops] of Object.entries<Record<string, any>>(doc.body.paths)) {
      for (const [method, spec] of Object.entries<any>(ops)) {
        const params: Array<{ name: string; in: string }> = spec.parameters ?? [];
        operations.push({
          method: method.toUpperCase(),
          template,
          pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
          queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
          hasBody: Boolean(spec.requestBody),
        });
      }
    }
    all = cases(operations);
  });
  after(() => stopAll(server, sb));

  it('answers every malformed request with a 4xx problem+json, and accepts no mutation', async () => {
    assert.ok(operations.length >= 30 && all.length > 3000, `${operations.length} operations, ${all.length} cases`);
    const failures: string[] = [];
    for (const c of all) {
      const headers = {
        authorization: `Bearer ${TOKEN}`,
        ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...c.headers,
      };
      const r = await rawRequest(server.url, c.method, c.path, { headers, body: c.body });
      const mutation = c.method !== 'GET' && !READ_ONLY_POSTS.has(c.op.template);
      if (r.status >= 500) failures.push(`${r.status} for ${c.what}: ${r.text.slice(0, 200)}`);
      else if (r.status >= 300 && !isProblem(r))
        failures.push(`${r.status} without problem+json for ${c.what}: ${r.text.slice(0, 200)}`);
      else if (r.status < 300 && mutation) failures.push(`${r.status}: a mutation was accepted for ${c.what}`);
      if (failures.length >= 20) break;
    }
    assert.deepEqual(failures, []);
  });

  it('refuses every one of them without the token, whatever the path spelling', async () => {
    const failures: string[] = [];
    const spelled = all.map((c) => ({ ...c, path: c.path.replace('/api/', '/%61pi/') }));
    for (const c of [...all, ...spelled]) {
      const headers = { ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}), ...c.headers };
      const r = await rawRequest(server.url, c.method, c.path, { headers, body: c.body });
      if (r.status !== 401 && !refusedByRouter(r))
        failures.push(`${r.status} without a token for ${c.what} (${c.path.slice(0, 80)})`);
      if (failures.length >= 20) break;
    }
    assert.deepEqual(failures, []);
  });

  it('sends MCP malformed JSON-RPC and gets JSON-RPC errors, never a 5xx', async () => {
    const messages = [
      '{',
      '[]',
      '[{}]',
      'null',
      '1',
      '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":{},"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_cluster","arguments":{"cluster":"__proto__"}}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"__proto__","arguments":{}}}',
      '{"jsonrpc":"2.0","id":1,"method":"__proto__"}',
      deep(5000),
      ...fc
        .sample(fc.jsonValue({ maxDepth: 3 }), { seed: SEED, numRuns: 30 })
        .map((v) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: v })),
    ];
    const failures: string[] = [];
    for (const body of messages) {
      const r = await rawRequest(server.url, 'POST', '/mcp', {
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body,
      });
      if (r.status >= 500) failures.push(`${r.status} for ${body.slice(0, 80)}: ${r.text.slice(0, 200)}`);
      const error = /"error":\{"code":(-?\d+)/.exec(r.text);
      if (error && Number(error[1]) === -32603)
        failures.push(`internal error (-32603) for ${body.slice(0, 80)}: ${r.text.slice(0, 200)}`);
    }
    assert.deepEqual(failures, []);
  });

  it('left the cloud and the journal untouched', async () => {
    const mutations = await sb.calls({ mutating: true });
    assert.deepEqual(
      mutations.map((c) => `${c.service} ${c.operation}`),
      [],
      'no mutating AWS call was made',
    );
    const inventory = await sb.inventory();
    const made = Object.entries(inventory).flatMap(([service, types]) =>
      Object.entries(types)
        .filter(([, items]) => items.length > 0)
        .map(([type, items]) => `${service}/${type}: ${items.length}`),
    );
    assert.deepEqual(made, [], 'the sandbox holds no resource');
    const ops = await server.api('GET', '/api/v1/operations', undefined, { authorization: `Bearer ${TOKEN}` });
    assert.deepEqual(ops.body.operations, [], 'no operation was started');
  });
});
