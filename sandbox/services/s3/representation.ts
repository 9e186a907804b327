import { AwsError } from '../../core/errors.js';
import type { RawHttpRequest } from '../../core/service.js';
import { notImplemented } from './errors.js';
import { header, userMetadata } from './http.js';
import type { StoredObject, StoredRepresentation } from './state.js';

/**
 * What S3 stores about an object besides its bytes, taken from the upload's headers (PutObject,
 * CreateMultipartUpload, CopyObject with REPLACE), and the headers it sends back on reads.
 */
export type Representation = StoredRepresentation;

/** The representation of a stored object, detached from it (CopyObject with the COPY directive). */
export function representationOf(source: StoredRepresentation): Representation {
  const { contentType, metadata, contentEncoding, contentDisposition, contentLanguage, cacheControl } = source;
  return {
    contentType,
    metadata: { ...metadata },
    ...(contentEncoding !== undefined ? { contentEncoding } : {}),
    ...(contentDisposition !== undefined ? { contentDisposition } : {}),
    ...(contentLanguage !== undefined ? { contentLanguage } : {}),
    ...(cacheControl !== undefined ? { cacheControl } : {}),
  };
}

const MAX_METADATA_BYTES = 2048;
const STORAGE_CLASSES = [
  'STANDARD',
  'REDUCED_REDUNDANCY',
  'STANDARD_IA',
  'ONEZONE_IA',
  'INTELLIGENT_TIERING',
  'GLACIER',
  'DEEP_ARCHIVE',
  'OUTPOSTS',
  'GLACIER_IR',
  'SNOW',
  'EXPRESS_ONEZONE',
  'FSX_OPENZFS',
  'FSX_ONTAP',
];

/** Validates the headers of an upload that the sandbox cannot honour or S3 would refuse. */
export function checkUploadHeaders(req: RawHttpRequest): void {
  const storageClass = header(req, 'x-amz-storage-class');
  if (storageClass !== undefined && storageClass !== 'STANDARD') {
    if (!STORAGE_CLASSES.includes(storageClass))
      throw new AwsError('InvalidStorageClass', 'The storage class you specified is not valid', 400, {
        StorageClassRequested: storageClass,
      });
    throw notImplemented(`Storage class ${storageClass}`);
  }
  const sse = header(req, 'x-amz-server-side-encryption');
  if (sse !== undefined && sse !== 'AES256') throw notImplemented(`Server-side encryption ${sse}`);
  if (header(req, 'x-amz-server-side-encryption-customer-algorithm') !== undefined) throw notImplemented('SSE-C');
  if (header(req, 'x-amz-tagging') !== undefined) throw notImplemented('Object tagging');
  if (header(req, 'x-amz-object-lock-mode') !== undefined || header(req, 'x-amz-object-lock-legal-hold') !== undefined)
    throw notImplemented('S3 Object Lock');
}

export function representationFromRequest(req: RawHttpRequest): Representation {
  const metadata = userMetadata(req);
  const metadataBytes = Object.entries(metadata).reduce(
    (n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v),
    0,
  );
  if (metadataBytes > MAX_METADATA_BYTES) {
    throw new AwsError('MetadataTooLarge', 'Your metadata headers exceed the maximum allowed metadata size', 400, {
      Size: String(metadataBytes),
      MaxSizeAllowed: String(MAX_METADATA_BYTES),
    });
  }
  // `aws-chunked` describes the upload's framing, not the object: S3 does not store it.
  const encoding = header(req, 'content-encoding')
    ?.split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '' && e !== 'aws-chunked')
    .join(',');
  const optional = (name: string) => header(req, name);
  return {
    contentType: header(req, 'content-type') ?? 'binary/octet-stream',
    metadata,
    ...(encoding ? { contentEncoding: encoding } : {}),
    ...(optional('content-disposition') !== undefined ? { contentDisposition: optional('content-disposition')! } : {}),
    ...(optional('content-language') !== undefined ? { contentLanguage: optional('content-language')! } : {}),
    ...(optional('cache-control') !== undefined ? { cacheControl: optional('cache-control')! } : {}),
  };
}

export function representationHeaders(object: StoredObject, overrides: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {
    'content-type': overrides.get('response-content-type') ?? object.contentType,
    etag: object.etag,
    'last-modified': new Date(object.lastModified).toUTCString(),
    'accept-ranges': 'bytes',
    'x-amz-server-side-encryption': 'AES256',
  };
  const optional: [string, string | undefined, string][] = [
    ['content-encoding', object.contentEncoding, 'response-content-encoding'],
    ['content-disposition', object.contentDisposition, 'response-content-disposition'],
    ['content-language', object.contentLanguage, 'response-content-language'],
    ['cache-control', object.cacheControl, 'response-cache-control'],
    ['expires', undefined, 'response-expires'],
  ];
  for (const [name, stored, override] of optional) {
    const value = overrides.get(override) ?? stored;
    if (value !== undefined) out[name] = value;
  }
  for (const [k, v] of Object.entries(object.metadata)) out[`x-amz-meta-${k}`] = v;
  return out;
}
