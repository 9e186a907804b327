import { AwsError } from '../../core/errors.js';
import type { RawHttpRequest } from '../../core/service.js';
import { header } from './http.js';
import { preconditionFailed } from './errors.js';

/**
 * HTTP preconditions as S3 evaluates them (RFC 7232): If-Match / If-Unmodified-Since fail with 412;
 * If-None-Match / If-Modified-Since answer 304 on reads. When If-Match is sent, If-Unmodified-Since
 * is ignored, and likewise If-Modified-Since when If-None-Match is sent.
 */
const unquote = (etag: string) => etag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');

export function etagMatches(list: string, etag: string): boolean {
  return list.split(',').some((candidate) => candidate.trim() === '*' || unquote(candidate) === unquote(etag));
}

function parseDate(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Seconds precision, as HTTP dates carry. */
const seconds = (ms: number) => Math.floor(ms / 1000);

/** Returns 'not-modified' for a 304, throws PreconditionFailed for a 412, else 'ok'. */
export function evaluateReadConditions(
  req: RawHttpRequest,
  object: { etag: string; lastModified: number },
  names: { ifMatch: string; ifNoneMatch: string; ifModifiedSince: string; ifUnmodifiedSince: string } = {
    ifMatch: 'if-match',
    ifNoneMatch: 'if-none-match',
    ifModifiedSince: 'if-modified-since',
    ifUnmodifiedSince: 'if-unmodified-since',
  },
): 'ok' | 'not-modified' {
  const ifMatch = header(req, names.ifMatch);
  const ifNoneMatch = header(req, names.ifNoneMatch);
  const ifModifiedSince = parseDate(header(req, names.ifModifiedSince));
  const ifUnmodifiedSince = parseDate(header(req, names.ifUnmodifiedSince));
  if (ifMatch !== undefined) {
    if (!etagMatches(ifMatch, object.etag)) throw preconditionFailed('If-Match');
  } else if (ifUnmodifiedSince !== undefined && seconds(object.lastModified) > seconds(ifUnmodifiedSince)) {
    throw preconditionFailed('If-Unmodified-Since');
  }
  if (ifNoneMatch !== undefined) {
    if (etagMatches(ifNoneMatch, object.etag)) return 'not-modified';
  } else if (ifModifiedSince !== undefined && seconds(object.lastModified) <= seconds(ifModifiedSince)) {
    return 'not-modified';
  }
  return 'ok';
}

/** Conditional writes (PutObject, CompleteMultipartUpload): If-None-Match: * and If-Match: <etag>. */
export function evaluateWriteConditions(
  req: RawHttpRequest,
  existing: { etag: string } | undefined,
  key: string,
): void {
  const ifNoneMatch = header(req, 'if-none-match');
  const ifMatch = header(req, 'if-match');
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() !== '*')
      throw new AwsError(
        'NotImplemented',
        'A header you provided implies functionality that is not implemented: If-None-Match accepts only *',
        501,
      );
    if (existing) throw preconditionFailed('If-None-Match');
  }
  if (ifMatch !== undefined) {
    if (!existing) throw new AwsError('NoSuchKey', 'The specified key does not exist.', 404, { Key: key });
    if (!etagMatches(ifMatch, existing.etag)) throw preconditionFailed('If-Match');
  }
}
