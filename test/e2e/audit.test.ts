import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call } from '../mcp/client-helpers.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startTestServer, stopAll, type TestServer } from '../helpers/server.js';

const SPEED = 600;
const ADMIN = 'audit-admin-token-0123456789';
const HF_SECRET = 'hf_auditSecretValue42';
const READ = 'audit-read-token-9876543210';
const auth = { authorization: `Bearer ${ADMIN}` };
const tokenId = createHash('sha256').update(ADMIN).digest('hex').slice(0, 12);
const CREATE = {
  availabilityZone: 'us-west-2a',
  instanceType: 'ml.c5.xlarge',
  instanceCount: 1,
  storage: { s3: false },
};

/**
 * Issue 30's audit timeline: a create, a node reboot and a feature toggle through REST and through MCP each appear once,
 * with their face, the token's id (never the token), the AWS request ids of the mutating calls they (their operations)
 * made, and no secret value anywhere — in the list, through list_audit_events and in the JSON-lines export.
 */
describe('the audit timeline records every mutation through REST and MCP (issue 30)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let mcp: Client;
  const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    server.api(method, path, body, { ...auth, 'user-agent': 'audit-e2e-rest', ...headers });
  const events = async (query = '') => {
    const r = await api('GET', `/api/v1/audit?limit=500${query}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.events as any[];
  };
  /** Waits (with the token) until the operation is terminal. */
  const finished = async (id: string) => {
    for (;;) {
      const r = await api('GET', `/api/v1/operations/${id}/wait?timeoutSeconds=20`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      if (['succeeded', 'failed', 'cancelled'].includes(r.body.status)) return r.body;
    }
  };
  const firstNode = async (cluster: string) => {
    const r = await api('GET', `/api/v1/clusters/${cluster}/nodes`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.nodes[0].instanceId as string;
  };

  before(async () => {
    sb = await startTestSandbox({ speed: SPEED });
    server = await startTestServer(sb, { speed: SPEED, token: ADMIN, readTokens: [READ] });
    mcp = new Client({ name: 'audit-e2e-mcp', version: '1.0.0' });
    // Stateless streamable HTTP: each tool call is its own exchange, so the client is named by its User-Agent.
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { ...auth, 'user-agent': 'audit-e2e-mcp-agent' } },
      }),
    );
  });
  after(() => stopAll(mcp, server, sb));

  const opIds: Record<string, string> = {};

  it('a create through REST and one through MCP each appear once, with face, token id and the AWS request ids of their operation', async () => {
    const rest = await api('POST', '/api/v1/clusters', { name: 'aud-rest', ...CREATE });
    assert.equal(rest.status, 202, JSON.stringify(rest.body));
    const viaMcp = await call(mcp, 'create_cluster', { cluster: 'aud-mcp', ...CREATE });
    assert.ok(!viaMcp.isError, viaMcp.text);
    opIds.rest = rest.body.operation.id;
    opIds.mcp = (viaMcp.structuredContent as any).operation.id;
    for (const id of [opIds.rest, opIds.mcp]) assert.equal((await finished(id)).status, 'succeeded');

    const creates = await events('&kind=createCluster');
    assert.equal(creates.length, 2, JSON.stringify(creates));
    const byFace = new Map(creates.map((e) => [e.face, e]));
    assert.equal(byFace.get('rest').client, 'audit-e2e-rest');
    assert.equal(byFace.get('rest').operationId, opIds.rest);
    assert.equal(byFace.get('mcp').client, 'audit-e2e-mcp-agent');
    assert.equal(byFace.get('mcp').operationId, opIds.mcp);
    for (const e of creates) {
      assert.deepEqual(e.actor, { kind: 'token', tokenId, scope: 'admin' });
      assert.equal(e.outcome, 'accepted');
      assert.equal(e.status, 202);
      assert.equal(e.operationKind, 'create-cluster');
      assert.equal(e.operationStatus, 'succeeded', 'read from the operation');
      assert.equal(e.replay, false);
      const ops = new Set(e.awsCalls.map((c: any) => c.operation));
      for (const op of ['CreateVpc', 'CreateCluster'])
        assert.ok(ops.has(op), `${e.face} create made ${op}: ${[...ops]}`);
      for (const c of e.awsCalls) {
        assert.match(c.requestId ?? '', /^[0-9a-f-]{20,}$/i, `${c.operation} has AWS's request id`);
        assert.doesNotMatch(c.operation, /^(Describe|List|Get)/, 'reads are not mutations');
      }
      assert.ok(e.kubeRefs.length > 0, 'the create applied Kubernetes objects (its features)');
    }
    // The ids are the ones the cloud answered with: each is in the sandbox's call log, for that very operation.
    const logged = new Map((await sb.calls({ mutating: true })).map((c) => [c.requestId, c.operation]));
    for (const c of creates.flatMap((e) => e.awsCalls)) assert.equal(logged.get(c.requestId), c.operation, c.requestId);
    const createCalls = (await sb.calls({ operation: 'CreateCluster', service: 'sagemaker' })).length;
    assert.equal(
      creates
        .flatMap((e) => e.awsCalls)
        .filter((c: any) => c.operation === 'CreateCluster' && c.service === 'sagemaker').length,
      createCalls,
      'every HyperPod CreateCluster the sandbox answered is in the timeline',
    );
  });

  it('a node reboot through REST and through MCP each appear once, with the BatchRebootClusterNodes request id', async () => {
    const restNode = await firstNode('aud-rest');
    const rest = await api('POST', '/api/v1/clusters/aud-rest/nodes/reboot', { nodeIds: [restNode] });
    assert.equal(rest.status, 202, JSON.stringify(rest.body));
    const mcpNode = await firstNode('aud-mcp');
    const viaMcp = await call(mcp, 'reboot_nodes', { cluster: 'aud-mcp', nodeIds: [mcpNode] });
    assert.ok(!viaMcp.isError, viaMcp.text);
    await finished(rest.body.operation.id);
    await finished((viaMcp.structuredContent as any).operation.id);

    const reboots = await events('&kind=rebootNodes');
    assert.deepEqual(reboots.map((e) => e.face).sort(), ['mcp', 'rest']);
    for (const e of reboots) {
      assert.equal(e.route, 'POST /api/v1/clusters/{name}/nodes/reboot');
      assert.ok(e.input.body.nodeIds.length === 1);
      const reboot = e.awsCalls.filter((c: any) => c.operation === 'BatchRebootClusterNodes');
      assert.equal(reboot.length, 1, JSON.stringify(e.awsCalls));
      assert.ok(reboot[0].requestId);
    }
  });

  it('a feature toggle through REST and through MCP each appear once, with the request ids of its add-on and role deletes', async () => {
    const rest = await api('PATCH', '/api/v1/clusters/aud-rest/features', { 'training-operator': false });
    assert.equal(rest.status, 202, JSON.stringify(rest.body));
    const viaMcp = await call(mcp, 'set_features', { cluster: 'aud-mcp', changes: { 'training-operator': false } });
    assert.ok(!viaMcp.isError, viaMcp.text);
    await finished(rest.body.operation.id);
    await finished((viaMcp.structuredContent as any).operation.id);

    const toggles = await events('&kind=set-features');
    assert.deepEqual(toggles.map((e) => e.face).sort(), ['mcp', 'rest']);
    for (const e of toggles) {
      assert.equal(e.action, 'setFeatures');
      assert.equal(e.operationStatus, 'succeeded');
      // The training operator is an EKS add-on: removing it deletes the add-on and its IAM role.
      const ops = e.awsCalls.map((c: any) => c.operation);
      for (const op of ['DeleteAddon', 'DeleteRole']) assert.ok(ops.includes(op), `${e.face}: ${ops}`);
      assert.ok(e.awsCalls.every((c: any) => c.requestId));
    }
  });

  it('a replay of an Idempotency-Key is its own event, marked replay, without the calls it did not make', async () => {
    const body = { nodeIds: [await firstNode('aud-rest')] };
    const key = { 'idempotency-key': 'audit-replay-1' };
    const first = await api('POST', '/api/v1/clusters/aud-rest/nodes/reboot', body, key);
    assert.equal(first.status, 202, JSON.stringify(first.body));
    await finished(first.body.operation.id);
    const again = await api('POST', '/api/v1/clusters/aud-rest/nodes/reboot', body, key);
    assert.equal(again.status, 202, JSON.stringify(again.body));
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const [replay, original] = (await events('&kind=rebootNodes')).slice(0, 2);
    assert.equal(replay.replay, true);
    assert.deepEqual(replay.awsCalls, []);
    assert.equal(original.replay, false);
    assert.equal(replay.operationId, original.operationId);
  });

  it('keeps refusals, with no secret value: neither the API token nor a Hub token sent in a body', async () => {
    const refused = await api('POST', '/api/v1/clusters/nowhere/model-downloads', {
      modelId: 'openai-community/gpt2',
      storage: 'shared-s3',
      token: HF_SECRET,
    });
    assert.ok(refused.status >= 400 && refused.status < 500, JSON.stringify(refused.body));
    const anonymous = await server.api('POST', '/api/v1/clusters', { name: 'no-token', ...CREATE });
    assert.equal(anonymous.status, 401);
    const readOnly = await api(
      'POST',
      '/api/v1/clusters',
      { name: 'read-token', ...CREATE },
      {
        authorization: `Bearer ${READ}`,
      },
    );
    assert.equal(readOnly.status, 403);

    const [refusal] = await events('&outcome=refused&kind=startModelDownload');
    assert.equal(refusal.status, refused.status);
    assert.equal(refusal.input.body.token, '[redacted]');
    // The token's refusal for its scope is recorded; a request without a valid token is not (anyone could flood it).
    const refusedCreates = await events('&outcome=refused&kind=createCluster');
    assert.equal(refusedCreates.length, 1, JSON.stringify(refusedCreates));
    assert.deepEqual(refusedCreates[0].actor, {
      kind: 'token',
      tokenId: createHash('sha256').update(READ).digest('hex').slice(0, 12),
      scope: 'read',
    });
    assert.equal(refusedCreates[0].status, 403);

    const exported = await fetch(`${server.url}/api/v1/audit/export`, { headers: auth });
    assert.equal(exported.status, 200);
    assert.match(exported.headers.get('content-type') ?? '', /application\/x-ndjson/);
    const text = await exported.text();
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, (await events()).length, 'the export holds every event');
    assert.ok(lines[0].at <= lines.at(-1).at, 'oldest first');
    for (const secret of [ADMIN, READ, HF_SECRET]) {
      assert.ok(!text.includes(secret), 'no secret in the export');
      assert.ok(!JSON.stringify(await events()).includes(secret), 'no secret in the list');
    }
  });

  it('over stdio the MCP client is named by the name it gave at initialize', async () => {
    const stdio = new Client({ name: 'audit-e2e-stdio', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['bin/instantstart.mjs', 'mcp', '--url', server.url],
        env: { ...(process.env as Record<string, string>), INSTANTSTART_API_TOKEN: ADMIN },
        stderr: 'ignore',
      }),
    );
    try {
      const refused = await call(stdio, 'set_features', {
        cluster: 'nowhere',
        changes: { 'training-operator': false },
      });
      assert.ok(refused.isError, refused.text);
    } finally {
      await stdio.close();
    }
    const [e] = await events('&face=mcp&outcome=refused');
    assert.equal(e.client, 'audit-e2e-stdio');
    assert.equal(e.action, 'setFeatures');
    assert.deepEqual(e.actor, { kind: 'token', tokenId, scope: 'admin' });
  });

  it('list_audit_events reads the same timeline through MCP, filtered and paged', async () => {
    const page = await call(mcp, 'list_audit_events', { face: 'mcp', limit: 2 });
    assert.ok(!page.isError, page.text);
    const data = page.structuredContent as any;
    assert.equal(data.events.length, 2);
    assert.ok(data.events.every((e: any) => e.face === 'mcp'));
    assert.ok(data.nextToken, 'more than one page of MCP events');
    const next = await call(mcp, 'list_audit_events', { face: 'mcp', limit: 2, nextToken: data.nextToken });
    const older = (next.structuredContent as any).events;
    assert.ok(older.length > 0 && older.every((e: any) => !data.events.some((d: any) => d.id === e.id)));
    assert.match(page.text, /AWS call/);
    const bad = await api('GET', '/api/v1/audit?face=fax');
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.body), /face/);
  });
});
