import { CloudError, DomainError } from '../domain/errors.js';
import type { OperationError } from '../domain/schemas/operations.js';

/** Consecutive transient cloud errors a phase absorbs before it fails. */
export const MAX_TRANSIENT_RETRIES = 6;

/** True for a cloud error the cloud itself calls transient (throttling, 5xx, network). */
export function isTransient(err: unknown): err is CloudError {
  return err instanceof CloudError && err.retryable;
}

/**
 * What the status endpoint shows for a failure: the cloud's own code (so people can search for it),
 * our domain error's name, or `InternalError` for a bug — with the original message.
 */
export function describeFailure(err: unknown, phase?: string): OperationError {
  const code = err instanceof CloudError ? err.code : err instanceof DomainError ? err.name : 'InternalError';
  const message = err instanceof Error ? err.message : String(err);
  return { ...(phase === undefined ? {} : { phase }), code, message: message || code };
}

/** Raised by the engine's journal once the engine has stopped: the loop must exit without writing. */
export class EngineStoppedError extends Error {
  constructor() {
    super('The operation engine has stopped.');
    this.name = 'EngineStoppedError';
  }
}
