import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { withoutCredentials, writeSandboxCredentials } from '../helpers/credentials.js';
import { call } from '../mcp/client-helpers.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnServe, type ServerProcess } from '../helpers/server.js';

/**
 * `instantstart serve --cloud aws` without usable credentials: it says what to do in the terminal and in
 * /api/v1/config, answers 503 with the remedy where AWS is needed, stores nothing for an unknown account,
 * and starts working — without a restart — once credentials appear and the check runs again. "AWS" is
 * the test sandbox (AWS_ENDPOINT_URL), which only accepts its documented key.
 */
describe('--cloud aws without credentials', () => {
  let sb: TestSandbox;
  let home: string;
  let dataDir: string;
  let server: (ServerProcess & { output(): string }) | undefined;
  let credentialsFile: string;
  before(async () => {
    sb = await startTestSandbox({ speed: 300 });
    home = mkdtempSync(join(tmpdir(), 'instantstart-nocreds-'));
    dataDir = join(home, 'data');
    mkdirSync(dataDir);
    const setup = withoutCredentials(
      { ...process.env, INSTANTSTART_LOG_LEVEL: 'warn', AWS_ENDPOINT_URL: sb.url, AWS_REGION: 'us-west-2' },
      home,
    );
    credentialsFile = setup.credentialsFile;
    server = await spawnServe(['--cloud', 'aws', '--data-dir', dataDir], setup.env, dataDir);
  });
  after(async () => {
    await server?.stop();
    await sb?.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  it('starts, and the terminal says what is wrong and what to do', async () => {
    for (let i = 0; i < 100 && !server!.output().includes('Not connected to AWS'); i++)
      await new Promise((r) => setTimeout(r, 50));
    const out = server!.output();
    assert.match(out, /InstantStart on AWS \(us-west-2, account unknown: no usable credentials\)/);
    assert.match(
      out,
      /Not connected to AWS — No usable AWS credentials: Could not load credentials from any providers/,
    );
    for (const remedy of [
      'AWS_PROFILE=',
      'aws sso login',
      'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
      'instance profile',
      'Check again',
    ]) {
      assert.ok(out.includes(remedy), `the terminal mentions ${remedy}:\n${out}`);
    }
  });

  it('reports the problem and its remedy in /api/v1/config', async () => {
    const { status, body } = await server!.api('GET', '/api/v1/config');
    assert.equal(status, 200);
    assert.equal(body.cloud, 'aws');
    assert.equal(body.accountId, null);
    assert.equal(body.cloudAccess.ready, false);
    assert.equal(body.cloudAccess.problem.code, 'NoCredentials');
    assert.match(body.cloudAccess.problem.remedy, /aws sso login/);
  });

  it('tells an agent the same through MCP get_server_info (not an error, the remedy in its answer)', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server!.url}/mcp`)));
    try {
      const result = await call(client, 'get_server_info');
      assert.equal(result.isError, undefined, result.text);
      assert.match(result.text, /account not known yet/);
      assert.match(result.text, /NoCredentials.*aws sso login/s);
    } finally {
      await client.close();
    }
  });

  it('answers 503 with the remedy where AWS is needed, still 400 for bad input, and stores nothing for an unknown account', async () => {
    for (const path of ['/api/v1/clusters', '/api/v1/operations', '/api/v1/regions']) {
      const r = await server!.api('GET', path);
      assert.equal(r.status, 503, `${path}: ${JSON.stringify(r.body)}`);
      assert.equal(r.headers.get('content-type')?.split(';')[0], 'application/problem+json');
      assert.equal(r.body.code, 'NoCredentials');
      assert.match(r.body.detail, /No usable AWS credentials/);
      assert.match(r.body.remedy, /AWS_PROFILE=.*\n.*aws sso login/s);
    }
    const bad = await server!.api('POST', '/api/v1/clusters', { name: 'Not A Name!' });
    assert.equal(bad.status, 400, 'validation still comes first');
    assert.deepEqual(readdirSync(dataDir), [], 'no journal, no account directory');
  });

  it('works without a restart once credentials appear and the check runs again', async () => {
    writeSandboxCredentials(credentialsFile); // as `aws configure` or `aws sso login` would
    const { status, body } = await server!.api('POST', '/api/v1/config/credentials/check');
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.cloudAccess.ready, true, JSON.stringify(body.cloudAccess));
    assert.equal(body.accountId, '000000000000');
    assert.equal((await server!.api('GET', '/api/v1/config')).body.cloudAccess.ready, true);
    const clusters = await server!.api('GET', '/api/v1/clusters');
    assert.equal(clusters.status, 200, JSON.stringify(clusters.body));
    assert.ok(existsSync(join(dataDir, 'aws', '000000000000', 'instantstart.db')), "the account's journal opened now");
    const created = await server!.api('POST', '/api/v1/clusters', {
      name: 'late',
      availabilityZone: 'us-west-2a',
      instanceType: 'ml.g5.8xlarge',
      instanceCount: 1,
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.deepEqual([created.body.operation.cloud, created.body.operation.accountId], ['aws', '000000000000']);
  });
});
