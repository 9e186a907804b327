/**
 * Decodes `Content-Encoding: aws-chunked` bodies, which current SDKs and the AWS CLI send for S3
 * uploads (streaming SigV4 or unsigned payload with a checksum trailer):
 * `<hex-size>[;chunk-signature=…]\r\n<bytes>\r\n … 0\r\n<trailers>\r\n\r\n`.
 * Chunk signatures are not re-verified (the request's seed signature is); see docs/SANDBOX.md.
 */
export function decodeAwsChunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let pos = 0;
  while (pos < body.length) {
    const lineEnd = body.indexOf('\r\n', pos);
    if (lineEnd < 0) throw new Error('aws-chunked body: chunk header without CRLF');
    const header = body.toString('latin1', pos, lineEnd);
    const size = parseInt(header.split(';')[0]!, 16);
    if (!Number.isFinite(size) || size < 0) throw new Error(`aws-chunked body: bad chunk size '${header}'`);
    pos = lineEnd + 2;
    if (size === 0) break; // the rest are trailers (e.g. x-amz-checksum-crc32), which we do not need
    parts.push(body.subarray(pos, pos + size));
    pos += size + 2;
  }
  return Buffer.concat(parts);
}
