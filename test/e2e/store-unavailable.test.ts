import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnServer, startTestServer, stopAll, type TestServer } from '../helpers/server.js';

/** The server's database file, wherever the data directory's layout puts it. */
function findDatabase(dir: string): string {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      const inside = findDatabase(path);
      if (inside) return inside;
    } else if (name === 'instantstart.db') return path;
  }
  return '';
}

describe('the data directory cannot be written (sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer | undefined;
  const dirs: string[] = [];
  before(async () => {
    sb = await startTestSandbox({ speed: 600 });
  });
  after(async () => {
    await stopAll(server, sb);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('`instantstart serve` on a damaged database exits non-zero naming the file, what is wrong and what to do', async () => {
    // Learn where the server keeps its database, then give a fresh data directory garbage in its place.
    const learnt = mkdtempSync(join(tmpdir(), 'instantstart-layout-'));
    dirs.push(learnt);
    await (await spawnServer(sb, learnt)).stop();
    const where = relative(learnt, findDatabase(learnt));
    assert.ok(where, 'the first start made a database');
    const dataDir = mkdtempSync(join(tmpdir(), 'instantstart-damaged-'));
    dirs.push(dataDir);
    const file = join(dataDir, where);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'not a database '.repeat(1000));

    let failure: Error | undefined;
    try {
      await (await spawnServer(sb, dataDir)).stop();
    } catch (err) {
      failure = err as Error;
    }
    assert.ok(failure, 'the server must not start on a damaged database');
    assert.match(failure.message, /server exited \(1\)/);
    assert.ok(
      failure.message.includes(`Cannot use the InstantStart database ${file}: it is damaged (SQLITE_NOTADB`),
      failure.message,
    );
    assert.match(failure.message, /move .* aside and restore a backup/);
    assert.doesNotMatch(failure.message, /\n\s+at /, 'a message, not a stack trace');
  });

  it('while another process holds the write lock, a mutation answers 503 naming the data directory and what to do; reads still work', async () => {
    server = await startTestServer(sb, { speed: 600 });
    // Something of the cluster exists (a tagged VPC, as a create that stopped early leaves): its delete writes the
    // journal.
    await sb.aws([
      'ec2',
      'create-vpc',
      '--cidr-block',
      '10.9.0.0/16',
      '--tag-specifications',
      'ResourceType=vpc,Tags=[{Key=instantstart.io/cluster,Value=nothing-here},{Key=instantstart.io/part,Value=vpc}]',
    ]);
    const file = findDatabase(server.dataDir);
    const other = new BetterSqlite3(file);
    try {
      other.prepare('BEGIN IMMEDIATE').run(); // held until released below
      const refused = await server.api('DELETE', '/api/v1/clusters/nothing-here?confirm=true'); // waits out the busy timeout first
      assert.equal(refused.status, 503, JSON.stringify(refused.body));
      assert.match(refused.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.equal(refused.body.code, 'SQLITE_BUSY');
      assert.ok(refused.body.detail.includes(file), refused.body.detail);
      assert.match(refused.body.remedy, /Stop the other process/);
      assert.equal((await server.api('GET', '/api/v1/operations')).status, 200);
    } finally {
      if (other.inTransaction) other.prepare('ROLLBACK').run();
      other.close();
    }
    const accepted = await server.api('DELETE', '/api/v1/clusters/nothing-here?confirm=true');
    assert.equal(accepted.status, 202, 'once the lock is gone, the same request works');
    const done = await server.waitForOperation(accepted.body.operation.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error ?? done.phases));
  });
});
