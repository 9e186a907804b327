import { CloudError } from '../../domain/errors.js';

/** Codes the SDK surfaces for transient trouble; an operation phase may simply try again. */
const RETRYABLE = new Set([
  'ThrottlingException',
  'Throttling',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'SlowDown',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalFailure',
  'InternalError',
  'InternalServerError',
  'InternalServerException',
  'RequestTimeout',
  'RequestTimeoutException',
]);

/**
 * Turns whatever an AWS SDK call threw into a CloudError that keeps AWS's code and message.
 * Network failures (no response at all) become retryable `NetworkingError`s.
 */
export function toCloudError(err: unknown, service: string, operation: string): CloudError {
  if (err instanceof CloudError) return err;
  const e = err as {
    name?: string;
    Code?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number };
    $retryable?: unknown;
    code?: string;
  };
  const status = e?.$metadata?.httpStatusCode;
  const code = e?.Code ?? e?.name ?? 'UnknownError';
  if (status === undefined && (e?.code === 'ECONNREFUSED' || e?.code === 'ECONNRESET' || e?.name === 'TimeoutError')) {
    return new CloudError({
      service,
      operation,
      code: 'NetworkingError',
      message: `${service} ${operation} could not reach AWS: ${e.message ?? e.code}`,
      retryable: true,
    });
  }
  const retryable = RETRYABLE.has(code) || (status !== undefined && status >= 500) || Boolean(e?.$retryable);
  return new CloudError({
    service,
    operation,
    code,
    message: e?.message ?? String(err),
    httpStatus: status,
    retryable,
  });
}

/** Runs one SDK call and maps its failure; `ignore` lists codes that mean "fine" (e.g. already gone). */
export async function awsCall<T>(service: string, operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toCloudError(err, service, operation);
  }
}

/** True when `err` is a CloudError with one of `codes`. */
export function hasCode(err: unknown, ...codes: string[]): boolean {
  return err instanceof CloudError && codes.includes(err.code);
}
