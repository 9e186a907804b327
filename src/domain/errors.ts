/**
 * Business errors, shared by every layer. They carry what a person needs to act: the field at
 * fault, the resource, or the cloud's own code. They are translated to HTTP (problem+json) in one
 * place in src/api and to MCP tool errors in one place in src/mcp — never anywhere else.
 */

import { SCOPE_ALLOWS, type TokenScope } from './token-scopes.js';

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

/** What an InputError says: a sentence and each offending field. */
export interface InputErrorOptions {
  message: string;
  /** Each offending field; none when the request is wrong as a whole. */
  problems?: FieldProblem[];
}

/** The request itself is wrong (400/422): names each offending field. */
export class InputError extends DomainError {
  readonly kind = 'input' as const;
  readonly problems: FieldProblem[];
  constructor({ message, problems = [] }: InputErrorOptions) {
    super(message);
    this.problems = problems;
    this.name = 'InputError';
  }

  static field(path: string, message: string): InputError {
    return new InputError({ message: `${path}: ${message}`, problems: [{ path, message }] });
  }
}

export interface NotFoundErrorOptions {
  /** What kind of thing, e.g. `cluster`, `operation`. */
  resource: string;
  /** Its name or id as the caller gave it. */
  id: string;
  /** Default: `<resource> '<id>' does not exist.` */
  message?: string;
}

/** A named thing does not exist (404). */
export class NotFoundError extends DomainError {
  readonly kind = 'not-found' as const;
  readonly resource: string;
  readonly id: string;
  constructor({ resource, id, message = `${resource} '${id}' does not exist.` }: NotFoundErrorOptions) {
    super(message);
    this.resource = resource;
    this.id = id;
    this.name = 'NotFoundError';
  }
}

export interface ConflictErrorOptions {
  message: string;
  /** The request field whose value clashes, when one does. */
  field?: string;
}

/** The request is valid but clashes with current state (409), e.g. a retry of a phase that did not fail. */
export class ConflictError extends DomainError {
  readonly kind = 'conflict' as const;
  readonly field: string | undefined;
  constructor({ message, field }: ConflictErrorOptions) {
    super(message);
    this.field = field;
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

export interface OperationConflictErrorOptions {
  message: string;
  operation: BlockingOperation;
  /** The locked resource both want, e.g. `cluster/us-west-2/demo/update-cluster`. */
  resource: string;
}

/**
 * Another operation is running and holds a lock this request needs (409): e.g. a delete of a cluster
 * while an instance group is being added to it. Names the operation and what it holds.
 */
export class OperationConflictError extends ConflictError {
  readonly operation: BlockingOperation;
  readonly resource: string;
  constructor({ message, operation, resource }: OperationConflictErrorOptions) {
    super({ message });
    this.operation = operation;
    this.resource = resource;
    this.name = 'OperationConflictError';
  }
}

export interface PreconditionErrorOptions {
  message: string;
  /** The request fields the unready world concerns, when there are any. */
  problems?: FieldProblem[];
  /** How to make the world ready. */
  remedy?: string;
}

/**
 * The world is not ready for the request (422 at preflight): a quota shortfall, a training plan
 * that does not cover the request, an instance type not offered in the zone. `remedy` says how to fix it.
 */
export class PreconditionError extends DomainError {
  readonly kind = 'precondition' as const;
  readonly problems: FieldProblem[];
  readonly remedy: string | undefined;
  constructor({ message, problems = [], remedy }: PreconditionErrorOptions) {
    super(message);
    this.problems = problems;
    this.remedy = remedy;
    this.name = 'PreconditionError';
  }
}

export interface CloudErrorOptions {
  /** `eks`, `sagemaker`, `kubernetes`, … */
  service: string;
  /** The call that failed: `CreateCluster`, or a Kubernetes verb. */
  operation: string;
  /** The cloud's own code (`ThrottlingException`, `NotFound`), kept so people can search for it. */
  code: string;
  message: string;
  /** The HTTP status the cloud answered with, when it answered. */
  httpStatus?: number;
  /** True when the cloud calls it transient (throttling, 5xx, network): the engine retries it. */
  retryable?: boolean;
}

/** The cloud refused or failed (AWS or Kubernetes); keeps its code so people can search for it. */
export class CloudError extends DomainError {
  readonly kind = 'cloud' as const;
  readonly service: string;
  readonly operation: string;
  readonly code: string;
  readonly httpStatus: number | undefined;
  readonly retryable: boolean;
  constructor({ service, operation, code, message, httpStatus, retryable = false }: CloudErrorOptions) {
    super(message);
    this.service = service;
    this.operation = operation;
    this.code = code;
    this.httpStatus = httpStatus;
    this.retryable = retryable;
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
  return new CloudError({ service, operation, code: CLOUD_TIMEOUT, message, retryable: true });
}

/** Missing or wrong API token. */
export class UnauthorizedError extends DomainError {
  readonly kind = 'unauthorized' as const;
  constructor({
    message = 'This server requires an API token: send `Authorization: Bearer <token>`.',
  }: { message?: string } = {}) {
    super(message);
    this.name = 'UnauthorizedError';
  }
}

/** The caller is known (or needs no identity) but this request is not allowed, e.g. a cross-site mutation. */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden' as const;
  constructor({ message }: { message: string }) {
    super(message);
    this.name = 'ForbiddenError';
  }
}

export interface InsufficientScopeErrorOptions {
  /** The scope of the token the request carried. */
  tokenScope: TokenScope;
  /** The smallest scope the route needs. */
  needed: TokenScope;
  /** The route as the server declares it (`POST /api/v1/clusters/{name}/nodes/delete`): never the request's own URL. */
  route: string;
}

/**
 * The request's token is valid, but its scope is too small for this route (403): nothing was done. It
 * names both scopes, so that a person or an agent knows which token to ask for.
 */
export class InsufficientScopeError extends ForbiddenError {
  readonly tokenScope: TokenScope;
  readonly needed: TokenScope;
  /** Stable, for programs: the problem's `code`. */
  readonly code = 'InsufficientScope';
  readonly remedy: string;
  constructor({ tokenScope, needed, route }: InsufficientScopeErrorOptions) {
    super({ message: `This token ${SCOPE_ALLOWS[tokenScope]} (scope ${tokenScope}); ${route} needs ${needed}.` });
    this.tokenScope = tokenScope;
    this.needed = needed;
    this.remedy = `Nothing was changed. Ask a person to make this change, or to give you a token of scope ${needed} (instantstart serve ${SCOPE_FLAG[needed]}).`;
    this.name = 'InsufficientScopeError';
  }
}

/** The serve flag that configures a token of each scope. */
const SCOPE_FLAG: Readonly<Record<TokenScope, string>> = {
  read: '--read-token',
  operate: '--operate-token',
  admin: '--token',
};

export interface UnavailableErrorOptions {
  message: string;
  /** Why, as a stable code (`NoCredentials`, `SQLITE_FULL`). */
  code: string;
  /** What to do so that the same request works. */
  remedy?: string;
}

/**
 * The server cannot act right now (503), e.g. `--cloud aws` without usable credentials. `code` says
 * why, `remedy` what to do; the same request works once the cause is fixed.
 */
export class UnavailableError extends DomainError {
  readonly kind = 'unavailable' as const;
  readonly code: string;
  readonly remedy: string | undefined;
  constructor({ message, code, remedy }: UnavailableErrorOptions) {
    super(message);
    this.code = code;
    this.remedy = remedy;
    this.name = 'UnavailableError';
  }
}

export interface StoreUnavailableErrorOptions extends UnavailableErrorOptions {
  /** The file that cannot be written. */
  file: string;
  remedy: string;
}

/**
 * The server cannot write its own data directory (disk full, read-only, I/O error, locked, damaged),
 * so it refuses to start anything it could not journal (503). `code` is SQLite's (`SQLITE_FULL`, …)
 * or the file system's (`EACCES`, …); `remedy` says what an operator does about it.
 */
export class StoreUnavailableError extends UnavailableError {
  readonly file: string;
  override readonly remedy: string;
  constructor({ message, code, file, remedy }: StoreUnavailableErrorOptions) {
    super({ message, code, remedy });
    this.file = file;
    this.remedy = remedy;
    this.name = 'StoreUnavailableError';
  }
}
