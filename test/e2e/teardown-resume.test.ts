import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { queryDatabase } from '../helpers/database-file.js';
import { taggedNames } from '../helpers/inventory.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnServer, type ServerProcess } from '../helpers/server.js';

const CLUSTER = 'td';
const base = `/api/v1/clusters/${CLUSTER}`;

/**
 * Resume observes everything a phase was to do (issue 26, item 3), for the phases that delete and
 * keep by tag: remove-storage's `keep` (tag the kept bucket, then record it), delete-cluster's
 * `mlflow` (one delete per server) and `storage` (one delete per bucket). The server is killed
 * (SIGKILL) in the middle of each act — a sandbox hang fault holds one of its calls — and restarted on
 * the same data directory: each act's calls are made once, the operations succeed, and nothing
 * tagged with the cluster remains but the bucket the delete said it keeps.
 */
describe('crash resume of the keep, mlflow and storage phases', () => {
  let sb: TestSandbox;
  let dataDir: string;
  let server: ServerProcess | undefined;
  let keptBucket: string;

  const succeeded = async (r: { status: number; body: any }) => {
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server!.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
  };
  /** The successful calls of one operation since `mark`. */
  const landed = async (service: string, operation: string, mark: number) =>
    (await sb.calls({ service, operation, after: mark })).filter((c) => c.status < 300);
  const until = async (what: () => Promise<unknown[]>, n: number) => {
    const deadline = Date.now() + 120_000;
    while ((await what()).length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok((await what()).length >= n, `${n} call(s) landed`);
  };
  const mark = async () => Math.max(0, ...(await sb.calls()).map((c) => c.seq));
  const hang = async (service: string, operation: string, options: { skip?: number; lands?: boolean }) => {
    const r = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'hang', service, operation, seconds: 600, ...options },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  };
  /** SIGKILL while a call is held, drop the fault, and start again on the same data directory. */
  const crash = async (between: () => unknown = () => {}) => {
    await new Promise((r) => setTimeout(r, 300));
    await server!.kill();
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    await between();
    server = await spawnServer(sb, dataDir);
  };

  before(async () => {
    sb = await startTestSandbox({ speed: 600 });
    dataDir = mkdtempSync(join(tmpdir(), 'instantstart-teardown-resume-'));
    server = await spawnServer(sb, dataDir);
    await succeeded(
      await server.api('POST', '/api/v1/clusters', {
        name: CLUSTER,
        availabilityZone: 'us-west-2b',
        instanceType: 'ml.c5.xlarge',
        instanceCount: 1,
        storage: { s3: true },
      }),
    );
    await succeeded(await server.api('POST', `${base}/storage`, { kind: 's3', name: 'scratch', createBucket: true }));
    await succeeded(await server.api('POST', `${base}/storage`, { kind: 's3', name: 'keepme', createBucket: true }));
    keptBucket = ((await server.api('GET', `${base}/storage`)).body.storages as any[]).find(
      (s) => s.name === 'keepme',
    ).bucket;
  });
  after(async () => {
    await server?.stop();
    await sb?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('remove-storage keeping the data, killed after its keep tag landed and before it was recorded: resumes recording it, tagged once', async () => {
    const from = await mark();
    await hang('s3', 'PutBucketTagging', { lands: true });
    const removing = await server!.api('DELETE', `${base}/storage/keepme`);
    assert.equal(removing.status, 202, JSON.stringify(removing.body));
    await until(() => landed('s3', 'PutBucketTagging', from), 1);
    await crash(() => {
      assert.deepEqual(
        queryDatabase(dataDir, 'SELECT name FROM kept_storages'),
        [],
        'the crash came between the tag and the record',
      );
    });
    const op = await server!.waitForOperation(removing.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    assert.equal((await landed('s3', 'PutBucketTagging', from)).length, 1, 'the bucket was tagged once');
    const kept = (await server!.api('GET', `${base}/storage`)).body.kept as any[];
    assert.deepEqual(
      kept.map((k) => [k.name, k.dataName]),
      [['keepme', keptBucket]],
    );
  });

  it('delete-cluster killed between its MLflow deletes, then between its bucket deletes: each made once, nothing tagged left but the kept bucket, the MLflow link gone', async () => {
    const servers = [];
    for (const name of ['td-one', 'td-two']) {
      const r = await server!.api('POST', '/api/v1/mlflow/tracking-servers', {
        name,
        artifactStoreUri: `s3://${keptBucket}/${name}`,
        cluster: CLUSTER,
      });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      servers.push(r.body);
    }
    const linked = await server!.api('PUT', `${base}/mlflow`, { trackingServerArn: servers[0].arn });
    assert.equal(linked.status, 200, JSON.stringify(linked.body));

    const from = await mark();
    await hang('sagemaker', 'DeleteMlflowTrackingServer', { skip: 1 });
    const deleting = await server!.api('DELETE', `${base}?confirm=true`);
    assert.equal(deleting.status, 202, JSON.stringify(deleting.body));
    assert.deepEqual(
      deleting.body.plan.keeps.map((k: any) => k.name),
      [keptBucket],
    );
    await until(() => landed('sagemaker', 'DeleteMlflowTrackingServer', from), 1);
    await crash(async () => {
      assert.deepEqual(
        queryDatabase(dataDir, 'SELECT * FROM cluster_mlflow'),
        [],
        'the cluster no longer points at a server being deleted',
      );
      // The resumed delete goes on to the storage phase: killed again after its first bucket went.
      await hang('s3', 'DeleteBucket', { skip: 1 });
    });
    await until(() => landed('s3', 'DeleteBucket', from), 1);
    await crash();

    const op = await server!.waitForOperation(deleting.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    const once = (calls: Array<{ subject?: string }>) => {
      const subjects = calls.map((c) => c.subject ?? '?');
      assert.deepEqual(subjects, [...new Set(subjects)], `each deleted once: ${subjects.join(', ')}`);
      return subjects.sort();
    };
    assert.deepEqual(once(await landed('sagemaker', 'DeleteMlflowTrackingServer', from)), ['td-one', 'td-two']);
    assert.equal(once(await landed('s3', 'DeleteBucket', from)).length, 2, "the shared bucket and scratch's");
    const left = taggedNames(await sb.inventory(), CLUSTER);
    assert.deepEqual(left, [`s3/buckets ${keptBucket}`], left.join('\n'));
  });
});
