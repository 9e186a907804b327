import { keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';
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
