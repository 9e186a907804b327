import { keyed } from '../../core/keyed.js';
import type { SandboxRuntime } from '../../core/service.js';
import type { SandboxState } from '../../core/store.js';
import { removeBlob, writeBlob } from './blobs.js';
import { md5Hex } from './checksums.js';
import { peekBucket } from './state.js';

/** Cross-service view of S3 (buckets are global: one namespace across regions). */
export function bucketExists(state: SandboxState, bucket: string): boolean {
  return peekBucket(state, bucket) !== undefined;
}

/** The Region a bucket lives in; undefined when there is no such bucket. */
export function bucketRegion(state: SandboxState, bucket: string): string | undefined {
  return peekBucket(state, bucket)?.region;
}

export function objectExists(state: SandboxState, bucket: string, key: string): boolean {
  const b = peekBucket(state, bucket);
  return keyed.has(b?.objects, key);
}

/**
 * Writes an object as a client outside the S3 API would through Mountpoint (a container writing a
 * file on an S3 volume): same metadata as a PutObject of those bytes. False when the bucket is gone.
 */
export function writeObject(
  runtime: SandboxRuntime,
  state: SandboxState,
  bucketName: string,
  key: string,
  body: Buffer,
  now: number,
): boolean {
  const bucket = peekBucket(state, bucketName);
  if (!bucket) return false;
  const blob = writeBlob(runtime, body);
  const previous = keyed.get(bucket.objects, key);
  keyed.set(bucket.objects, key, {
    key,
    size: body.length,
    etag: `"${md5Hex(body)}"`,
    lastModified: now,
    contentType: 'application/octet-stream',
    metadata: {},
    blob,
  });
  if (previous && previous.blob !== blob) removeBlob(runtime, previous.blob);
  runtime.store.markDirty();
  return true;
}
