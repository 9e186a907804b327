import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DATABASE_FILE, openDatabase } from '../../src/store/database.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnServer, startTestServer, type ServerProcess, type TestServer } from '../helpers/server.js';

/**
 * One data directory per cloud and account, and one server per directory. The AWS configuration
 * (`cloud: 'aws'`) runs against the test sandbox, whose STS answers as account 000000000000.
 */
const SPEED = 300;
const ACCOUNT = '000000000000';
const create = (name: string) => ({
  name,
  availabilityZone: 'us-west-2a',
  instanceType: 'ml.g5.8xlarge',
  instanceCount: 1,
});

describe('data directories: one per cloud and account, one server each', () => {
  let sb: TestSandbox;
  let dataDir: string;
  const dirs: string[] = [];
  const open: Array<TestServer | ServerProcess> = [];
  before(async () => {
    sb = await startTestSandbox({ speed: SPEED });
  });
  after(async () => {
    for (const s of open) await ('stop' in s ? s.stop() : s.close()).catch(() => undefined);
    await sb?.dispose();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const freshDir = () => dirs.push((dataDir = mkdtempSync(join(tmpdir(), 'instantstart-dirs-'))));
  const server = async (cloud: 'sandbox' | 'aws') => {
    const s = await startTestServer(sb, { speed: SPEED, dataDir, cloud });
    open.push(s);
    return s;
  };

  it("a server on AWS never sees, resumes or touches the sandbox's operations, and each records its cloud and account", async () => {
    freshDir();
    const sandbox = await server('sandbox');
    const created = await sandbox.api('POST', '/api/v1/clusters', create('sandboxed'));
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const sandboxOp = created.body.operation;
    assert.deepEqual([sandboxOp.cloud, sandboxOp.accountId, sandboxOp.region], ['sandbox', ACCOUNT, 'us-west-2']);
    await sandbox.close(); // left unfinished, as after a crash: a start on this directory resumes it

    const aws = await server('aws');
    const config = (await aws.api('GET', '/api/v1/config')).body;
    assert.deepEqual([config.cloud, config.accountId, config.cloudAccess.ready], ['aws', ACCOUNT, true]);
    assert.equal(
      config.clockSpeed,
      SPEED,
      "the config says how fast the cloud's clock runs (the UI says so beside cloud times)",
    );
    assert.deepEqual(
      (await aws.api('GET', '/api/v1/operations')).body.operations,
      [],
      "the AWS server lists none of the sandbox's operations",
    );
    assert.equal((await aws.api('GET', `/api/v1/operations/${sandboxOp.id}`)).status, 404);
    assert.equal(
      (await aws.api('POST', `/api/v1/operations/${sandboxOp.id}/cancel`)).status,
      404,
      'nor can it cancel one',
    );
    const awsCreated = await aws.api('POST', '/api/v1/clusters', create('billed'));
    assert.equal(awsCreated.status, 202, JSON.stringify(awsCreated.body));
    assert.deepEqual([awsCreated.body.operation.cloud, awsCreated.body.operation.accountId], ['aws', ACCOUNT]);
    assert.ok(existsSync(join(dataDir, 'aws', ACCOUNT, DATABASE_FILE)), 'the account has its own journal');
    await aws.close();

    const sandboxAgain = await server('sandbox');
    const listed = (await sandboxAgain.api('GET', '/api/v1/operations')).body.operations;
    assert.deepEqual(
      listed.map((o: any) => o.id),
      [sandboxOp.id],
      'the sandbox sees only its own',
    );
    const events = (await sandboxAgain.api('GET', `/api/v1/operations/${sandboxOp.id}/events`)).body.lines;
    assert.ok(
      events.some((l: any) => /Resumed after a restart/.test(l.message)),
      'and resumed it',
    );
    await sandboxAgain.close();
  });

  it('moves an older journal to the sandbox: a server on AWS does not open it, the sandbox resumes it', async () => {
    freshDir();
    const sandbox = await server('sandbox');
    const id = (await sandbox.api('POST', '/api/v1/clusters', create('olden'))).body.operation.id;
    await sandbox.close();
    // Make it what an older InstantStart left: <dataDir>/instantstart.db, no cloud recorded.
    renameSync(join(dataDir, 'sandbox', DATABASE_FILE), join(dataDir, DATABASE_FILE));
    const db = openDatabase(dataDir);
    db.exec('UPDATE operations SET cloud = NULL, account_id = NULL, region = NULL');
    db.close();

    const aws = await server('aws');
    assert.deepEqual((await aws.api('GET', '/api/v1/operations')).body.operations, []);
    assert.equal(existsSync(join(dataDir, DATABASE_FILE)), false, 'moved away at start');
    assert.ok(existsSync(join(dataDir, 'sandbox', DATABASE_FILE)), "into the sandbox's directory");
    await aws.close();

    const sandboxAgain = await server('sandbox');
    const op = (await sandboxAgain.api('GET', `/api/v1/operations/${id}`)).body;
    assert.equal(op.cloud, null, 'shown as unknown');
    const events = (await sandboxAgain.api('GET', `/api/v1/operations/${id}/events`)).body.lines;
    assert.ok(events.some((l: any) => /Resumed after a restart/.test(l.message)));
    await sandboxAgain.close();
  });

  it('refuses a second server on the same directory (in this process) and names the first', async () => {
    freshDir();
    const first = await server('sandbox');
    await assert.rejects(startTestServer(sb, { speed: SPEED, dataDir }), (err: Error) => {
      assert.match(
        err.message,
        new RegExp(`already uses the data directory .*pid ${process.pid}, ${first.url.replace(/\./g, '\\.')}`),
      );
      return true;
    });
    const aws = await server('aws'); // another cloud, another directory: allowed side by side
    await aws.close();
    await first.close();
  });

  it('refuses a second `instantstart serve` on the same directory, and a server killed with SIGKILL does not block the next', async () => {
    freshDir();
    const first = await spawnServer(sb, dataDir);
    open.push(first);
    await assert.rejects(spawnServer(sb, dataDir), (err: Error) => {
      assert.match(err.message, /server exited \(1\)/);
      assert.match(
        err.message,
        new RegExp(
          `Another InstantStart server already uses the data directory .*pid ${first.child.pid}, ${first.url.replace(/\./g, '\\.')}`,
        ),
      );
      return true;
    });
    assert.equal((await first.api('GET', '/api/v1/operations')).status, 200, 'the first one keeps serving');
    await first.kill();
    const next = await spawnServer(sb, dataDir);
    open.push(next);
    assert.equal((await next.api('GET', '/api/v1/operations')).status, 200);
    await next.stop();
  });
});
