import { keyed, type Keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';

/**
 * S3 state. Bucket names are one global namespace (a bucket lives in one region but no other
 * region can reuse its name), so buckets are keyed by name, not by region. Object bodies are files
 * in the runtime's blob directory; only their metadata lives here.
 */
/** What S3 keeps about an object besides its bytes; an upload carries it until it completes. */
export interface StoredRepresentation {
  contentType: string;
  /** `x-amz-meta-*` headers, names lower-cased without the prefix. */
  metadata: Record<string, string>;
  /** Other representation headers S3 stores and returns as sent. */
  contentEncoding?: string;
  contentDisposition?: string;
  contentLanguage?: string;
  cacheControl?: string;
}

export interface StoredObject extends StoredRepresentation {
  key: string;
  size: number;
  /** Quoted, as S3 sends it: `"<md5>"` or `"<md5-of-md5s>-N"` for multipart uploads. */
  etag: string;
  lastModified: number;
  /** File name inside the blob directory. */
  blob: string;
}

export interface StoredPart {
  partNumber: number;
  size: number;
  etag: string;
  lastModified: number;
  blob: string;
}

export interface StoredUpload extends StoredRepresentation {
  uploadId: string;
  key: string;
  initiated: number;
  /** By part number. */
  parts: Keyed<StoredPart>;
}

export interface StoredBucket {
  name: string;
  region: string;
  createdAt: number;
  tags?: Keyed<string>;
  objects: Keyed<StoredObject>;
  uploads: Keyed<StoredUpload>;
}

export interface S3State {
  buckets: Keyed<StoredBucket>;
}

export function s3State(state: SandboxState): S3State {
  return ((state.s3 as S3State | undefined) ??= { buckets: {} });
}

/** Reads without creating the section, so read-only calls leave the state document as it was. */
export function peekBucket(state: SandboxState, name: string): StoredBucket | undefined {
  return keyed.get((state.s3 as S3State | undefined)?.buckets, name);
}

/** Every bucket (all regions: one namespace), without creating the section. */
export function allBuckets(state: SandboxState): StoredBucket[] {
  return keyed.values((state.s3 as S3State | undefined)?.buckets);
}
