import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TAG_CLUSTER } from '../../src/domain/naming.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnServer, type ServerProcess } from '../helpers/server.js';

/**
 * Resume observes everything a phase was to do (issue 26, item 3): a bucket InstantStart makes must
 * never be left untagged — tags are how InstantStart finds and deletes what it made. The bucket is born
 * tagged (`CreateBucketConfiguration.Tags`), so a server killed right after CreateBucket landed (its
 * answer held by the sandbox) leaves a tagged bucket, and the resumed phase, which counts a bucket as
 * made only when it carries its tags, finishes without making it again.
 */
describe('a crash right after CreateBucket: the bucket is tagged, and resume makes it once', () => {
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

  it("creates the bucket once and ends with it tagged as the cluster's", async () => {
    server = await spawnServer(sb, dataDir);
    const cluster = await server.api('POST', '/api/v1/clusters', {
      name: 'tags',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: true },
    });
    assert.equal(cluster.status, 202, JSON.stringify(cluster.body));
    assert.equal((await server.waitForOperation(cluster.body.operation.id)).status, 'succeeded');

    const mark = Math.max(0, ...(await sb.calls()).map((c) => c.seq));
    // CreateBucket lands; its answer is held: the server dies not knowing it made the bucket.
    const hang = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'hang', service: 's3', operation: 'CreateBucket', seconds: 600, lands: true },
    });
    assert.equal(hang.status, 201, JSON.stringify(hang.body));
    const added = await server.api('POST', '/api/v1/clusters/tags/storage', {
      kind: 's3',
      name: 'scratch',
      createBucket: true,
    });
    assert.equal(added.status, 202, JSON.stringify(added.body));
    const id = added.body.operation.id;

    const made = async () =>
      (await sb.calls({ service: 's3', operation: 'CreateBucket', after: mark })).filter((c) => c.status < 300);
    const deadline = Date.now() + 120_000;
    while ((await made()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const [createBucket] = await made();
    assert.ok(createBucket, 'the bucket phase made its bucket');
    await server.kill();
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    const bucket = createBucket.subject!;
    const born = (await sb.aws(['s3api', 'get-bucket-tagging', '--bucket', bucket])).json?.TagSet as
      | Array<{ Key: string; Value: string }>
      | undefined;
    assert.deepEqual(
      born?.find((t) => t.Key === TAG_CLUSTER),
      { Key: TAG_CLUSTER, Value: 'tags' },
      `the crash left a tagged bucket: ${JSON.stringify(born)}`,
    );

    server = await spawnServer(sb, dataDir);
    const op = await server.waitForOperation(id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    const tags = (await sb.aws(['s3api', 'get-bucket-tagging', '--bucket', bucket])).json?.TagSet as
      | Array<{ Key: string; Value: string }>
      | undefined;
    assert.deepEqual(
      tags?.find((t) => t.Key === TAG_CLUSTER),
      { Key: TAG_CLUSTER, Value: 'tags' },
      `the resumed add tagged the bucket: ${JSON.stringify(tags)}`,
    );
    assert.equal((await made()).length, 1, 'the bucket was made once');
  });
});
