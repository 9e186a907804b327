import { keyed } from '../../core/keyed.js';
import { randomBytes } from 'node:crypto';
import { AwsError } from '../../core/errors.js';
import type { RawHttpResponse, RequestContext } from '../../core/service.js';
import { requireBucket } from './access.js';
import { concatBlobs, readBlobRange, removeBlob, writeBlob } from './blobs.js';
import { md5Hex, verifyIntegrityHeaders } from './checksums.js';
import { evaluateWriteConditions } from './conditions.js';
import { resolveCopySource } from './copy.js';
import { invalidArgument, malformedXml, noSuchUpload } from './errors.js';
import { emptyResponse, header, xmlResponse, type S3Request } from './http.js';
import { assertValidKey } from './names.js';
import { findObject, storeObject } from './objects.js';
import { checkUploadHeaders, representationFromRequest } from './representation.js';
import type { StoredBucket, StoredUpload } from './state.js';
import { childNodes, childText, parseXmlBody } from './xml-input.js';

/**
 * Multipart upload: CreateMultipartUpload, UploadPart(Copy), CompleteMultipartUpload,
 * AbortMultipartUpload. Parts are separate blobs until completion joins the listed ones; the
 * object's ETag is then the MD5 of the parts' binary MD5s, suffixed with the part count.
 */
const MIN_PART_BYTES = 5 * 1024 * 1024;
const MAX_PART_NUMBER = 10000;

export function requireUpload(bucket: StoredBucket, key: string, uploadId: string | null): StoredUpload {
  const upload = uploadId !== null ? keyed.get(bucket.uploads, uploadId) : undefined;
  if (!upload || upload.key !== key) throw noSuchUpload(uploadId ?? '');
  return upload;
}

export function createMultipartUpload(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  assertValidKey(req.key);
  checkUploadHeaders(req.raw);
  const representation = representationFromRequest(req.raw);
  const uploadId = randomBytes(48).toString('base64url');
  keyed.set(bucket.uploads, uploadId, { uploadId, key: req.key, initiated: ctx.now(), ...representation, parts: {} });
  return xmlResponse(ctx.requestId, 'InitiateMultipartUploadResult', {
    Bucket: bucket.name,
    Key: req.key,
    UploadId: uploadId,
  });
}

function readPartNumber(req: S3Request): number {
  const text = req.raw.query.get('partNumber') ?? '';
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_PART_NUMBER) {
    throw invalidArgument(
      `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive`,
      'partNumber',
      text,
    );
  }
  return n;
}

function storePart(ctx: RequestContext, upload: StoredUpload, partNumber: number, data: Buffer): string {
  const etag = `"${md5Hex(data)}"`;
  const blob = writeBlob(ctx.runtime, data);
  const previous = keyed.get(upload.parts, String(partNumber));
  keyed.set(upload.parts, String(partNumber), { partNumber, size: data.length, etag, lastModified: ctx.now(), blob });
  if (previous) removeBlob(ctx.runtime, previous.blob);
  return etag;
}

export function uploadPart(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  const partNumber = readPartNumber(req);
  const upload = requireUpload(bucket, req.key, req.raw.query.get('uploadId'));
  verifyIntegrityHeaders(req.raw, req.raw.body);
  const etag = storePart(ctx, upload, partNumber, req.raw.body);
  return emptyResponse(ctx.requestId, 200, { etag, 'x-amz-server-side-encryption': 'AES256' });
}

/** UploadPartCopy: the part's bytes come from an existing object, optionally a byte range of it. */
export function uploadPartCopy(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  const partNumber = readPartNumber(req);
  const upload = requireUpload(bucket, req.key, req.raw.query.get('uploadId'));
  const source = resolveCopySource(req, ctx).object;
  const rangeText = header(req.raw, 'x-amz-copy-source-range');
  let start = 0;
  let end = source.size - 1;
  if (rangeText !== undefined) {
    const m = /^bytes=(\d+)-(\d+)$/.exec(rangeText.trim());
    if (!m) {
      throw invalidArgument(
        'The x-amz-copy-source-range value must be of the form bytes=first-last where first and last are the zero-based offsets of the first and last bytes to copy',
        'x-amz-copy-source-range',
        rangeText,
      );
    }
    start = Number(m[1]);
    end = Number(m[2]);
    if (start > end || end >= source.size) {
      throw invalidArgument(
        `Range specified is not valid for source object of size: ${source.size}`,
        'x-amz-copy-source-range',
        rangeText,
      );
    }
  }
  const data = source.size === 0 ? Buffer.alloc(0) : readBlobRange(ctx.runtime, source.blob, start, end);
  const etag = storePart(ctx, upload, partNumber, data);
  return xmlResponse(ctx.requestId, 'CopyPartResult', {
    ETag: etag,
    LastModified: new Date(keyed.get(upload.parts, String(partNumber))!.lastModified),
  });
}

const unquote = (etag: string) => etag.trim().replace(/^"|"$/g, '');

export function completeMultipartUpload(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  const upload = requireUpload(bucket, req.key, req.raw.query.get('uploadId'));
  const doc = parseXmlBody(req.raw.body, 'CompleteMultipartUpload');
  const listed = childNodes(doc, 'Part').map((node) => {
    const numberText = childText(node, 'PartNumber')?.trim() ?? '';
    const etag = childText(node, 'ETag');
    if (!/^\d+$/.test(numberText) || etag === undefined) throw malformedXml();
    return { partNumber: Number(numberText), etag };
  });
  if (listed.length === 0) throw malformedXml();
  for (let i = 1; i < listed.length; i++) {
    if (listed[i]!.partNumber <= listed[i - 1]!.partNumber) {
      throw new AwsError(
        'InvalidPartOrder',
        'The list of parts was not in ascending order. Parts must be ordered by part number.',
        400,
        { UploadId: upload.uploadId },
      );
    }
  }
  const parts = listed.map(({ partNumber, etag }) => {
    const part = keyed.get(upload.parts, String(partNumber));
    if (!part || unquote(part.etag) !== unquote(etag)) {
      throw new AwsError(
        'InvalidPart',
        "One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not have matched the part's entity tag.",
        400,
        { UploadId: upload.uploadId, PartNumber: String(partNumber), ETag: etag },
      );
    }
    return part;
  });
  parts.slice(0, -1).forEach((part) => {
    if (part.size < MIN_PART_BYTES) {
      throw new AwsError(
        'EntityTooSmall',
        'Your proposed upload is smaller than the minimum allowed object size.',
        400,
        {
          ProposedSize: String(part.size),
          MinSizeAllowed: String(MIN_PART_BYTES),
          PartNumber: String(part.partNumber),
          ETag: part.etag,
        },
      );
    }
  });
  evaluateWriteConditions(req.raw, findObject(bucket, req.key), req.key);

  const digests = Buffer.concat(parts.map((p) => Buffer.from(unquote(p.etag), 'hex')));
  const etag = `"${md5Hex(digests)}-${parts.length}"`;
  const blob = concatBlobs(
    ctx.runtime,
    parts.map((p) => p.blob),
  );
  const { uploadId: _id, key, initiated: _initiated, parts: allParts, ...representation } = upload;
  storeObject(ctx, bucket, {
    key,
    size: parts.reduce((n, p) => n + p.size, 0),
    etag,
    lastModified: ctx.now(),
    ...representation,
    blob,
  });
  keyed.delete(bucket.uploads, upload.uploadId);
  // Parts uploaded but left out of the list are discarded, as on S3.
  for (const part of keyed.values(allParts)) removeBlob(ctx.runtime, part.blob);
  const location = `${ctx.runtime.endpointUrl}/${encodeURIComponent(bucket.name)}/${key.split('/').map(encodeURIComponent).join('/')}`;
  const response = xmlResponse(ctx.requestId, 'CompleteMultipartUploadResult', {
    Location: location,
    Bucket: bucket.name,
    Key: key,
    ETag: etag,
  });
  response.headers!['x-amz-server-side-encryption'] = 'AES256';
  return response;
}

export function abortMultipartUpload(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  const upload = requireUpload(bucket, req.key, req.raw.query.get('uploadId'));
  keyed.delete(bucket.uploads, upload.uploadId);
  for (const part of keyed.values(upload.parts)) removeBlob(ctx.runtime, part.blob);
  return emptyResponse(ctx.requestId, 204);
}
