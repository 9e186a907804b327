import { CreateFileSystemCommand, DeleteFileSystemCommand, DescribeFileSystemsCommand, type FileSystem } from '@aws-sdk/client-fsx';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutBucketTaggingCommand,
  type BucketLocationConstraint,
} from '@aws-sdk/client-s3';
import { TAG_CLUSTER, tagList } from '../../domain/naming.js';
import type { ListObjectsOptions, ObjectPage, StoragePort } from '../ports.js';
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

  async ensureBucket(region: string, bucket: string, tags: Record<string, string>, log: (m: string) => void): Promise<void> {
    const s3 = this.clients.s3(region);
    if (!(await this.bucketExists(region, bucket))) {
      try {
        await awsCall('s3', 'CreateBucket', () =>
          s3.send(
            new CreateBucketCommand({
              Bucket: bucket,
              ...(region === 'us-east-1' ? {} : { CreateBucketConfiguration: { LocationConstraint: region as BucketLocationConstraint } }),
            }),
          ),
        );
        log(`Created S3 bucket ${bucket}`);
      } catch (err) {
        if (!hasCode(err, 'BucketAlreadyOwnedByYou')) throw err;
      }
    }
    await awsCall('s3', 'PutBucketTagging', () => s3.send(new PutBucketTaggingCommand({ Bucket: bucket, Tagging: { TagSet: tagList(tags) } })));
  }

  /** Empties then deletes the bucket; a missing bucket is fine. */
  async deleteBucket(region: string, bucket: string, log: (m: string) => void): Promise<void> {
    const s3 = this.clients.s3(region);
    if (!(await this.bucketExists(region, bucket))) return;
    let token: string | undefined;
    do {
      const page = await awsCall('s3', 'ListObjectsV2', () => s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token })));
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length) await awsCall('s3', 'DeleteObjects', () => s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } })));
      token = page.NextContinuationToken;
    } while (token);
    try {
      await awsCall('s3', 'DeleteBucket', () => s3.send(new DeleteBucketCommand({ Bucket: bucket })));
      log(`Deleted S3 bucket ${bucket}`);
    } catch (err) {
      if (!hasCode(err, 'NoSuchBucket')) throw err;
    }
  }

  /** The cluster's FSx for Lustre file system (found by tag), if any. */
  async findFileSystem(region: string, cluster: string): Promise<FileSystem | undefined> {
    let NextToken: string | undefined;
    do {
      const r = await awsCall('fsx', 'DescribeFileSystems', () => this.clients.fsx(region).send(new DescribeFileSystemsCommand({ NextToken })));
      const mine = r.FileSystems?.find((f) => f.Tags?.some((t) => t.Key === TAG_CLUSTER && t.Value === cluster) && f.Lifecycle !== 'DELETING');
      if (mine) return mine;
      NextToken = r.NextToken;
    } while (NextToken);
    return undefined;
  }

  async createFileSystem(
    region: string,
    cluster: string,
    spec: { subnetId: string; securityGroupId: string; storageCapacityGiB: number; tags: Record<string, string> },
  ): Promise<FileSystem> {
    const r = await awsCall('fsx', 'CreateFileSystem', () =>
      this.clients.fsx(region).send(
        new CreateFileSystemCommand({
          FileSystemType: 'LUSTRE',
          StorageCapacity: spec.storageCapacityGiB,
          SubnetIds: [spec.subnetId],
          SecurityGroupIds: [spec.securityGroupId],
          LustreConfiguration: { DeploymentType: 'PERSISTENT_2', PerUnitStorageThroughput: 250, DataCompressionType: 'LZ4' },
          Tags: tagList(spec.tags),
          ClientRequestToken: `instantstart-${cluster}-fsx`,
        }),
      ),
    );
    return r.FileSystem!;
  }

  async describeFileSystem(region: string, id: string): Promise<FileSystem | undefined> {
    try {
      const r = await awsCall('fsx', 'DescribeFileSystems', () => this.clients.fsx(region).send(new DescribeFileSystemsCommand({ FileSystemIds: [id] })));
      return r.FileSystems?.[0];
    } catch (err) {
      if (hasCode(err, 'FileSystemNotFound')) return undefined;
      throw err;
    }
  }

  async deleteFileSystem(region: string, id: string): Promise<void> {
    try {
      await awsCall('fsx', 'DeleteFileSystem', () => this.clients.fsx(region).send(new DeleteFileSystemCommand({ FileSystemId: id })));
    } catch (err) {
      if (!hasCode(err, 'FileSystemNotFound')) throw err;
    }
  }

  /** One page of ListObjectsV2 (keys in key order); a missing bucket is S3's NoSuchBucket error. */
  async listObjects(region: string, bucket: string, options: ListObjectsOptions = {}): Promise<ObjectPage> {
    const r = await awsCall('s3', 'ListObjectsV2', () =>
      this.clients.s3(region).send(
        new ListObjectsV2Command({
          Bucket: bucket,
          ...(options.prefix ? { Prefix: options.prefix } : {}),
          ...(options.delimiter ? { Delimiter: options.delimiter } : {}),
          ...(options.continuationToken ? { ContinuationToken: options.continuationToken } : {}),
          ...(options.maxKeys ? { MaxKeys: options.maxKeys } : {}),
        }),
      ),
    );
    return {
      objects: (r.Contents ?? []).map((o) => ({ key: o.Key!, size: o.Size ?? 0, ...(o.LastModified ? { lastModified: o.LastModified.toISOString() } : {}) })),
      commonPrefixes: (r.CommonPrefixes ?? []).map((p) => p.Prefix!).filter(Boolean),
      ...(r.IsTruncated && r.NextContinuationToken ? { nextToken: r.NextContinuationToken } : {}),
    };
  }
}
