import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { KubeError, badRequest } from '../errors.js';
import { decodeKubeProtobuf } from './protobuf.js';

/** Reading requests and writing JSON / Status answers the way kube-apiserver does. */

/** An answer made whole before it is written (discovery, the OpenAPI documents). */
export interface SimpleResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** kube-apiserver's request body limit. */
const MAX_BODY = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    // Past the limit the rest is read and dropped, so the client gets the 413 instead of a reset connection.
    if (size <= MAX_BODY) chunks.push(chunk as Buffer);
    else if (size > 16 * MAX_BODY) break;
  }
  if (size > MAX_BODY)
    throw new KubeError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${MAX_BODY}`);
  return Buffer.concat(chunks);
}

/** The media type of a request, without parameters (`application/json; charset=utf-8` → `application/json`). */
export const mediaType = (req: IncomingMessage): string =>
  String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

/** Request bodies the sandbox decodes as text (kube-apiserver also takes CBOR, which it does not). */
const DECODED = /^(application\/(json|yaml|[\w.-]+\+json|apply-patch\+yaml)|text\/plain|)$/;

/**
 * JSON (or YAML: apply patches and `application/yaml` bodies, or kubectl's protobuf) → a value;
 * another media type → 415, malformed → 400, as the API words them.
 */
export function parseBody(body: Buffer, contentType: string): unknown {
  if (contentType === 'application/vnd.kubernetes.protobuf') return decodeKubeProtobuf(body);
  if (!DECODED.test(contentType)) {
    throw new KubeError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`,
    );
  }
  const text = body.toString('utf8');
  if (!text.trim()) throw badRequest('the body of the request was empty');
  try {
    return contentType.includes('yaml') ? parseYaml(text) : JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw badRequest(
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (${why})`,
    );
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-cache, private',
  });
  res.end(text);
}

/** Any error → a `Status`; anything that is not a KubeError is a bug here, answered 500 and logged. */
export function sendError(res: ServerResponse, err: unknown): void {
  const e =
    err instanceof KubeError
      ? err
      : new KubeError(
          500,
          'InternalError',
          `Internal error occurred: ${err instanceof Error ? err.message : String(err)}`,
        );
  if (!(err instanceof KubeError))
    process.stderr.write(`sandbox kube api: ${err instanceof Error ? err.stack : String(err)}\n`);
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, e.code, e.toStatus());
}

/** The `Status` Success some deletes answer with. */
export const successStatus = (details: Record<string, unknown>) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Success',
  details,
});

/** RFC 3339 at second precision, as Kubernetes timestamps are. */
export const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
