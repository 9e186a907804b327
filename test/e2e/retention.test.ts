import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sandboxDirectory } from '../../src/cli/data-layout.js';
import { openDatabase } from '../../src/store/database.js';
import { OperationsStore } from '../../src/store/operations-store.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const DAY = 86_400_000;
const PLACE = { cloud: 'sandbox' as const, accountId: '000000000000', region: 'us-west-2' };

/** A sandbox journal as months of use leave it: finished creates, one of them half-made long ago. */
function oldJournal(dataDir: string): void {
  const db = openDatabase(sandboxDirectory(dataDir));
  const store = new OperationsStore(db);
  const phases = [{ name: 'network', title: 'Network', expectedSeconds: 60 }];
  const seed = (id: string, name: string, daysAgo: number, status: 'succeeded' | 'failed') => {
    const at = new Date(Date.now() - daysAgo * DAY).toISOString();
    store.createOperation(
      {
        id,
        kind: 'create-cluster',
        target: `cluster/us-west-2/${name}`,
        status: 'pending',
        input: { name, region: 'us-west-2' },
        state: {},
        createdAt: at,
        ...PLACE,
      },
      phases,
    );
    store.appendLog(id, { at, level: 'info', message: 'accepted' });
    store.updateOperation(
      id,
      {
        status,
        finishedAt: at,
        ...(status === 'failed' ? { error: { phase: 'network', code: 'Boom', message: 'it broke' } } : {}),
      },
      at,
    );
  };
  seed('op-old', 'again', 90, 'failed'); // superseded by op-newer on the same cluster name
  seed('op-newer', 'again', 60, 'succeeded');
  seed('op-half', 'half', 80, 'failed'); // the only create of "half": a half-made cluster
  seed('op-recent', 'recent', 2, 'succeeded');
  db.close();
}

describe('retention in a running server', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let dataDir: string;
  before(async () => {
    sb = await startTestSandbox({ speed: 300 });
    dataDir = mkdtempSync(join(tmpdir(), 'instantstart-retention-'));
    oldJournal(dataDir);
    server = await startTestServer(sb, {
      speed: 300,
      dataDir,
      retention: { maxAgeDays: 30, maxOperations: 1000, maxLogLinesPerOperation: 100 },
    });
  });
  after(async () => {
    await server?.close();
    await sb?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prunes at start: old finished operations go, a half-made cluster stays listed', async () => {
    const ids = async () =>
      ((await server.api('GET', '/api/v1/operations?limit=100')).body.operations as Array<{ id: string }>)
        .map((o) => o.id)
        .sort();
    const deadline = Date.now() + 10_000;
    while ((await ids()).includes('op-old') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(await ids(), ['op-half', 'op-newer', 'op-recent'], 'only the superseded old operation went');
    assert.equal((await server.api('GET', '/api/v1/operations/op-old/events')).status, 404, 'its log went with it');
    const clusters = (await server.api('GET', '/api/v1/clusters')).body.clusters as Array<{
      name: string;
      status: string;
    }>;
    assert.deepEqual(
      clusters.map((c) => [c.name, c.status]),
      [['half', 'Failed']],
      'the half-made cluster is still listed, as Failed',
    );
  });
});
