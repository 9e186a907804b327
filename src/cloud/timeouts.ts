/**
 * How long this server waits for the cloud. Without a deadline a silent endpoint (a dropped VPN, a
 * black-holed route, an overloaded proxy) holds a REST request or an operation phase forever; with
 * one, reads answer 504 naming the call and operations keep retrying until the cloud answers again.
 */
export interface CloudTimeouts {
  /** Longest wait for a connection to an endpoint (TCP and TLS), per attempt. */
  connectMs: number;
  /** Longest wait for one call to answer, the SDK's own retries included. */
  requestMs: number;
}

/** 10 s to connect, 30 s per call: generous for any Describe/List/Create AWS answers in practice. */
export const DEFAULT_CLOUD_TIMEOUTS: CloudTimeouts = { connectMs: 10_000, requestMs: 30_000 };

/** Fills in defaults; refuses values that would disable the deadline. */
export function resolveCloudTimeouts(options: Partial<CloudTimeouts> = {}): CloudTimeouts {
  const resolved = { ...DEFAULT_CLOUD_TIMEOUTS, ...options };
  if (!(resolved.connectMs > 0) || !(resolved.requestMs > 0)) {
    throw new RangeError(`Cloud timeouts must be positive (got ${JSON.stringify(resolved)}).`);
  }
  return resolved;
}

/** Whole seconds, at least 1, for messages ("took longer than 30 s"). */
export const secondsOf = (ms: number): number => Math.max(1, Math.round(ms / 1000));
