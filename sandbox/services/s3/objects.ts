import { keyed } from '../../core/keyed.js';
import { AwsError } from '../../core/errors.js';
import type { RawHttpResponse, RequestContext } from '../../core/service.js';
import { requireBucket } from './access.js';
import { readBlob, readBlobRange, removeBlob, writeBlob } from './blobs.js';
import { md5Hex, verifyIntegrityHeaders } from './checksums.js';
import { evaluateReadConditions, evaluateWriteConditions } from './conditions.js';
import { noSuchKey, notImplemented } from './errors.js';
import { baseHeaders, emptyResponse, header, type S3Request } from './http.js';
import { assertValidKey } from './names.js';
import { checkUploadHeaders, representationFromRequest, representationHeaders } from './representation.js';
import type { StoredBucket, StoredObject } from './state.js';

/** Single-object operations: PutObject, GetObject, HeadObject, DeleteObject. */

/** Replaces (or adds) an object; the old body's file goes once the state no longer points at it. */
export function storeObject(ctx: RequestContext, bucket: StoredBucket, object: StoredObject): void {
  const previous = keyed.get(bucket.objects, object.key);
  keyed.set(bucket.objects, object.key, object);
  if (previous && previous.blob !== object.blob) removeBlob(ctx.runtime, previous.blob);
}

export function findObject(bucket: StoredBucket, key: string): StoredObject | undefined {
  return keyed.get(bucket.objects, key);
}

export function putObject(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  assertValidKey(req.key);
  checkUploadHeaders(req.raw);
  const representation = representationFromRequest(req.raw);
  const body = req.raw.body;
  verifyIntegrityHeaders(req.raw, body);
  evaluateWriteConditions(req.raw, findObject(bucket, req.key), req.key);
  const etag = `"${md5Hex(body)}"`;
  const blob = writeBlob(ctx.runtime, body);
  storeObject(ctx, bucket, { key: req.key, size: body.length, etag, lastModified: ctx.now(), ...representation, blob });
  return emptyResponse(ctx.requestId, 200, { etag, 'x-amz-server-side-encryption': 'AES256' });
}

type ByteRange = { start: number; end: number };

/**
 * `Range: bytes=a-b | a- | -n` (one range; S3 serves no multi-range). Syntactically invalid ranges
 * are ignored (the whole object is sent); unsatisfiable ones are 416 InvalidRange.
 */
function parseRange(text: string | undefined, size: number): ByteRange | undefined {
  if (text === undefined) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(text.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  const unsatisfiable = () =>
    new AwsError('InvalidRange', 'The requested range is not satisfiable', 416, {
      RangeRequested: text,
      ActualObjectSize: String(size),
    });
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) throw unsatisfiable();
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Number(m[2]);
  if (end < start) return undefined;
  if (start >= size) throw unsatisfiable();
  return { start, end: Math.min(end, size - 1) };
}

function readObject(req: S3Request, ctx: RequestContext, withBody: boolean): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  if (req.raw.query.has('partNumber')) throw notImplemented('GetObject/HeadObject by partNumber');
  const object = findObject(bucket, req.key);
  if (!object) throw noSuchKey(req.key);
  const headers = {
    ...baseHeaders(ctx.requestId),
    ...representationHeaders(object, withBody ? req.raw.query : new URLSearchParams()),
  };
  if (evaluateReadConditions(req.raw, object) === 'not-modified') {
    return {
      status: 304,
      headers: { ...baseHeaders(ctx.requestId), etag: object.etag, 'last-modified': headers['last-modified']! },
    };
  }
  const range = parseRange(header(req.raw, 'range'), object.size);
  if (range) {
    headers['content-range'] = `bytes ${range.start}-${range.end}/${object.size}`;
    headers['content-length'] = String(range.end - range.start + 1);
    return {
      status: 206,
      headers,
      ...(withBody ? { body: readBlobRange(ctx.runtime, object.blob, range.start, range.end) } : {}),
    };
  }
  headers['content-length'] = String(object.size);
  return {
    status: 200,
    headers,
    ...(withBody ? { body: object.size === 0 ? Buffer.alloc(0) : readBlob(ctx.runtime, object.blob) } : {}),
  };
}

export const getObject = (req: S3Request, ctx: RequestContext) => readObject(req, ctx, true);
export const headObject = (req: S3Request, ctx: RequestContext) => readObject(req, ctx, false);

/** Idempotent, as on an unversioned bucket: deleting a missing key is a 204 too. */
export function deleteObject(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  const object = findObject(bucket, req.key);
  if (object) {
    keyed.delete(bucket.objects, req.key);
    removeBlob(ctx.runtime, object.blob);
  }
  return emptyResponse(ctx.requestId, 204);
}
