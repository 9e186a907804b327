import type { Log } from './log.js';

/** S3 buckets and objects: a cluster's bucket, a storage's data, a model download's target. */

/** What HeadBucket says of a bucket: reachable (with its Region when S3 tells), missing, or refused to us (another account's, or no permission). */
export type BucketProbe = { state: 'reachable'; region?: string } | { state: 'missing' } | { state: 'forbidden' };

/** One page of ListObjectsV2 with a delimiter: the common prefixes (folders) and the objects. */
export interface ObjectPage {
  folders: string[];
  objects: Array<{ key: string; size: number; lastModified?: string }>;
  nextToken?: string;
}

export interface ListObjectsOptions {
  prefix?: string;
  /** `/` groups keys below the prefix into commonPrefixes (folders). */
  delimiter?: string;
  continuationToken?: string;
  /** Keys per page (S3's default and maximum: 1000). */
  maxKeys?: number;
}

export interface S3Port {
  bucketExists(region: string, bucket: string): Promise<boolean>;
  probeBucket(region: string, bucket: string): Promise<BucketProbe>;
  /** The bucket's tags ({} when it has none); undefined when there is no such bucket. */
  bucketTags(region: string, bucket: string): Promise<Record<string, string> | undefined>;
  /** Creates the bucket when missing, then puts its tags (two calls: a crash between them leaves it untagged — observe with bucketTags). */
  ensureBucket(region: string, bucket: string, tags: Record<string, string>, log: Log): Promise<void>;
  deleteBucket(region: string, bucket: string, log: Log): Promise<void>;
  /** Deletes every object under a prefix (all pages); the count deleted. */
  deletePrefix(region: string, bucket: string, prefix: string, log: Log): Promise<number>;
  /** One page of ListObjectsV2 of a bucket (`region`: the bucket's own). */
  listObjects(region: string, bucket: string, options?: ListObjectsOptions): Promise<ObjectPage>;
}
