import { keyed } from '../../core/keyed.js';
import type { RawHttpResponse, RequestContext } from '../../core/service.js';
import { requireBucket } from './access.js';
import { invalidArgument } from './errors.js';
import { compareKeys, OWNER, urlEncodeKey, xmlResponse, type S3Request } from './http.js';
import { requireUpload } from './multipart.js';

/** ListMultipartUploads and ListParts, with S3's markers and page sizes (at most 1000). */

function readMax(req: S3Request, name: string): number {
  const text = req.raw.query.get(name);
  if (text === null) return 1000;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 2147483647)
    throw invalidArgument(`Provided ${name} not an integer or within integer range`, name, text);
  return Math.min(n, 1000);
}

export function listMultipartUploads(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  const q = req.raw.query;
  const prefix = q.get('prefix') ?? '';
  const delimiter = q.get('delimiter') ?? '';
  const keyMarker = q.get('key-marker') ?? '';
  const uploadIdMarker = q.get('upload-id-marker') ?? '';
  const maxUploads = readMax(req, 'max-uploads');
  const encodingType = q.get('encoding-type') ?? undefined;
  if (encodingType !== undefined && encodingType !== 'url')
    throw invalidArgument('Invalid Encoding Method specified in Request', 'encoding-type', encodingType);
  const encode = encodingType === 'url' ? urlEncodeKey : (s: string) => s;

  const ordered = keyed
    .values(bucket.uploads)
    .filter((u) => u.key.startsWith(prefix))
    .sort((a, b) => compareKeys(a.key, b.key) || a.initiated - b.initiated || (a.uploadId < b.uploadId ? -1 : 1));
  // After key-marker alone: keys greater than it. With upload-id-marker too: later uploads of that key.
  let start = 0;
  if (keyMarker !== '') {
    const markerIndex =
      uploadIdMarker === '' ? -1 : ordered.findIndex((u) => u.key === keyMarker && u.uploadId === uploadIdMarker);
    start = markerIndex >= 0 ? markerIndex + 1 : ordered.findIndex((u) => compareKeys(u.key, keyMarker) > 0);
    if (start < 0) start = ordered.length;
  }
  const uploads: typeof ordered = [];
  const commonPrefixes: string[] = [];
  let truncated = false;
  for (const upload of ordered.slice(start)) {
    const at = delimiter === '' ? -1 : upload.key.indexOf(delimiter, prefix.length);
    const common = at < 0 ? undefined : upload.key.slice(0, at + delimiter.length);
    if (common !== undefined && commonPrefixes[commonPrefixes.length - 1] === common) continue;
    if (uploads.length + commonPrefixes.length === maxUploads) {
      truncated = true;
      break;
    }
    if (common !== undefined) commonPrefixes.push(common);
    else uploads.push(upload);
  }
  const lastUpload = uploads[uploads.length - 1];
  return xmlResponse(ctx.requestId, 'ListMultipartUploadsResult', {
    Bucket: bucket.name,
    KeyMarker: encode(keyMarker),
    UploadIdMarker: uploadIdMarker,
    NextKeyMarker: truncated && lastUpload ? encode(lastUpload.key) : undefined,
    NextUploadIdMarker: truncated && lastUpload ? lastUpload.uploadId : undefined,
    Prefix: encode(prefix),
    Delimiter: delimiter === '' ? undefined : encode(delimiter),
    MaxUploads: maxUploads,
    EncodingType: encodingType,
    IsTruncated: truncated,
    '#flat:Upload': uploads.map((u) => ({
      Key: encode(u.key),
      UploadId: u.uploadId,
      Initiator: OWNER,
      Owner: OWNER,
      StorageClass: 'STANDARD',
      Initiated: new Date(u.initiated),
    })),
    '#flat:CommonPrefixes': commonPrefixes.map((p) => ({ Prefix: encode(p) })),
  });
}

export function listParts(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  const upload = requireUpload(bucket, req.key, req.raw.query.get('uploadId'));
  const maxParts = readMax(req, 'max-parts');
  const markerText = req.raw.query.get('part-number-marker') ?? '0';
  if (!/^\d+$/.test(markerText))
    throw invalidArgument(
      'Provided part-number-marker not an integer or within integer range',
      'part-number-marker',
      markerText,
    );
  const marker = Number(markerText);
  const remaining = keyed
    .values(upload.parts)
    .filter((p) => p.partNumber > marker)
    .sort((a, b) => a.partNumber - b.partNumber);
  const page = remaining.slice(0, maxParts);
  const truncated = page.length < remaining.length;
  return xmlResponse(ctx.requestId, 'ListPartsResult', {
    Bucket: bucket.name,
    Key: upload.key,
    UploadId: upload.uploadId,
    Initiator: OWNER,
    Owner: OWNER,
    StorageClass: 'STANDARD',
    PartNumberMarker: marker,
    NextPartNumberMarker: page.length > 0 ? page[page.length - 1]!.partNumber : undefined,
    MaxParts: maxParts,
    IsTruncated: truncated,
    '#flat:Part': page.map((p) => ({
      PartNumber: p.partNumber,
      LastModified: new Date(p.lastModified),
      ETag: p.etag,
      Size: p.size,
    })),
  });
}
