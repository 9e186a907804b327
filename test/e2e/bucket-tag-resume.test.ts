import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TAG_CLUSTER } from '../../src/domain/naming.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnServer, type ServerProcess } from '../helpers/server.js';

/**
 * Resume observes everything a phase was to do (issue 26, item 3): the shared bucket is made in two
 * calls, CreateBucket then PutBucketTagging. A server killed between them (PutBucketTagging held
 * unanswered by the sandbox) leaves an untagged bucket; after the restart add-storage's bucket phase must see
 * that, not only that the bucket exists — tags are how InstantStart finds and deletes what it made.
 */
describe('a crash between CreateBucket and PutBucketTagging: resume tags the bucket', () => {
  let sb: TestSandbox;
  let dataDir: string;
  let server: ServerProcess | undefined;
  before(async () => {
    sb = await startTestSandbox({ speed: 600 });
    dataDir = mkdtempSync(join(tmpdir(), 'instantstart-bucket-tags-'));
  });
  after(async () => {
    await server?.stop();
    await sb?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates the bucket once and ends with it tagged as the cluster\'s', async () => {
    server = await spawnServer(sb, dataDir);
    const cluster = await server.api('POST', '/api/v1/clusters', { name: 'tags', availabilityZone: 'us-west-2b', instanceType: 'ml.c5.xlarge', instanceCount: 1, storage: { s3: true } });
    assert.equal(cluster.status, 202, JSON.stringify(cluster.body));
    assert.equal((await server.waitForOperation(cluster.body.operation.id)).status, 'succeeded');

    const mark = Math.max(0, ...(await sb.calls()).map((c) => c.seq));
    const hang = await sb.admin('/_sandbox/faults', { method: 'POST', body: { type: 'hang', service: 's3', operation: 'PutBucketTagging', seconds: 600 } });
    assert.equal(hang.status, 201, JSON.stringify(hang.body));
    const added = await server.api('POST', '/api/v1/clusters/tags/storage', { kind: 's3', name: 'scratch', createBucket: true });
    assert.equal(added.status, 202, JSON.stringify(added.body));
    const id = added.body.operation.id;

    const made = async () => (await sb.calls({ service: 's3', operation: 'CreateBucket', after: mark })).filter((c) => c.status < 300);
    const deadline = Date.now() + 120_000;
    while ((await made()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const [createBucket] = await made();
    assert.ok(createBucket, 'the bucket phase made its bucket');
    // PutBucketTagging is now held: the server dies before it is answered.
    await new Promise((r) => setTimeout(r, 300));
    await server.kill();
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    const bucket = createBucket.subject!;
    const untagged = await sb.aws(['s3api', 'get-bucket-tagging', '--bucket', bucket], { allowFailure: true });
    assert.notEqual(untagged.code, 0, 'the crash left the bucket untagged');

    server = await spawnServer(sb, dataDir);
    const op = await server.waitForOperation(id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    const tags = (await sb.aws(['s3api', 'get-bucket-tagging', '--bucket', bucket])).json?.TagSet as Array<{ Key: string; Value: string }> | undefined;
    assert.deepEqual(tags?.find((t) => t.Key === TAG_CLUSTER), { Key: TAG_CLUSTER, Value: 'tags' }, `the resumed add tagged the bucket: ${JSON.stringify(tags)}`);
    assert.equal((await made()).length, 1, 'the bucket was made once');
  });
});
