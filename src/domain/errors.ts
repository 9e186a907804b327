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
  abstract readonly kind: 'input' | 'not-found' | 'conflict' | 'precondition' | 'cloud' | 'unauthorized' | 'forbidden' | 'unavailable';
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
 * The server cannot act on its cloud yet (503), e.g. `--cloud aws` without usable credentials. `code`
 * says why, `remedy` what to do; the same request works once the cause is fixed.
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
