import { AwsError } from '../../core/errors.js';
import type { RawHttpRequest, RawHttpResponse, RequestContext, RestXmlResolver } from '../../core/service.js';
import { deleteObjects } from './batch-delete.js';
import {
  createBucket,
  deleteBucket,
  deleteBucketTagging,
  getBucketLocation,
  getBucketTagging,
  headBucket,
  listBuckets,
  putBucketTagging,
} from './buckets.js';
import { copyObject } from './copy.js';
import { header, type S3Request } from './http.js';
import { listObjects, listObjectsV2 } from './listing.js';
import { listMultipartUploads, listParts } from './multipart-listing.js';
import {
  abortMultipartUpload,
  completeMultipartUpload,
  createMultipartUpload,
  uploadPart,
  uploadPartCopy,
} from './multipart.js';
import { deleteObject, getObject, headObject, putObject } from './objects.js';

/**
 * Path-style S3 addressing: `/` is the service, `/bucket` a bucket, `/bucket/key…` an object. The
 * operation follows from the method, the level and the sub-resource in the query (`?uploads`,
 * `?tagging`, …). Sub-resources the sandbox does not implement resolve to nothing, which the
 * server answers with S3's 501 NotImplemented.
 */
type Handler = (req: S3Request, ctx: RequestContext) => RawHttpResponse;

const UNSUPPORTED_SUBRESOURCES = [
  'accelerate',
  'acl',
  'analytics',
  'attributes',
  'cors',
  'encryption',
  'intelligent-tiering',
  'inventory',
  'legal-hold',
  'lifecycle',
  'logging',
  'metadataConfiguration',
  'metrics',
  'notification',
  'object-lock',
  'ownershipControls',
  'policy',
  'policyStatus',
  'publicAccessBlock',
  'renameObject',
  'replication',
  'requestPayment',
  'restore',
  'retention',
  'select',
  'session',
  'torrent',
  'versioning',
  'versions',
  'website',
];

function pick(
  method: string,
  level: 'service' | 'bucket' | 'object',
  q: URLSearchParams,
  raw: RawHttpRequest,
): [string, Handler] | undefined {
  if (UNSUPPORTED_SUBRESOURCES.some((s) => q.has(s))) return undefined;
  const copying = header(raw, 'x-amz-copy-source') !== undefined;
  if (level === 'service') return method === 'GET' ? ['ListBuckets', listBuckets] : undefined;
  if (level === 'bucket') {
    switch (method) {
      case 'GET':
        if (q.has('location')) return ['GetBucketLocation', getBucketLocation];
        if (q.has('tagging')) return ['GetBucketTagging', getBucketTagging];
        if (q.has('uploads')) return ['ListMultipartUploads', listMultipartUploads];
        if (q.has('list-type')) return q.get('list-type') === '2' ? ['ListObjectsV2', listObjectsV2] : undefined;
        return ['ListObjects', listObjects];
      case 'PUT':
        return q.has('tagging') ? ['PutBucketTagging', putBucketTagging] : ['CreateBucket', createBucket];
      case 'DELETE':
        return q.has('tagging') ? ['DeleteBucketTagging', deleteBucketTagging] : ['DeleteBucket', deleteBucket];
      case 'HEAD':
        return ['HeadBucket', headBucket];
      case 'POST':
        return q.has('delete') ? ['DeleteObjects', deleteObjects] : undefined;
      default:
        return undefined;
    }
  }
  if (q.has('tagging')) return undefined; // object tagging is not implemented
  switch (method) {
    case 'PUT':
      if (q.has('uploadId') || q.has('partNumber'))
        return copying ? ['UploadPartCopy', uploadPartCopy] : ['UploadPart', uploadPart];
      return copying ? ['CopyObject', copyObject] : ['PutObject', putObject];
    case 'GET':
      return q.has('uploadId') ? ['ListParts', listParts] : ['GetObject', getObject];
    case 'HEAD':
      return ['HeadObject', headObject];
    case 'DELETE':
      return q.has('uploadId') ? ['AbortMultipartUpload', abortMultipartUpload] : ['DeleteObject', deleteObject];
    case 'POST':
      if (q.has('uploads')) return ['CreateMultipartUpload', createMultipartUpload];
      if (q.has('uploadId')) return ['CompleteMultipartUpload', completeMultipartUpload];
      return undefined;
    default:
      return undefined;
  }
}

/** Splits the raw (still encoded) path, so keys keep `//`, `./` and encoded slashes exactly. */
function splitPath(rawPath: string): { bucket: string; rawKey: string } {
  const trimmed = rawPath.replace(/^\//, '');
  const slash = trimmed.indexOf('/');
  return slash < 0
    ? { bucket: trimmed, rawKey: '' }
    : { bucket: trimmed.slice(0, slash), rawKey: trimmed.slice(slash + 1) };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new AwsError('InvalidURI', "Couldn't parse the specified URI.", 400);
  }
}

export const resolveS3: RestXmlResolver = (raw) => {
  const { bucket: rawBucket, rawKey } = splitPath(raw.rawPath);
  const level = rawBucket === '' ? 'service' : rawKey === '' ? 'bucket' : 'object';
  const picked = pick(raw.method, level, raw.query, raw);
  if (!picked) return undefined;
  const [operation, handler] = picked;
  const query = Object.fromEntries([...raw.query].filter(([k]) => !k.startsWith('X-Amz-') && k !== 'x-id'));
  return {
    operation,
    params: { Bucket: rawBucket, Key: rawKey, ...query },
    handle(ctx: RequestContext): RawHttpResponse {
      const req: S3Request = { raw, bucket: decode(rawBucket), key: decode(rawKey) };
      return handler(req, ctx);
    },
  };
};
