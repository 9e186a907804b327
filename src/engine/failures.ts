import { CLOUD_TIMEOUT, CloudError, DomainError } from '../domain/errors.js';
import type { OperationError } from '../domain/schemas/operations.js';

/** Consecutive transient cloud errors a phase absorbs before it fails. */
export const MAX_TRANSIENT_RETRIES = 6;

/**
 * How long a phase keeps retrying while the cloud does not answer at all (real time, whatever the
 * polling time scale): long enough for a VPN reconnect or a regional network blip, short enough that
 * a cloud that is really gone fails the phase — which can then be retried alone.
 */
export const OUTAGE_RETRY_MS = 15 * 60_000;

/** True for a cloud error the cloud itself calls transient (throttling, 5xx, network). */
export function isTransient(err: unknown): err is CloudError {
  return err instanceof CloudError && err.retryable;
}

/**
 * True when the cloud did not answer at all: a call past its deadline, or an endpoint that could not
 * be reached. Counting attempts is the wrong measure for those (each may itself wait out a deadline),
 * so the phase loop retries them for {@link OUTAGE_RETRY_MS} instead of {@link MAX_TRANSIENT_RETRIES} times.
 */
export function isOutage(err: unknown): err is CloudError {
  return isTransient(err) && (err.code === CLOUD_TIMEOUT || err.code === 'NetworkingError');
}

/** Who an outage is about, as the phase's progress and log name it. */
export const silentParty = (err: CloudError): string => (err.service === 'kubernetes' ? 'The Kubernetes API' : 'AWS');

/**
 * What the status endpoint shows for a failure: the cloud's own code (so people can search for it),
 * our domain error's name, or `InternalError` for a bug — with the original message.
 */
export function describeFailure(err: unknown, phase?: string): OperationError {
  const code =
    err instanceof CloudError
      ? err.code
      : err instanceof DomainError || err instanceof PhaseDeadlineExceeded
        ? err.name
        : 'InternalError';
  const message = err instanceof Error ? err.message : String(err);
  return { ...(phase === undefined ? {} : { phase }), code, message: message || code };
}

/**
 * A phase ran past its deadline (workflow.ts → PhaseDeadline): its act did not return, or what it waited for did
 * not finish. The message names the phase, the deadline and what the wait last saw; the phase can be retried.
 */
export class PhaseDeadlineExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PhaseDeadlineExceeded';
  }
}

/** Raised by the engine's journal once the engine has stopped: the loop must exit without writing. */
export class EngineStoppedError extends Error {
  constructor() {
    super('The operation engine has stopped.');
    this.name = 'EngineStoppedError';
  }
}
