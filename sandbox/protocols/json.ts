import { AwsError } from '../core/errors.js';
import type { RawHttpResponse } from '../core/service.js';

/** JSON protocols send timestamps as epoch seconds (with fractions), which is what `Date` becomes here. */
export function toJsonBody(value: unknown): string {
  return JSON.stringify(value ?? {}, function replacer(this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    if (raw instanceof Date) return raw.getTime() / 1000;
    return v;
  });
}

/** Parses a JSON request body; an empty body is `{}`; anything else that is not an object is malformed. */
export function parseJsonBody(body: Buffer, serialization: { code: string; status: number }): Record<string, unknown> {
  if (body.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new AwsError(
      serialization.code,
      'Start of structure or map found where not expected: the request body is not valid JSON',
      serialization.status,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new AwsError(serialization.code, 'The request body must be a JSON object', serialization.status);
  }
  return parsed as Record<string, unknown>;
}

export function jsonSuccess(output: unknown, requestId: string, contentType: string, status = 200): RawHttpResponse {
  return {
    status,
    headers: { 'content-type': contentType, 'x-amzn-requestid': requestId },
    body: toJsonBody(output),
  };
}

/** `{"__type": code, "message": …}` plus the `x-amzn-ErrorType` header both JSON protocols understand. */
export function jsonError(err: AwsError, requestId: string, contentType: string): RawHttpResponse {
  return {
    status: err.status,
    headers: { 'content-type': contentType, 'x-amzn-requestid': requestId, 'x-amzn-errortype': err.code },
    body: JSON.stringify({ __type: err.code, message: err.message, ...err.extra }),
  };
}
