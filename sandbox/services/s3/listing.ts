import { keyed } from '../../core/keyed.js';
import type { RawHttpResponse, RequestContext } from '../../core/service.js';
import { requireBucket } from './access.js';
import { invalidArgument } from './errors.js';
import { compareKeys, decodeToken, encodeToken, OWNER, urlEncodeKey, xmlResponse, type S3Request } from './http.js';
import type { StoredBucket, StoredObject } from './state.js';

/**
 * ListObjectsV2 and ListObjects (v1). Keys come in UTF-8 byte order; with a delimiter, keys that
 * share a prefix up to the delimiter roll up into one CommonPrefix, which counts towards max-keys
 * like a key does. A page resumes after the last key or common prefix of the previous one.
 */
interface Page {
  contents: StoredObject[];
  commonPrefixes: string[];
  truncated: boolean;
  /** The last key or common prefix returned: where the next page starts. */
  last?: string;
}

function listPage(
  bucket: StoredBucket,
  prefix: string,
  delimiter: string,
  after: string | undefined,
  maxKeys: number,
): Page {
  const page: Page = { contents: [], commonPrefixes: [], truncated: false };
  if (maxKeys === 0) return page;
  const rollUp = (key: string): string | undefined => {
    if (delimiter === '') return undefined;
    const at = key.indexOf(delimiter, prefix.length);
    return at < 0 ? undefined : key.slice(0, at + delimiter.length);
  };
  const keys = keyed
    .keys(bucket.objects)
    .filter((k) => k.startsWith(prefix))
    .sort(compareKeys);
  let count = 0;
  for (const key of keys) {
    if (after !== undefined && compareKeys(key, after) <= 0) continue;
    const common = rollUp(key);
    // A group already returned (or lying before the marker) is not returned again.
    if (common !== undefined && after !== undefined && compareKeys(common, after) <= 0) continue;
    if (common !== undefined && common === page.commonPrefixes[page.commonPrefixes.length - 1]) continue;
    if (count === maxKeys) {
      page.truncated = true;
      break;
    }
    if (common !== undefined) {
      page.commonPrefixes.push(common);
      page.last = common;
    } else {
      page.contents.push(keyed.get(bucket.objects, key)!);
      page.last = key;
    }
    count++;
  }
  return page;
}

function readListParams(req: S3Request) {
  const q = req.raw.query;
  const maxText = q.get('max-keys');
  let maxKeys = 1000;
  if (maxText !== null) {
    const n = Number(maxText);
    if (maxText.trim() === '' || !Number.isInteger(n) || n < 0 || n > 2147483647) {
      throw invalidArgument('Provided max-keys not an integer or within integer range', 'max-keys', maxText);
    }
    maxKeys = Math.min(n, 1000);
  }
  const encodingType = q.get('encoding-type') ?? undefined;
  if (encodingType !== undefined && encodingType !== 'url') {
    throw invalidArgument('Invalid Encoding Method specified in Request', 'encoding-type', encodingType);
  }
  const encode = encodingType === 'url' ? urlEncodeKey : (s: string) => s;
  return { prefix: q.get('prefix') ?? '', delimiter: q.get('delimiter') ?? '', maxKeys, encodingType, encode };
}

export function listObjectsV2(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  const { prefix, delimiter, maxKeys, encodingType, encode } = readListParams(req);
  const q = req.raw.query;
  const token = q.get('continuation-token') ?? undefined;
  const startAfter = q.get('start-after') ?? undefined;
  let after = startAfter;
  if (token !== undefined) {
    const decoded = decodeToken(token) as { after?: unknown } | undefined;
    if (typeof decoded?.after !== 'string')
      throw invalidArgument('The continuation token provided is incorrect', 'continuation-token', token);
    after = decoded.after;
  }
  const fetchOwner = q.get('fetch-owner') === 'true';
  const page = listPage(bucket, prefix, delimiter, after, maxKeys);
  return xmlResponse(ctx.requestId, 'ListBucketResult', {
    Name: bucket.name,
    Prefix: encode(prefix),
    Delimiter: delimiter === '' ? undefined : encode(delimiter),
    MaxKeys: maxKeys,
    EncodingType: encodingType,
    KeyCount: page.contents.length + page.commonPrefixes.length,
    IsTruncated: page.truncated,
    ContinuationToken: token,
    NextContinuationToken: page.truncated ? encodeToken({ after: page.last }) : undefined,
    StartAfter: startAfter === undefined ? undefined : encode(startAfter),
    '#flat:Contents': page.contents.map((o) => objectEntry(o, encode, fetchOwner)),
    '#flat:CommonPrefixes': page.commonPrefixes.map((p) => ({ Prefix: encode(p) })),
  });
}

export function listObjects(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  const { prefix, delimiter, maxKeys, encodingType, encode } = readListParams(req);
  const marker = req.raw.query.get('marker') ?? '';
  const page = listPage(bucket, prefix, delimiter, marker === '' ? undefined : marker, maxKeys);
  return xmlResponse(ctx.requestId, 'ListBucketResult', {
    Name: bucket.name,
    Prefix: encode(prefix),
    Marker: encode(marker),
    // S3 sends NextMarker only with a delimiter; without one, clients continue from the last key.
    NextMarker: page.truncated && delimiter !== '' && page.last !== undefined ? encode(page.last) : undefined,
    MaxKeys: maxKeys,
    Delimiter: delimiter === '' ? undefined : encode(delimiter),
    EncodingType: encodingType,
    IsTruncated: page.truncated,
    '#flat:Contents': page.contents.map((o) => objectEntry(o, encode, true)),
    '#flat:CommonPrefixes': page.commonPrefixes.map((p) => ({ Prefix: encode(p) })),
  });
}

function objectEntry(o: StoredObject, encode: (s: string) => string, withOwner: boolean) {
  return {
    Key: encode(o.key),
    LastModified: new Date(o.lastModified),
    ETag: o.etag,
    Size: o.size,
    StorageClass: 'STANDARD',
    Owner: withOwner ? OWNER : undefined,
  };
}
