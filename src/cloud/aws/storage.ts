import { CreateFileSystemCommand, DeleteFileSystemCommand, DescribeFileSystemsCommand } from '@aws-sdk/client-fsx';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  GetBucketTaggingCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutBucketTaggingCommand,
  type BucketLocationConstraint,
} from '@aws-sdk/client-s3';
import { CloudError } from '../../domain/errors.js';
import { TAG_CLUSTER, TAG_PART, tagList } from '../../domain/naming.js';
import type { BucketProbe, FsxFileSystem, ListObjectsOptions, ObjectPage, StoragePort } from '../ports.js';
import type { AwsClients } from './clients.js';
import { awsCall, hasCode } from './errors.js';

/** The shared S3 bucket and the optional FSx for Lustre file system of a cluster. */
export class StorageAdapter implements StoragePort {
  constructor(private readonly clients: AwsClients) {}

  async bucketExists(region: string, bucket: string): Promise<boolean> {
    try {
      await awsCall('s3', 'HeadBucket', () => this.clients.s3(region).send(new HeadBucketCommand({ Bucket: bucket })));
      return true;
    } catch (err) {
      if (hasCode(err, 'NotFound', 'NoSuchBucket')) return false;
      throw err;
    }
  }

  /** GetBucketTagging: the bucket's tags ({} when it has none), undefined when there is no such bucket. */
  async bucketTags(region: string, bucket: string): Promise<Record<string, string> | undefined> {
    try {
      const r = await awsCall('s3', 'GetBucketTagging', () =>
        this.clients.s3(region).send(new GetBucketTaggingCommand({ Bucket: bucket })),
      );
      return Object.fromEntries(
        (r.TagSet ?? []).filter((t) => t.Key !== undefined).map((t) => [t.Key!, t.Value ?? '']),
      );
    } catch (err) {
      if (hasCode(err, 'NoSuchTagSet')) return {};
      if (hasCode(err, 'NotFound', 'NoSuchBucket')) return undefined;
      throw err;
    }
  }

  /**
   * HeadBucket: 404 is missing; 403 is a bucket that exists but is not ours to use (another account's,
   * or our credentials lack s3:ListBucket on it); its Region comes from the x-amz-bucket-region header.
   */
  async probeBucket(region: string, bucket: string): Promise<BucketProbe> {
    try {
      const r = await awsCall('s3', 'HeadBucket', () =>
        this.clients.s3(region).send(new HeadBucketCommand({ Bucket: bucket })),
      );
      return { state: 'reachable', ...(r.BucketRegion ? { region: r.BucketRegion } : {}) };
    } catch (err) {
      if (hasCode(err, 'NotFound', 'NoSuchBucket')) return { state: 'missing' };
      if (hasCode(err, 'Forbidden', 'AccessDenied', '403') || (err instanceof CloudError && err.httpStatus === 403))
        return { state: 'forbidden' };
      throw err;
    }
  }

  async listObjects(region: string, bucket: string, options: ListObjectsOptions = {}): Promise<ObjectPage> {
    const page = await awsCall('s3', 'ListObjectsV2', () =>
      this.clients.s3(region).send(
        new ListObjectsV2Command({
          Bucket: bucket,
          Prefix: options.prefix || undefined,
          Delimiter: options.delimiter,
          ContinuationToken: options.continuationToken,
          MaxKeys: options.maxKeys,
        }),
      ),
    );
    return {
      folders: (page.CommonPrefixes ?? []).map((p) => p.Prefix!).filter(Boolean),
      objects: (page.Contents ?? []).map((o) => ({
        key: o.Key!,
        size: o.Size ?? 0,
        ...(o.LastModified ? { lastModified: o.LastModified.toISOString() } : {}),
      })),
      ...(page.IsTruncated && page.NextContinuationToken ? { nextToken: page.NextContinuationToken } : {}),
    };
  }

  /**
   * The bucket, created with its tags in the CreateBucket request itself (so no crash can leave it
   * untagged, hence unfindable by the delete); a bucket that already exists gets them put.
   */
  async ensureBucket(
    region: string,
    bucket: string,
    tags: Record<string, string>,
    log: (m: string) => void,
  ): Promise<void> {
    const s3 = this.clients.s3(region);
    if (!(await this.bucketExists(region, bucket))) {
      try {
        await awsCall('s3', 'CreateBucket', () =>
          s3.send(
            new CreateBucketCommand({
              Bucket: bucket,
              CreateBucketConfiguration: {
                ...(region === 'us-east-1' ? {} : { LocationConstraint: region as BucketLocationConstraint }),
                Tags: tagList(tags),
              },
            }),
          ),
        );
        log(`Created S3 bucket ${bucket}`);
        return;
      } catch (err) {
        if (!hasCode(err, 'BucketAlreadyOwnedByYou')) throw err;
      }
    }
    await awsCall('s3', 'PutBucketTagging', () =>
      s3.send(new PutBucketTaggingCommand({ Bucket: bucket, Tagging: { TagSet: tagList(tags) } })),
    );
  }

  /** Empties then deletes the bucket; a missing bucket is fine. */
  async deleteBucket(region: string, bucket: string, log: (m: string) => void): Promise<void> {
    const s3 = this.clients.s3(region);
    if (!(await this.bucketExists(region, bucket))) return;
    await this.deletePrefix(region, bucket, '', log);
    try {
      await awsCall('s3', 'DeleteBucket', () => s3.send(new DeleteBucketCommand({ Bucket: bucket })));
      log(`Deleted S3 bucket ${bucket}`);
    } catch (err) {
      if (!hasCode(err, 'NoSuchBucket')) throw err;
    }
  }

  /** Deletes the objects under a prefix, a page (up to 1000) per DeleteObjects; the count deleted. */
  async deletePrefix(region: string, bucket: string, prefix: string, log: (m: string) => void): Promise<number> {
    const s3 = this.clients.s3(region);
    let token: string | undefined;
    let deleted = 0;
    do {
      const page = await awsCall('s3', 'ListObjectsV2', () =>
        s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, ContinuationToken: token })),
      );
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length)
        await awsCall('s3', 'DeleteObjects', () =>
          s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } })),
        );
      deleted += keys.length;
      token = page.NextContinuationToken;
    } while (token);
    if (prefix && deleted) log(`Deleted ${deleted} object(s) under s3://${bucket}/${prefix}`);
    return deleted;
  }

  /** A FSx for Lustre file system of the cluster (found by tag; with `part`, that part of it), if any. */
  async findFileSystem(region: string, cluster: string, part?: string): Promise<FsxFileSystem | undefined> {
    const tagged = (f: FsxFileSystem, key: string, value: string) =>
      f.Tags?.some((t) => t.Key === key && t.Value === value) ?? false;
    let NextToken: string | undefined;
    do {
      const r = await awsCall('fsx', 'DescribeFileSystems', () =>
        this.clients.fsx(region).send(new DescribeFileSystemsCommand({ NextToken })),
      );
      const mine = r.FileSystems?.find(
        (f) =>
          tagged(f, TAG_CLUSTER, cluster) &&
          (part === undefined || tagged(f, TAG_PART, part)) &&
          f.Lifecycle !== 'DELETING',
      );
      if (mine) return mine;
      NextToken = r.NextToken;
    } while (NextToken);
    return undefined;
  }

  async createFileSystem(
    region: string,
    cluster: string,
    spec: {
      subnetId: string;
      securityGroupId: string;
      storageCapacityGiB: number;
      tags: Record<string, string>;
      clientToken?: string;
    },
  ): Promise<FsxFileSystem> {
    const r = await awsCall('fsx', 'CreateFileSystem', () =>
      this.clients.fsx(region).send(
        new CreateFileSystemCommand({
          FileSystemType: 'LUSTRE',
          StorageCapacity: spec.storageCapacityGiB,
          SubnetIds: [spec.subnetId],
          SecurityGroupIds: [spec.securityGroupId],
          LustreConfiguration: {
            DeploymentType: 'PERSISTENT_2',
            PerUnitStorageThroughput: 250,
            DataCompressionType: 'LZ4',
          },
          Tags: tagList(spec.tags),
          ClientRequestToken: spec.clientToken ?? `instantstart-${cluster}-fsx`,
        }),
      ),
    );
    return r.FileSystem!;
  }

  async describeFileSystem(region: string, id: string): Promise<FsxFileSystem | undefined> {
    try {
      const r = await awsCall('fsx', 'DescribeFileSystems', () =>
        this.clients.fsx(region).send(new DescribeFileSystemsCommand({ FileSystemIds: [id] })),
      );
      return r.FileSystems?.[0];
    } catch (err) {
      if (hasCode(err, 'FileSystemNotFound')) return undefined;
      throw err;
    }
  }

  async deleteFileSystem(region: string, id: string): Promise<void> {
    try {
      await awsCall('fsx', 'DeleteFileSystem', () =>
        this.clients.fsx(region).send(new DeleteFileSystemCommand({ FileSystemId: id })),
      );
    } catch (err) {
      if (!hasCode(err, 'FileSystemNotFound')) throw err;
    }
  }
}
