import { createHash } from 'node:crypto';
import { AwsError } from '../../core/errors.js';
import type { RawHttpRequest } from '../../core/service.js';
import { header } from './http.js';

/**
 * Integrity headers on uploads. `Content-MD5` and the `x-amz-checksum-*` values S3 can recompute
 * here (CRC32, CRC32C, SHA-1, SHA-256) are checked against the received bytes; others are accepted
 * as sent. Checksums in aws-chunked trailers are not re-checked (the server drops trailers).
 */
function crcTable(polynomial: number): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? polynomial ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

const CRC32 = crcTable(0xedb88320);
const CRC32C = crcTable(0x82f63b78);

function crc(table: Uint32Array, data: Buffer): Buffer {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  const out = Buffer.alloc(4);
  out.writeUInt32BE((c ^ 0xffffffff) >>> 0);
  return out;
}

const VERIFIABLE: Record<string, { label: string; digest: (data: Buffer) => Buffer }> = {
  'x-amz-checksum-crc32': { label: 'CRC32', digest: (d) => crc(CRC32, d) },
  'x-amz-checksum-crc32c': { label: 'CRC32C', digest: (d) => crc(CRC32C, d) },
  'x-amz-checksum-sha1': { label: 'SHA1', digest: (d) => createHash('sha1').update(d).digest() },
  'x-amz-checksum-sha256': { label: 'SHA256', digest: (d) => createHash('sha256').update(d).digest() },
};

export const md5Hex = (data: Buffer): string => createHash('md5').update(data).digest('hex');

/** Throws InvalidDigest / BadDigest / InvalidRequest when an integrity header does not match `body`. */
export function verifyIntegrityHeaders(req: RawHttpRequest, body: Buffer): void {
  // A signed payload hash must describe the bytes that arrived (streaming uploads declare STREAMING-…).
  const declaredSha256 = header(req, 'x-amz-content-sha256');
  if (declaredSha256 !== undefined && /^[0-9a-f]{64}$/.test(declaredSha256)) {
    const actual = createHash('sha256').update(body).digest('hex');
    if (actual !== declaredSha256) {
      throw new AwsError(
        'XAmzContentSHA256Mismatch',
        "The provided 'x-amz-content-sha256' header does not match what was computed.",
        400,
        {
          ClientComputedContentSHA256: declaredSha256,
          S3ComputedContentSHA256: actual,
        },
      );
    }
  }
  const contentMd5 = header(req, 'content-md5');
  if (contentMd5 !== undefined) {
    const sent = Buffer.from(contentMd5, 'base64');
    if (sent.length !== 16 || sent.toString('base64') !== contentMd5.trim()) {
      throw new AwsError('InvalidDigest', 'The Content-MD5 you specified is not valid.', 400, {
        'Content-MD5': contentMd5,
      });
    }
    const actual = createHash('md5').update(body).digest();
    if (!actual.equals(sent)) {
      throw new AwsError('BadDigest', 'The Content-MD5 you specified did not match what we received.', 400, {
        ExpectedDigest: contentMd5,
        CalculatedDigest: actual.toString('base64'),
      });
    }
  }
  for (const [name, algo] of Object.entries(VERIFIABLE)) {
    const sent = header(req, name);
    if (sent === undefined) continue;
    const expected = algo.digest(body);
    const decoded = Buffer.from(sent, 'base64');
    if (decoded.length !== expected.length)
      throw new AwsError('InvalidRequest', `Value for ${name} header is invalid.`, 400);
    if (!decoded.equals(expected)) {
      throw new AwsError('BadDigest', `The ${algo.label} you specified did not match the calculated checksum.`, 400);
    }
  }
}

/** DeleteObjects and PutBucketTagging require Content-MD5 or a flexible checksum, as on S3. */
export function requireIntegrityHeader(req: RawHttpRequest): void {
  const hasChecksum = [...req.headers.keys()].some(
    (n) => n === 'content-md5' || n.startsWith('x-amz-checksum-') || n === 'x-amz-trailer',
  );
  if (!hasChecksum)
    throw new AwsError(
      'InvalidRequest',
      'Missing required header for this request: Content-MD5 OR x-amz-checksum-*',
      400,
    );
}
