import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { lookupAccessKey, type Principal } from './credentials.js';

/**
 * AWS Signature Version 4, verified for real: the sandbox recomputes the signature from the request
 * and the secret of the access key, as AWS does, for header-signed requests and presigned URLs
 * (the form an EKS token carries). Reference: the SigV4 signing documentation.
 */

export interface IncomingSignedRequest {
  method: string;
  /** Path exactly as it appeared on the request line (still percent-encoded). */
  rawPath: string;
  /** Query string exactly as sent, without the leading `?`. */
  rawQuery: string;
  /** Header name (lower case) → values in arrival order. */
  headers: Map<string, string[]>;
  body: Buffer;
}

export interface CredentialScope {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
}

export type VerifyFailure =
  | { ok: false; reason: 'missing'; message: string }
  | { ok: false; reason: 'malformed'; message: string; scope?: CredentialScope }
  | { ok: false; reason: 'unknown-key'; message: string; scope: CredentialScope }
  | { ok: false; reason: 'bad-signature'; message: string; scope: CredentialScope }
  | { ok: false; reason: 'expired'; message: string; scope: CredentialScope };

export type VerifyResult =
  | { ok: true; scope: CredentialScope; principal: Principal; presigned: boolean; signedHeaders: string[] }
  | VerifyFailure;

const ALGORITHM = 'AWS4-HMAC-SHA256';
const MAX_SKEW_MS = 15 * 60 * 1000;
const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');

export interface VerifyOptions {
  /**
   * For presigned URLs: accept them this long after X-Amz-Date whatever X-Amz-Expires says. The EKS
   * authenticator does this (15 minutes), so tokens from `aws eks get-token` (X-Amz-Expires=60) work
   * for as long as kubectl caches them.
   */
  presignedMaxAgeMs?: number;
}

/** Reads the credential scope without verifying anything: used to pick the service and protocol. */
export function readCredentialScope(req: IncomingSignedRequest): CredentialScope | undefined {
  const auth = header(req, 'authorization');
  let credential: string | undefined;
  if (auth?.startsWith(ALGORITHM)) {
    credential = /Credential=([^,\s]+)/.exec(auth)?.[1];
  } else {
    credential = queryParams(req.rawQuery).get('X-Amz-Credential');
  }
  return credential ? parseCredential(credential) : undefined;
}

function parseCredential(credential: string): CredentialScope | undefined {
  const parts = credential.split('/');
  if (parts.length !== 5 || parts[4] !== 'aws4_request') return undefined;
  const [accessKeyId, date, region, service] = parts as [string, string, string, string];
  return { accessKeyId, date, region, service };
}

/**
 * Verifies a request's signature. `nowMs` is the real wall clock (signatures are about real time,
 * not sandbox time).
 */
export function verifySigV4(req: IncomingSignedRequest, nowMs = Date.now(), options: VerifyOptions = {}): VerifyResult {
  const auth = header(req, 'authorization');
  const query = queryParams(req.rawQuery);
  const presigned = !auth && query.has('X-Amz-Signature');
  if (!auth && !presigned) {
    return { ok: false, reason: 'missing', message: 'Request is missing Authentication Token' };
  }

  let credential: string | undefined;
  let signedHeadersText: string | undefined;
  let signature: string | undefined;
  let amzDate: string | undefined;
  let expiresSeconds: number | undefined;
  if (presigned) {
    if (query.get('X-Amz-Algorithm') !== ALGORITHM) {
      return { ok: false, reason: 'malformed', message: `X-Amz-Algorithm must be ${ALGORITHM}` };
    }
    credential = query.get('X-Amz-Credential');
    signedHeadersText = query.get('X-Amz-SignedHeaders');
    signature = query.get('X-Amz-Signature');
    amzDate = query.get('X-Amz-Date');
    expiresSeconds = Number(query.get('X-Amz-Expires') ?? '900');
  } else {
    if (!auth!.startsWith(`${ALGORITHM} `)) {
      return { ok: false, reason: 'malformed', message: `Authorization header must use ${ALGORITHM}` };
    }
    credential = /Credential=([^,\s]+)/.exec(auth!)?.[1];
    signedHeadersText = /SignedHeaders=([^,\s]+)/.exec(auth!)?.[1];
    signature = /Signature=([0-9a-f]+)/.exec(auth!)?.[1];
    amzDate = header(req, 'x-amz-date') ?? header(req, 'date');
  }
  const scope = credential ? parseCredential(credential) : undefined;
  if (!scope || !signedHeadersText || !signature || !amzDate) {
    return {
      ok: false,
      reason: 'malformed',
      message:
        'Authorization must include Credential (key/date/region/service/aws4_request), SignedHeaders, Signature and a date',
      ...(scope ? { scope } : {}),
    };
  }
  const keyInfo = lookupAccessKey(scope.accessKeyId);
  if (!keyInfo) {
    return {
      ok: false,
      reason: 'unknown-key',
      message: 'The security token included in the request is invalid.',
      scope,
    };
  }
  const requestTime = parseAmzDate(amzDate);
  if (requestTime === undefined) {
    return { ok: false, reason: 'malformed', message: `Invalid X-Amz-Date '${amzDate}'`, scope };
  }
  if (presigned) {
    if (!Number.isFinite(expiresSeconds) || expiresSeconds! < 1 || expiresSeconds! > 604800) {
      return { ok: false, reason: 'malformed', message: 'X-Amz-Expires must be between 1 and 604800 seconds', scope };
    }
    const validForMs = options.presignedMaxAgeMs ?? expiresSeconds! * 1000;
    if (nowMs > requestTime + validForMs) {
      return { ok: false, reason: 'expired', message: 'Request has expired', scope };
    }
  } else if (Math.abs(nowMs - requestTime) > MAX_SKEW_MS) {
    return {
      ok: false,
      reason: 'expired',
      message: `Signature expired: ${amzDate} is now earlier than 15 minutes before the server time`,
      scope,
    };
  }

  const signedHeaders = signedHeadersText.split(';');
  const key = signingKey(keyInfo.secret, scope);
  const stringToSignFor = (canonicalRequest: string) =>
    [
      ALGORITHM,
      amzDate,
      `${scope.date}/${scope.region}/${scope.service}/aws4_request`,
      sha256Hex(canonicalRequest),
    ].join('\n');

  // Clients differ on two details the spec leaves to the service: whether the path is encoded a
  // second time (all services but S3) and how the payload is named. Any candidate must still be
  // signed with the right secret, so trying each one weakens nothing.
  for (const path of canonicalPathCandidates(req.rawPath, scope.service)) {
    for (const payload of payloadCandidates(req, presigned)) {
      const canonical = [
        req.method.toUpperCase(),
        path,
        canonicalQuery(req.rawQuery, presigned),
        canonicalHeaders(req, signedHeaders),
        signedHeadersText,
        payload,
      ].join('\n');
      const expected = createHmac('sha256', key).update(stringToSignFor(canonical)).digest('hex');
      if (safeEqualHex(expected, signature)) {
        return { ok: true, scope, principal: keyInfo.principal, presigned, signedHeaders };
      }
    }
  }
  return {
    ok: false,
    reason: 'bad-signature',
    message:
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
    scope,
  };
}

function signingKey(secret: string, scope: CredentialScope): Buffer {
  const kDate = createHmac('sha256', `AWS4${secret}`).update(scope.date).digest();
  const kRegion = createHmac('sha256', kDate).update(scope.region).digest();
  const kService = createHmac('sha256', kRegion).update(scope.service).digest();
  return createHmac('sha256', kService).update('aws4_request').digest();
}

function canonicalPathCandidates(rawPath: string, service: string): string[] {
  const path = rawPath === '' ? '/' : rawPath;
  const single = normalizeEncoding(path);
  const doubled = path
    .split('/')
    .map((segment) => uriEncode(segment))
    .join('/');
  return service === 's3' ? [path, single, doubled] : [doubled, single, path];
}

/** Re-encodes each path segment in the canonical single-encoded form. */
function normalizeEncoding(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        return uriEncode(decodeURIComponent(segment));
      } catch {
        return segment;
      }
    })
    .join('/');
}

function payloadCandidates(req: IncomingSignedRequest, presigned: boolean): string[] {
  const declared = header(req, 'x-amz-content-sha256');
  const bodyHash = req.body.length === 0 ? EMPTY_SHA256 : sha256Hex(req.body);
  const out: string[] = [];
  if (declared) out.push(declared);
  out.push(bodyHash);
  if (presigned) out.push('UNSIGNED-PAYLOAD');
  return [...new Set(out)];
}

function canonicalQuery(rawQuery: string, presigned: boolean): string {
  const pairs: [string, string][] = [];
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    const key = uriEncode(safeDecode(rawKey));
    if (presigned && key === 'X-Amz-Signature') continue;
    pairs.push([key, uriEncode(safeDecode(rawValue))]);
  }
  pairs.sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

function canonicalHeaders(req: IncomingSignedRequest, signedHeaders: string[]): string {
  return signedHeaders
    .map((name) => {
      const values = req.headers.get(name) ?? [];
      return `${name}:${values.map((v) => v.trim().replace(/\s+/g, ' ')).join(',')}\n`;
    })
    .join('');
}

/** RFC 3986 encoding as SigV4 requires: everything but unreserved characters. */
export function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, '%20'));
  } catch {
    return text;
  }
}

function parseAmzDate(value: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (m) return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}

function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function safeEqualHex(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

function header(req: IncomingSignedRequest, name: string): string | undefined {
  return req.headers.get(name)?.[0];
}

function queryParams(rawQuery: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    map.set(safeDecode(eq < 0 ? part : part.slice(0, eq)), safeDecode(eq < 0 ? '' : part.slice(eq + 1)));
  }
  return map;
}
