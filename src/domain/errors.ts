/**
 * Business errors, shared by every layer. They carry what a person needs to act: the field at
 * fault, the resource, or the cloud's own code. They are translated to HTTP (problem+json) in one
 * place in src/api and to MCP tool errors in one place in src/mcp — never anywhere else.
 */

/** One problem with one field of a request, e.g. `{ path: 'instanceCount', message: 'must be ≥ 1' }`. */
export interface FieldProblem {
  path: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly kind:
    | 'input'
    | 'not-found'
    | 'conflict'
    | 'precondition'
    | 'cloud'
    | 'unauthorized'
    | 'forbidden'
    | 'unavailable';
}

/** The request itself is wrong (400/422): names each offending field. */
export class InputError extends DomainError {
  readonly kind = 'input' as const;
  constructor(
    message: string,
    readonly problems: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'InputError';
  }

  static field(path: string, message: string): InputError {
    return new InputError(`${path}: ${message}`, [{ path, message }]);
  }
}

/** A named thing does not exist (404). */
export class NotFoundError extends DomainError {
  readonly kind = 'not-found' as const;
  constructor(
    readonly resource: string,
    readonly id: string,
    message = `${resource} '${id}' does not exist.`,
  ) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** The request is valid but clashes with current state (409), e.g. a retry of a phase that did not fail. */
export class ConflictError extends DomainError {
  readonly kind = 'conflict' as const;
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** The running operation a request clashed with (the faces add where to wait for it: src/api/operation-links.ts). */
export interface BlockingOperation {
  id: string;
  kind: string;
  status: string;
  target: string;
}

/**
 * Another operation is running and holds a lock this request needs (409): e.g. a delete of a cluster
 * while an instance group is being added to it. Names the operation and what it holds.
 */
export class OperationConflictError extends ConflictError {
  constructor(
    message: string,
    readonly operation: BlockingOperation,
    /** The locked resource both want, e.g. `cluster/us-west-2/demo/update-cluster`. */
    readonly resource: string,
  ) {
    super(message);
    this.name = 'OperationConflictError';
  }
}

/**
 * The world is not ready for the request (422 at preflight): a quota shortfall, a training plan
 * that does not cover the request, an instance type not offered in the zone. `remedy` says how to fix it.
 */
export class PreconditionError extends DomainError {
  readonly kind = 'precondition' as const;
  constructor(
    message: string,
    readonly problems: FieldProblem[] = [],
    readonly remedy?: string,
  ) {
    super(message);
    this.name = 'PreconditionError';
  }
}

/** The cloud refused or failed (AWS or Kubernetes); keeps its code so people can search for it. */
export class CloudError extends DomainError {
  readonly kind = 'cloud' as const;
  constructor(
    readonly service: string,
    readonly operation: string,
    readonly code: string,
    message: string,
    readonly httpStatus?: number,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'CloudError';
  }
}

/**
 * The code of a CloudError for a call the cloud did not answer within its deadline (the AWS SDK's
 * own name for it, so people can search for it). Such an error is transient: an operation keeps
 * retrying while the cloud is silent, and a REST read answers 504.
 */
export const CLOUD_TIMEOUT = 'TimeoutError';

/**
 * A call that got no answer in time.
 *
 * @example
 * cloudTimeout('eks', 'DescribeCluster', 30).message
 * // "AWS is not answering: eks DescribeCluster took longer than 30 s; check …"
 */
export function cloudTimeout(service: string, operation: string, seconds: number, who = 'AWS'): CloudError {
  const message = `${who} is not answering: ${service} ${operation} took longer than ${seconds} s; check this server's network path to it (VPN, proxy, firewall, DNS) and the AWS Health Dashboard, then try again.`;
  return new CloudError(service, operation, CLOUD_TIMEOUT, message, undefined, true);
}

/** Missing or wrong API token. */
export class UnauthorizedError extends DomainError {
  readonly kind = 'unauthorized' as const;
  constructor(message = 'This server requires an API token: send `Authorization: Bearer <token>`.') {
    super(message);
    this.name = 'UnauthorizedError';
  }
}

/** The caller is known (or needs no identity) but this request is not allowed, e.g. a cross-site mutation. */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ForbiddenError';
  }
}

/**
 * The server cannot act right now (503), e.g. `--cloud aws` without usable credentials. `code` says
 * why, `remedy` what to do; the same request works once the cause is fixed.
 */
export class UnavailableError extends DomainError {
  readonly kind = 'unavailable' as const;
  constructor(
    message: string,
    readonly code: string,
    readonly remedy?: string,
  ) {
    super(message);
    this.name = 'UnavailableError';
  }
}

/**
 * The server cannot write its own data directory (disk full, read-only, I/O error, locked, damaged),
 * so it refuses to start anything it could not journal (503). `code` is SQLite's (`SQLITE_FULL`, …)
 * or the file system's (`EACCES`, …); `remedy` says what an operator does about it.
 */
export class StoreUnavailableError extends UnavailableError {
  constructor(
    message: string,
    code: string,
    readonly file: string,
    override readonly remedy: string,
  ) {
    super(message, code, remedy);
    this.name = 'StoreUnavailableError';
  }
}
