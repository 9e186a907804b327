import { AwsError } from '../core/errors.js';
import type { RawHttpResponse } from '../core/service.js';
import { escapeXml, xmlDocument, type XmlValue } from '../core/xml.js';

/**
 * The EC2 and awsQuery protocols: form-encoded parameters in, XML out.
 * `Filter.1.Value.2=x` becomes `{Filter: [{Value: [, 'x']}]}` (lists by their 1-based index), and
 * awsQuery's `Tags.member.1.Key` loses its `member` wrapper, so handlers see plain lists.
 */
export function readQueryParams(
  method: string,
  query: URLSearchParams,
  body: Buffer,
  contentType: string | undefined,
): URLSearchParams {
  const params = new URLSearchParams(query);
  if (method === 'POST' && body.length > 0) {
    if (contentType && !contentType.startsWith('application/x-www-form-urlencoded')) {
      throw new AwsError(
        'MalformedQueryString',
        `Unsupported content type ${contentType}; expected application/x-www-form-urlencoded`,
        400,
      );
    }
    for (const [k, v] of new URLSearchParams(body.toString('utf8'))) params.append(k, v);
  }
  return params;
}

type Nested = { [key: string]: Nested | string | Nested[] };

export function nestQueryParams(
  params: URLSearchParams,
  skip: string[] = ['Action', 'Version'],
): Record<string, unknown> {
  const root: Nested = {};
  for (const [key, value] of params) {
    if (skip.includes(key) || key.startsWith('X-Amz-')) continue;
    const parts = key.split('.');
    let node: Nested = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Nested;
      if (typeof node === 'string')
        throw new AwsError('MalformedQueryString', `Parameter ${key} conflicts with another parameter`, 400);
    });
  }
  return listify(root) as Record<string, unknown>;
}

function listify(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 1 && (keys[0] === 'member' || keys[0] === 'item')) return listify(obj[keys[0]!]) ?? [];
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => listify(obj[String(k)]));
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = listify(obj[k]);
  return out;
}

export function querySuccess(
  protocol: 'ec2' | 'awsQuery',
  action: string,
  output: unknown,
  requestId: string,
  xmlns: string,
): RawHttpResponse {
  const result = (output ?? {}) as { [key: string]: XmlValue };
  const body =
    protocol === 'ec2'
      ? xmlDocument(`${action}Response`, { requestId, ...result }, { listItem: 'item' }, xmlns)
      : xmlDocument(
          `${action}Response`,
          { [`${action}Result`]: result, ResponseMetadata: { RequestId: requestId } },
          { listItem: 'member' },
          xmlns,
        );
  return { status: 200, headers: { 'content-type': 'text/xml;charset=UTF-8', 'x-amzn-requestid': requestId }, body };
}

export function queryError(
  protocol: 'ec2' | 'awsQuery',
  err: AwsError,
  requestId: string,
  xmlns?: string,
): RawHttpResponse {
  const body =
    protocol === 'ec2'
      ? `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>${escapeXml(err.code)}</Code><Message>${escapeXml(err.message)}</Message></Error></Errors><RequestID>${requestId}</RequestID></Response>`
      : `<?xml version="1.0" encoding="UTF-8"?>\n<ErrorResponse${xmlns ? ` xmlns="${xmlns}"` : ''}><Error><Type>${err.fault}</Type><Code>${escapeXml(err.code)}</Code><Message>${escapeXml(err.message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`;
  return {
    status: err.status,
    headers: { 'content-type': 'text/xml;charset=UTF-8', 'x-amzn-requestid': requestId },
    body,
  };
}
