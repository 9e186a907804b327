import type { AwsError } from '../core/errors.js';
import type { RawHttpResponse } from '../core/service.js';
import { escapeXml } from '../core/xml.js';

/** S3's error document: `<Error><Code/><Message/>…<RequestId/></Error>`; HEAD responses carry no body. */
export function restXmlError(err: AwsError, requestId: string, method: string, resource: string): RawHttpResponse {
  const headers = { 'content-type': 'application/xml', 'x-amz-request-id': requestId, 'x-amz-id-2': requestId };
  if (method === 'HEAD') return { status: err.status, headers };
  const extra = Object.entries(err.extra)
    .map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`)
    .join('');
  return {
    status: err.status,
    headers,
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${escapeXml(err.code)}</Code><Message>${escapeXml(err.message)}</Message>${extra}<Resource>${escapeXml(resource)}</Resource><RequestId>${requestId}</RequestId></Error>`,
  };
}
