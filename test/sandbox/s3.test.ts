import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetBucketLocationCommand,
  GetBucketTaggingCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListMultipartUploadsCommand,
  ListObjectsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutBucketTaggingCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const execFileAsync = promisify(execFile);
const md5 = (data: Buffer | string) => createHash('md5').update(data).digest('hex');
const errorName = (name: string) => (e: Error) => {
  assert.equal(e.name, name, e.message);
  return true;
};

describe('S3 (REST-XML, path-style)', () => {
  let sb: TestSandbox;
  let s3: S3Client;
  let workDir: string;
  before(async () => {
    sb = await startTestSandbox();
    s3 = new S3Client({});
    workDir = mkdtempSync(join(tmpdir(), 's3-test-'));
  });
  after(async () => {
    await sb.dispose();
    rmSync(workDir, { recursive: true, force: true });
  });

  /** The high-level `aws s3` commands print text, not JSON, so they are run here directly. */
  async function awsText(
    args: string[],
    allowFailure = false,
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    const env = {
      ...process.env,
      ...sb.env,
      AWS_PAGER: '',
      AWS_CONFIG_FILE: '/dev/null',
      AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    };
    try {
      const { stdout, stderr } = await execFileAsync('aws', [...args, '--endpoint-url', sb.url], {
        env,
        maxBuffer: 16 * 1024 * 1024,
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      if (!allowFailure) throw new Error(`aws ${args.join(' ')} failed: ${e.stderr}`);
      return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  }

  it('creates buckets in the signing region and reports where they live', async () => {
    await s3.send(
      new CreateBucketCommand({ Bucket: 'sdk-bucket', CreateBucketConfiguration: { LocationConstraint: 'us-west-2' } }),
    );
    const head = await s3.send(new HeadBucketCommand({ Bucket: 'sdk-bucket' }));
    assert.equal(head.BucketRegion, 'us-west-2');
    const location = await s3.send(new GetBucketLocationCommand({ Bucket: 'sdk-bucket' }));
    assert.equal(location.LocationConstraint, 'us-west-2');
    const list = await s3.send(new ListBucketsCommand({}));
    const mine = list.Buckets?.find((b) => b.Name === 'sdk-bucket');
    assert.equal(mine?.BucketRegion, 'us-west-2');
    assert.ok(mine?.CreationDate instanceof Date);

    const east = new S3Client({ region: 'us-east-1' });
    await east.send(new CreateBucketCommand({ Bucket: 'sdk-bucket-east' }));
    assert.equal(
      (await east.send(new GetBucketLocationCommand({ Bucket: 'sdk-bucket-east' }))).LocationConstraint,
      undefined,
    );
  });

  it('refuses bad bucket requests with S3 error codes and changes nothing', async () => {
    const before = await sb.inventory();
    await assert.rejects(
      s3.send(
        new CreateBucketCommand({
          Bucket: 'Bad_Bucket',
          CreateBucketConfiguration: { LocationConstraint: 'us-west-2' },
        }),
      ),
      errorName('InvalidBucketName'),
    );
    await assert.rejects(
      s3.send(
        new CreateBucketCommand({ Bucket: 'ab', CreateBucketConfiguration: { LocationConstraint: 'us-west-2' } }),
      ),
      errorName('InvalidBucketName'),
    );
    // The SDK adds the client's region as LocationConstraint by itself; the CLI's s3api does not.
    const unconstrained = await sb.aws(['s3api', 'create-bucket', '--bucket', 'no-constraint-bucket'], {
      allowFailure: true,
    });
    assert.match(unconstrained.stderr, /IllegalLocationConstraintException/);
    await assert.rejects(
      s3.send(
        new CreateBucketCommand({
          Bucket: 'wrong-region-bucket',
          CreateBucketConfiguration: { LocationConstraint: 'eu-west-1' },
        }),
      ),
      errorName('IllegalLocationConstraintException'),
    );
    await assert.rejects(
      s3.send(
        new CreateBucketCommand({
          Bucket: 'sdk-bucket',
          CreateBucketConfiguration: { LocationConstraint: 'us-west-2' },
        }),
      ),
      errorName('BucketAlreadyOwnedByYou'),
    );
    await assert.rejects(
      s3.send(new DeleteBucketCommand({ Bucket: 'no-such-bucket-here' })),
      errorName('NoSuchBucket'),
    );
    await assert.rejects(s3.send(new HeadBucketCommand({ Bucket: 'no-such-bucket-here' })), errorName('NotFound'));
    await assert.rejects(s3.send(new GetBucketTaggingCommand({ Bucket: 'sdk-bucket' })), errorName('NoSuchTagSet'));
    assert.deepEqual(await sb.inventory(), before);
  });

  it('keeps bucket tags', async () => {
    await s3.send(
      new PutBucketTaggingCommand({
        Bucket: 'sdk-bucket',
        Tagging: {
          TagSet: [
            { Key: 'team', Value: 'ml' },
            { Key: 'env', Value: '' },
          ],
        },
      }),
    );
    const tags = await s3.send(new GetBucketTaggingCommand({ Bucket: 'sdk-bucket' }));
    assert.deepEqual(tags.TagSet, [
      { Key: 'team', Value: 'ml' },
      { Key: 'env', Value: '' },
    ]);
    await assert.rejects(
      s3.send(
        new PutBucketTaggingCommand({ Bucket: 'sdk-bucket', Tagging: { TagSet: [{ Key: 'aws:x', Value: 'y' }] } }),
      ),
      errorName('InvalidTag'),
    );
  });

  it('stores objects with their ETag, type and metadata, and serves ranges', async () => {
    const put = await s3.send(
      new PutObjectCommand({
        Bucket: 'sdk-bucket',
        Key: 'docs/read me.txt',
        Body: 'hello sandbox',
        ContentType: 'text/plain',
        Metadata: { owner: 'alice' },
      }),
    );
    assert.equal(put.ETag, `"${md5('hello sandbox')}"`);
    const got = await s3.send(new GetObjectCommand({ Bucket: 'sdk-bucket', Key: 'docs/read me.txt' }));
    assert.equal(await got.Body!.transformToString(), 'hello sandbox');
    assert.equal(got.ContentType, 'text/plain');
    assert.deepEqual(got.Metadata, { owner: 'alice' });
    assert.equal(got.ETag, put.ETag);

    const part = await s3.send(
      new GetObjectCommand({ Bucket: 'sdk-bucket', Key: 'docs/read me.txt', Range: 'bytes=6-12' }),
    );
    assert.equal(part.$metadata.httpStatusCode, 206);
    assert.equal(part.ContentRange, 'bytes 6-12/13');
    assert.equal(await part.Body!.transformToString(), 'sandbox');

    const head = await s3.send(new HeadObjectCommand({ Bucket: 'sdk-bucket', Key: 'docs/read me.txt' }));
    assert.equal(head.ContentLength, 13);
    assert.equal(head.Metadata?.owner, 'alice');
  });

  it('rejects a wrong Content-MD5 with BadDigest and answers missing keys with NoSuchKey', async () => {
    const before = await sb.inventory();
    await assert.rejects(
      s3.send(
        new PutObjectCommand({
          Bucket: 'sdk-bucket',
          Key: 'bad.txt',
          Body: 'payload',
          ContentMD5: createHash('md5').update('other').digest('base64'),
        }),
      ),
      errorName('BadDigest'),
    );
    await assert.rejects(
      s3.send(new GetObjectCommand({ Bucket: 'sdk-bucket', Key: 'missing.txt' })),
      errorName('NoSuchKey'),
    );
    await assert.rejects(
      s3.send(new HeadObjectCommand({ Bucket: 'sdk-bucket', Key: 'missing.txt' })),
      errorName('NotFound'),
    );
    await assert.rejects(
      s3.send(new PutObjectCommand({ Bucket: 'no-such-bucket-here', Key: 'k', Body: 'x' })),
      errorName('NoSuchBucket'),
    );
    assert.deepEqual(await sb.inventory(), before);
    // Deleting a missing key is not an error on an unversioned bucket.
    const del = await s3.send(new DeleteObjectCommand({ Bucket: 'sdk-bucket', Key: 'missing.txt' }));
    assert.equal(del.$metadata.httpStatusCode, 204);
  });

  it('lists with prefix, delimiter, pages and URL encoding', async () => {
    await s3.send(
      new CreateBucketCommand({
        Bucket: 'list-bucket',
        CreateBucketConfiguration: { LocationConstraint: 'us-west-2' },
      }),
    );
    const keys = ['a/1.txt', 'a/2.txt', 'a/deep/3.txt', 'b/4.txt', 'c+d e.txt', 'top.txt'];
    for (const Key of keys) await s3.send(new PutObjectCommand({ Bucket: 'list-bucket', Key, Body: Key }));

    const rolled = await s3.send(new ListObjectsV2Command({ Bucket: 'list-bucket', Delimiter: '/' }));
    assert.deepEqual(
      rolled.CommonPrefixes?.map((p) => p.Prefix),
      ['a/', 'b/'],
    );
    assert.deepEqual(
      rolled.Contents?.map((o) => o.Key),
      ['c+d e.txt', 'top.txt'],
    );
    assert.equal(rolled.KeyCount, 4);

    const underA = await s3.send(new ListObjectsV2Command({ Bucket: 'list-bucket', Prefix: 'a/', Delimiter: '/' }));
    assert.deepEqual(
      underA.Contents?.map((o) => o.Key),
      ['a/1.txt', 'a/2.txt'],
    );
    assert.deepEqual(
      underA.CommonPrefixes?.map((p) => p.Prefix),
      ['a/deep/'],
    );

    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({ Bucket: 'list-bucket', MaxKeys: 4, ContinuationToken: token }),
      );
      seen.push(...(page.Contents ?? []).map((o) => o.Key!));
      assert.equal(page.KeyCount, page.Contents?.length ?? 0);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
      pages++;
    } while (token);
    assert.equal(pages, 2);
    assert.deepEqual(seen, [...keys].sort());

    const afterB = await s3.send(new ListObjectsV2Command({ Bucket: 'list-bucket', StartAfter: 'b/4.txt' }));
    assert.deepEqual(
      afterB.Contents?.map((o) => o.Key),
      ['c+d e.txt', 'top.txt'],
    );

    const encoded = await s3.send(
      new ListObjectsV2Command({ Bucket: 'list-bucket', Prefix: 'c', EncodingType: 'url' }),
    );
    assert.equal(encoded.EncodingType, 'url');
    assert.equal(decodeURIComponent(encoded.Contents![0]!.Key!), 'c+d e.txt');
    assert.notEqual(encoded.Contents![0]!.Key, 'c+d e.txt');

    const v1 = await s3.send(new ListObjectsCommand({ Bucket: 'list-bucket', Marker: 'a/deep/3.txt', MaxKeys: 2 }));
    assert.deepEqual(
      v1.Contents?.map((o) => o.Key),
      ['b/4.txt', 'c+d e.txt'],
    );
    assert.equal(v1.IsTruncated, true);
  });

  it('deletes many objects in one call, quietly or not', async () => {
    const loud = await s3.send(
      new DeleteObjectsCommand({
        Bucket: 'list-bucket',
        Delete: { Objects: [{ Key: 'a/1.txt' }, { Key: 'never-there' }] },
      }),
    );
    assert.deepEqual(loud.Deleted?.map((d) => d.Key).sort(), ['a/1.txt', 'never-there']);
    const quiet = await s3.send(
      new DeleteObjectsCommand({ Bucket: 'list-bucket', Delete: { Objects: [{ Key: 'a/2.txt' }], Quiet: true } }),
    );
    assert.equal(quiet.Deleted, undefined);
    const left = await s3.send(new ListObjectsV2Command({ Bucket: 'list-bucket', Prefix: 'a/' }));
    assert.deepEqual(
      left.Contents?.map((o) => o.Key),
      ['a/deep/3.txt'],
    );
  });

  it('copies objects, keeping or replacing metadata', async () => {
    await s3.send(
      new CopyObjectCommand({ Bucket: 'list-bucket', Key: 'copied.txt', CopySource: 'sdk-bucket/docs/read%20me.txt' }),
    );
    const copied = await s3.send(new HeadObjectCommand({ Bucket: 'list-bucket', Key: 'copied.txt' }));
    assert.equal(copied.ContentType, 'text/plain');
    assert.deepEqual(copied.Metadata, { owner: 'alice' });
    assert.equal(copied.ETag, `"${md5('hello sandbox')}"`);

    await s3.send(
      new CopyObjectCommand({
        Bucket: 'list-bucket',
        Key: 'copied.txt',
        CopySource: 'list-bucket/copied.txt',
        MetadataDirective: 'REPLACE',
        ContentType: 'text/markdown',
      }),
    );
    const replaced = await s3.send(new HeadObjectCommand({ Bucket: 'list-bucket', Key: 'copied.txt' }));
    assert.equal(replaced.ContentType, 'text/markdown');
    assert.deepEqual(replaced.Metadata, {});

    await assert.rejects(
      s3.send(
        new CopyObjectCommand({ Bucket: 'list-bucket', Key: 'copied.txt', CopySource: 'list-bucket/copied.txt' }),
      ),
      errorName('InvalidRequest'),
    );
    await assert.rejects(
      s3.send(new CopyObjectCommand({ Bucket: 'list-bucket', Key: 'x', CopySource: 'list-bucket/nothing' })),
      errorName('NoSuchKey'),
    );
  });

  it('assembles multipart uploads and enforces the part rules', async () => {
    const Bucket = 'list-bucket';
    const Key = 'big/object.bin';
    const part1 = Buffer.alloc(5 * 1024 * 1024, 1);
    const part2 = Buffer.from('the tail');
    const { UploadId } = await s3.send(
      new CreateMultipartUploadCommand({ Bucket, Key, ContentType: 'application/x-test' }),
    );
    assert.ok(UploadId);
    const e1 = (await s3.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 1, Body: part1 }))).ETag!;
    const e2 = (await s3.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 2, Body: part2 }))).ETag!;
    assert.equal(e1, `"${md5(part1)}"`);

    const parts = await s3.send(new ListPartsCommand({ Bucket, Key, UploadId }));
    assert.deepEqual(
      parts.Parts?.map((p) => [p.PartNumber, p.Size]),
      [
        [1, part1.length],
        [2, part2.length],
      ],
    );
    const uploads = await s3.send(new ListMultipartUploadsCommand({ Bucket }));
    assert.deepEqual(
      uploads.Uploads?.map((u) => u.UploadId),
      [UploadId],
    );

    const before = await sb.inventory();
    const complete = (Parts: { PartNumber: number; ETag: string }[]) =>
      s3.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts } }));
    await assert.rejects(
      complete([
        { PartNumber: 2, ETag: e2 },
        { PartNumber: 1, ETag: e1 },
      ]),
      errorName('InvalidPartOrder'),
    );
    await assert.rejects(
      complete([
        { PartNumber: 1, ETag: e1 },
        { PartNumber: 2, ETag: '"0123456789abcdef0123456789abcdef"' },
      ]),
      errorName('InvalidPart'),
    );
    await assert.rejects(
      complete([
        { PartNumber: 2, ETag: e2 },
        { PartNumber: 3, ETag: e2 },
      ]),
      errorName('InvalidPart'),
    );
    assert.deepEqual(await sb.inventory(), before);

    const done = await complete([
      { PartNumber: 1, ETag: e1 },
      { PartNumber: 2, ETag: e2 },
    ]);
    const expected = md5(Buffer.concat([Buffer.from(md5(part1), 'hex'), Buffer.from(md5(part2), 'hex')]));
    assert.equal(done.ETag, `"${expected}-2"`);
    const got = await s3.send(new GetObjectCommand({ Bucket, Key }));
    const body = Buffer.from(await got.Body!.transformToByteArray());
    assert.ok(body.equals(Buffer.concat([part1, part2])));
    assert.equal(got.ContentType, 'application/x-test');
    assert.equal((await s3.send(new ListMultipartUploadsCommand({ Bucket }))).Uploads, undefined);

    // Small non-final parts are refused; an aborted upload is gone.
    const small = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key: 'small-parts' }));
    const s1 = (
      await s3.send(
        new UploadPartCommand({ Bucket, Key: 'small-parts', UploadId: small.UploadId, PartNumber: 1, Body: 'a' }),
      )
    ).ETag!;
    const s2 = (
      await s3.send(
        new UploadPartCommand({ Bucket, Key: 'small-parts', UploadId: small.UploadId, PartNumber: 2, Body: 'b' }),
      )
    ).ETag!;
    await assert.rejects(
      s3.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key: 'small-parts',
          UploadId: small.UploadId,
          MultipartUpload: {
            Parts: [
              { PartNumber: 1, ETag: s1 },
              { PartNumber: 2, ETag: s2 },
            ],
          },
        }),
      ),
      errorName('EntityTooSmall'),
    );
    await s3.send(new AbortMultipartUploadCommand({ Bucket, Key: 'small-parts', UploadId: small.UploadId }));
    await assert.rejects(
      s3.send(new ListPartsCommand({ Bucket, Key: 'small-parts', UploadId: small.UploadId })),
      errorName('NoSuchUpload'),
    );
  });

  it('redirects a bucket addressed through another region, as S3 does', async () => {
    const eu = new S3Client({ region: 'eu-west-1' });
    await eu.send(
      new CreateBucketCommand({ Bucket: 'eu-bucket', CreateBucketConfiguration: { LocationConstraint: 'eu-west-1' } }),
    );
    await assert.rejects(s3.send(new ListObjectsV2Command({ Bucket: 'eu-bucket' })), errorName('PermanentRedirect'));
    const following = new S3Client({ followRegionRedirects: true });
    const listed = await following.send(new ListObjectsV2Command({ Bucket: 'eu-bucket' }));
    assert.equal(listed.Name, 'eu-bucket');
  });

  it('refuses to delete a non-empty bucket, then deletes it once empty', async () => {
    await assert.rejects(s3.send(new DeleteBucketCommand({ Bucket: 'sdk-bucket' })), errorName('BucketNotEmpty'));
    await s3.send(new DeleteObjectCommand({ Bucket: 'sdk-bucket', Key: 'docs/read me.txt' }));
    await s3.send(new DeleteBucketCommand({ Bucket: 'sdk-bucket' }));
    await assert.rejects(s3.send(new HeadBucketCommand({ Bucket: 'sdk-bucket' })), errorName('NotFound'));
  });

  it('works with the aws CLI: mb, cp (single and multipart), ls, rb, rm --recursive', async () => {
    const small = join(workDir, 'hello.txt');
    const large = join(workDir, 'large.bin');
    writeFileSync(small, 'hello from the cli\n');
    const largeBody = Buffer.alloc(9 * 1024 * 1024);
    for (let i = 0; i < largeBody.length; i += 4096) largeBody.writeUInt32BE(i, i);
    writeFileSync(large, largeBody);

    assert.match((await awsText(['s3', 'mb', 's3://cli-bucket'])).stdout, /make_bucket: cli-bucket/);
    const callsBefore = (await sb.calls({ service: 's3' })).length;
    await awsText(['s3', 'cp', small, 's3://cli-bucket/data/hello.txt', '--no-progress']);
    await awsText(['s3', 'cp', large, 's3://cli-bucket/data/blobs/large.bin', '--no-progress']);
    const uploadCalls = (await sb.calls({ service: 's3' })).slice(callsBefore).map((c) => c.operation);
    assert.ok(uploadCalls.includes('PutObject'));
    assert.ok(
      uploadCalls.includes('CreateMultipartUpload') && uploadCalls.includes('CompleteMultipartUpload'),
      uploadCalls.join(','),
    );
    assert.ok(uploadCalls.filter((op) => op === 'UploadPart').length >= 2);

    const buckets = (await awsText(['s3', 'ls'])).stdout
      .trim()
      .split('\n')
      .map((line) => line.split(/\s+/).pop());
    assert.ok(buckets.includes('cli-bucket'));

    const listing = (await awsText(['s3', 'ls', 's3://cli-bucket/data/'])).stdout.trim().split('\n');
    assert.ok(
      listing.some((line) => /^\s*PRE blobs\/$/.test(line)),
      listing.join('\n'),
    );
    const helloLine = listing.find((line) => line.endsWith(' hello.txt'));
    assert.ok(helloLine);
    assert.equal(Number(helloLine.trim().split(/\s+/)[2]), 'hello from the cli\n'.length);

    const head = await s3.send(new HeadObjectCommand({ Bucket: 'cli-bucket', Key: 'data/blobs/large.bin' }));
    assert.equal(head.ContentLength, largeBody.length);
    assert.match(head.ETag!, /^"[0-9a-f]{32}-2"$/);
    const back = join(workDir, 'back.bin');
    await awsText(['s3', 'cp', 's3://cli-bucket/data/blobs/large.bin', back, '--no-progress']);
    assert.ok(readFileSync(back).equals(largeBody));

    const rb = await awsText(['s3', 'rb', 's3://cli-bucket'], true);
    assert.notEqual(rb.code, 0);
    assert.match(rb.stderr, /BucketNotEmpty/);
    const rm = await awsText(['s3', 'rm', 's3://cli-bucket', '--recursive']);
    assert.equal(
      rm.stdout
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('delete:')).length,
      2,
    );
    assert.match((await awsText(['s3', 'rb', 's3://cli-bucket'])).stdout, /remove_bucket: cli-bucket/);
    const gone = await awsText(['s3', 'ls', 's3://cli-bucket'], true);
    assert.match(gone.stderr, /NoSuchBucket/);
  });

  it('keeps objects across a restart and drops their files on reset', async () => {
    await s3.send(new PutObjectCommand({ Bucket: 'list-bucket', Key: 'persisted.txt', Body: 'still here' }));
    await sb.stop();
    const again = await startTestSandbox({ stateDir: sb.stateDir });
    try {
      const client = new S3Client({});
      const got = await client.send(new GetObjectCommand({ Bucket: 'list-bucket', Key: 'persisted.txt' }));
      assert.equal(await got.Body!.transformToString(), 'still here');
      const reset = await again.admin('/_sandbox/reset', { method: 'POST' });
      assert.equal(reset.status, 200);
      assert.deepEqual(
        readdirSync(sb.stateDir).filter((f) => f === 'blobs'),
        [],
      );
      await assert.rejects(client.send(new HeadBucketCommand({ Bucket: 'list-bucket' })), errorName('NotFound'));
      // Uploads after a reset recreate the blob directory.
      await client.send(
        new CreateBucketCommand({
          Bucket: 'after-reset',
          CreateBucketConfiguration: { LocationConstraint: 'us-west-2' },
        }),
      );
      await client.send(new PutObjectCommand({ Bucket: 'after-reset', Key: 'k', Body: 'v' }));
      assert.equal(
        await (await client.send(new GetObjectCommand({ Bucket: 'after-reset', Key: 'k' }))).Body!.transformToString(),
        'v',
      );
    } finally {
      await again.stop();
    }
  });
});
