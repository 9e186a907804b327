import { createHash } from 'node:crypto';
import { SANDBOX_ACCOUNT_ID } from '../../core/credentials.js';
import type { RawHttpRequest, RawHttpResponse } from '../../core/service.js';
import { xmlDocument, type XmlValue } from '../../core/xml.js';

/** Wire helpers shared by the S3 operations: headers, XML documents, dates, S3's URL encoding. */
export const S3_XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';

/** S3 owners are canonical user ids (64 hex digits); the sandbox has one account, so one owner. */
export const OWNER = { ID: createHash('sha256').update(`sandbox-canonical-user:${SANDBOX_ACCOUNT_ID}`).digest('hex') };

/** A decoded path-style request: `/bucket/key…`. */
export interface S3Request {
  raw: RawHttpRequest;
  bucket: string;
  key: string;
}

export function header(req: RawHttpRequest, name: string): string | undefined {
  return req.headers.get(name)?.[0];
}

/** `x-amz-meta-*` headers, names lower-cased without the prefix (S3 stores them that way). */
export function userMetadata(req: RawHttpRequest): Record<string, string> {
  // fromEntries defines own properties, so a header `x-amz-meta-__proto__` is kept like any other.
  return Object.fromEntries(
    [...req.headers]
      .filter(([name]) => name.startsWith('x-amz-meta-'))
      .map(([name, values]) => [name.slice('x-amz-meta-'.length), values.join(',')]),
  );
}

export function baseHeaders(requestId: string): Record<string, string> {
  return { 'x-amz-request-id': requestId, 'x-amz-id-2': requestId };
}

export function xmlResponse(requestId: string, root: string, value: XmlValue, status = 200): RawHttpResponse {
  return {
    status,
    headers: { ...baseHeaders(requestId), 'content-type': 'application/xml' },
    body: xmlDocument(root, value, { listItem: 'member' }, S3_XMLNS),
  };
}

export function emptyResponse(
  requestId: string,
  status: number,
  headers: Record<string, string> = {},
): RawHttpResponse {
  return { status, headers: { ...baseHeaders(requestId), ...headers } };
}

/** RFC 7231 dates, as S3 sends `Last-Modified`. */
export const httpDate = (ms: number): string => new Date(ms).toUTCString();

/**
 * `encoding-type=url` responses: S3 percent-encodes keys and prefixes so any byte survives XML.
 * Clients decode with `unquote_plus`, so `+` must be encoded; `/` is left readable.
 */
export function urlEncodeKey(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, '/');
}

/** Keys sort by their UTF-8 bytes on S3, which differs from JavaScript's UTF-16 order. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Opaque continuation tokens, as S3 issues them: base64 of where the next page starts. */
export function encodeToken(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64');
}

export function decodeToken(token: string): unknown {
  try {
    return JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
}
