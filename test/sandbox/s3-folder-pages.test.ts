import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/**
 * A folder listing a page at a time, as a storage browser reads it: ListObjectsV2 with a prefix,
 * delimiter "/" and small pages returns every folder (common prefix) and object once, in S3's order,
 * with KeyCount counting both and a continuation token that resumes after a folder as well as after a key.
 */
describe('sandbox S3: folder listings with a delimiter, page by page', () => {
  let sb: TestSandbox;
  let s3: S3Client;
  before(async () => {
    sb = await startTestSandbox();
    s3 = new S3Client({});
    await s3.send(
      new CreateBucketCommand({
        Bucket: 'folder-pages',
        CreateBucketConfiguration: { LocationConstraint: 'us-west-2' },
      }),
    );
    const keys = [
      'models/a.bin',
      'models/b/1.bin',
      'models/b/2.bin',
      'models/c.bin',
      'models/d/1.bin',
      'models/e.bin',
      'models/f/x/1.bin',
      'models/g.bin',
      'other/z.bin',
    ];
    for (const Key of keys) await s3.send(new PutObjectCommand({ Bucket: 'folder-pages', Key, Body: Key }));
  });
  after(() => sb.stop());

  it('pages through folders and objects under a prefix, each entry once', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({
          Bucket: 'folder-pages',
          Prefix: 'models/',
          Delimiter: '/',
          MaxKeys: 2,
          ContinuationToken: token,
        }),
      );
      const entries = [
        ...(page.CommonPrefixes ?? []).map((p) => p.Prefix!),
        ...(page.Contents ?? []).map((o) => o.Key!),
      ];
      assert.equal(page.KeyCount, entries.length);
      assert.ok(entries.length <= 2);
      seen.push(...entries);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
      pages++;
    } while (token);
    assert.deepEqual(seen.sort(), [
      'models/a.bin',
      'models/b/',
      'models/c.bin',
      'models/d/',
      'models/e.bin',
      'models/f/',
      'models/g.bin',
    ]);
    assert.equal(pages, 4);
  });

  it('ends the last page without a token', async () => {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: 'folder-pages', Prefix: 'models/', Delimiter: '/', MaxKeys: 7 }),
    );
    assert.equal(page.IsTruncated, false);
    assert.equal(page.NextContinuationToken, undefined);
    assert.equal(page.KeyCount, 7);
  });
});
