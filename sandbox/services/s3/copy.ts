import type { RawHttpResponse, RequestContext } from '../../core/service.js';
import { requireBucket } from './access.js';
import { copyBlob, readBlob } from './blobs.js';
import { md5Hex } from './checksums.js';
import { evaluateReadConditions } from './conditions.js';
import { invalidArgument, invalidRequest, noSuchBucket, noSuchKey, preconditionFailed } from './errors.js';
import { header, xmlResponse, type S3Request } from './http.js';
import { assertValidKey } from './names.js';
import { findObject, storeObject } from './objects.js';
import { checkUploadHeaders, representationFromRequest, representationOf } from './representation.js';
import { peekBucket, type StoredObject } from './state.js';

/** CopyObject, and the source side of UploadPartCopy (`x-amz-copy-source`). */

const COPY_CONDITIONS = {
  ifMatch: 'x-amz-copy-source-if-match',
  ifNoneMatch: 'x-amz-copy-source-if-none-match',
  ifModifiedSince: 'x-amz-copy-source-if-modified-since',
  ifUnmodifiedSince: 'x-amz-copy-source-if-unmodified-since',
};

/**
 * Resolves `x-amz-copy-source: [/]bucket/key[?versionId=…]` (URL-encoded) to the source object,
 * checking the copy-source preconditions. Source buckets may be in any region, as on S3.
 */
export function resolveCopySource(req: S3Request, ctx: RequestContext): { bucket: string; object: StoredObject } {
  const rawSource = header(req.raw, 'x-amz-copy-source') ?? '';
  const [pathPart, queryPart] = rawSource.split('?', 2) as [string, string | undefined];
  let path: string;
  try {
    path = decodeURIComponent(pathPart).replace(/^\//, '');
  } catch {
    throw invalidArgument('Invalid copy source encoding', 'x-amz-copy-source', rawSource);
  }
  const slash = path.indexOf('/');
  if (slash <= 0 || slash === path.length - 1) {
    throw invalidArgument(
      'Copy Source must mention the source bucket and key: sourcebucket/sourcekey',
      'x-amz-copy-source',
      rawSource,
    );
  }
  const versionId = queryPart ? new URLSearchParams(queryPart).get('versionId') : null;
  if (versionId !== null && versionId !== 'null')
    throw invalidArgument('Invalid version id specified', 'x-amz-copy-source', rawSource);
  const bucketName = path.slice(0, slash);
  const key = path.slice(slash + 1);
  const bucket = peekBucket(ctx.state, bucketName);
  if (!bucket) throw noSuchBucket(bucketName);
  const object = findObject(bucket, key);
  if (!object) throw noSuchKey(key);
  // For copies a 304 condition is also a failed precondition: there is no "not modified" copy.
  if (evaluateReadConditions(req.raw, object, COPY_CONDITIONS) === 'not-modified') {
    throw preconditionFailed('x-amz-copy-source-If-None-Match');
  }
  return { bucket: bucketName, object };
}

export function copyObject(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  assertValidKey(req.key);
  const source = resolveCopySource(req, ctx);
  const directive = header(req.raw, 'x-amz-metadata-directive') ?? 'COPY';
  if (directive !== 'COPY' && directive !== 'REPLACE')
    throw invalidArgument('Unknown metadata directive.', 'x-amz-metadata-directive', directive);
  checkUploadHeaders(req.raw);
  if (source.bucket === req.bucket && source.object.key === req.key && directive === 'COPY') {
    throw invalidRequest(
      "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
    );
  }
  const representation = directive === 'REPLACE' ? representationFromRequest(req.raw) : representationOf(source.object);
  // A copy is a new single-part object: its ETag is the MD5 of its bytes, even when the source was multipart.
  const etag = source.object.etag.includes('-')
    ? `"${md5Hex(readBlob(ctx.runtime, source.object.blob))}"`
    : source.object.etag;
  const blob = copyBlob(ctx.runtime, source.object.blob);
  const lastModified = ctx.now();
  storeObject(ctx, bucket, { key: req.key, size: source.object.size, etag, lastModified, ...representation, blob });
  const response = xmlResponse(ctx.requestId, 'CopyObjectResult', { ETag: etag, LastModified: new Date(lastModified) });
  response.headers!['x-amz-server-side-encryption'] = 'AES256';
  return response;
}
