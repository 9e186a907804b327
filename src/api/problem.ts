import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { blockingWithLinks, waitForItSentence, type StatusLinks } from './operation-links.js';
import { noteRefusal } from './request-log.js';
import {
  CLOUD_TIMEOUT,
  CloudError,
  ConflictError,
  DomainError,
  InputError,
  InsufficientScopeError,
  OperationConflictError,
  PreconditionError,
  StoreUnavailableError,
  UnavailableError,
  type BlockingOperation,
  type FieldProblem,
} from '../domain/errors.js';
import { KubeError } from '../domain/kube/errors.js';

/**
 * The one place business errors become HTTP: RFC 9457 problem+json with the fields at fault.
 * Bad input is always 4xx; a 5xx means a bug or an unreachable cloud, and says which.
 */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldProblem[];
  code?: string;
  remedy?: string;
  instance?: string;
  /** On a 409 because another operation runs: that operation, and where to wait for it. */
  operation?: BlockingOperation & StatusLinks;
}

/** Where a request part lives; names the field path of a problem with the whole part (`(query)`). */
export type RequestPart = 'path' | 'query' | 'body';

const PART_WHAT: Record<RequestPart, string> = {
  path: 'path parameters',
  query: 'query parameters',
  body: 'request body',
};

/** Names and values a client sent are echoed back at most this long (a 900 KB key must not come back whole). */
const MAX_ECHO = 100;
const clip = (text: string, max = MAX_ECHO) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** zod issues → field problems, paths joined with dots (`storage.fsxLustre.storageCapacityGiB`); `(body)`/`(query)`/`(path)` for the part as a whole. */
export function zodProblems(error: z.ZodError, part: RequestPart = 'body'): FieldProblem[] {
  const whole = `(${part})`;
  return error.issues.map((i) => {
    const path = clip(i.path.map(String).join('.')) || whole;
    let message = i.message;
    if (i.code === 'unrecognized_keys') {
      const noun = part === 'query' ? 'query parameter' : part === 'path' ? 'path parameter' : 'field';
      message = `unknown ${noun}${i.keys.length > 1 ? 's' : ''} ${i.keys
        .slice(0, 5)
        .map((k) => `'${clip(k)}'`)
        .join(', ')}${i.keys.length > 5 ? ` and ${i.keys.length - 5} more` : ''}`;
    }
    if (i.code === 'invalid_type' && /received undefined/.test(i.message)) message = 'is required';
    const single =
      i.code === 'unrecognized_keys' && i.keys.length === 1
        ? [path === whole ? '' : path, clip(i.keys[0]!)].filter(Boolean).join('.')
        : path;
    return { path: single, message: clip(message, 500) };
  });
}

/** Parses one part of a request with `schema` or throws an InputError naming every bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, data: unknown, part: RequestPart): z.output<S> {
  const r = schema.safeParse(data ?? {});
  if (r.success) return r.data;
  const problems = zodProblems(r.error, part);
  const listed = problems
    .slice(0, 10)
    .map((p) => `${p.path}: ${p.message}`)
    .join('; ');
  throw new InputError({
    message: `Invalid ${PART_WHAT[part]}: ${listed}${problems.length > 10 ? `; and ${problems.length - 10} more` : ''}`,
    problems,
  });
}

const STATUS: Record<DomainError['kind'], number> = {
  input: 400,
  'not-found': 404,
  conflict: 409,
  precondition: 422,
  cloud: 502,
  unauthorized: 401,
  forbidden: 403,
  // The server cannot act right now (its data directory cannot be written, no usable credentials): retry once it can.
  unavailable: 503,
};

/** The problem a refusal answers with; anything that is no refusal is a 500 that says nothing of the server's internals. */
export function problemFor(err: unknown, instance?: string): Problem {
  if (err instanceof DomainError) return domainProblem(err, instance);
  if (isFastifyRefusal(err)) {
    // Fastify's own rejections (malformed JSON, unsupported media type, body too large, bad URL):
    // they concern the request as a whole, and may quote it — clipped.
    const part = err.code === 'FST_ERR_BAD_URL' || err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? '(path)' : '(body)';
    const detail = clip(err.message, 300);
    return {
      type: problemType('input'),
      title: 'Bad request',
      status: err.statusCode,
      detail,
      errors: [{ path: part, message: detail }],
      ...(instance ? { instance } : {}),
    };
  }
  return {
    type: problemType('internal'),
    title: 'Internal error',
    status: 500,
    detail: 'The server failed unexpectedly; see its log for the request id.',
  };
}

/** A business error as a problem: its kind's type and title, and whatever the error carries that a person acts on. */
function domainProblem(err: DomainError, instance: string | undefined): Problem {
  const errors = fieldProblems(err);
  const code =
    err instanceof CloudError || err instanceof UnavailableError || err instanceof InsufficientScopeError
      ? err.code
      : undefined;
  const remedy =
    err instanceof PreconditionError ||
    err instanceof UnavailableError ||
    err instanceof KubeError ||
    err instanceof InsufficientScopeError
      ? err.remedy
      : undefined;
  return {
    type: problemType(err.kind),
    title: TITLES[err.kind],
    status: statusOf(err),
    // A 409 naming a running operation ends with how to wait for it, on either face.
    detail: clip(
      err instanceof OperationConflictError ? `${err.message} ${waitForItSentence(err.operation.id)}` : err.message,
      4000,
    ),
    ...(errors ? { errors } : {}),
    ...(code ? { code } : {}),
    ...(remedy ? { remedy } : {}),
    ...(err instanceof OperationConflictError ? { operation: blockingWithLinks(err.operation) } : {}),
    ...(instance ? { instance } : {}),
  };
}

/** The status of a business error: its kind's, unless the cloud's own answer (or the error itself) says better. */
function statusOf(err: DomainError): number {
  // Errors that know better say so (Kubernetes: a 409 stays a conflict, a missing kind is a 422 with its remedy).
  if (err instanceof KubeError && err.answerStatus) return err.answerStatus;
  if (!(err instanceof CloudError)) return STATUS[err.kind];
  // The cloud did not answer within its deadline: a gateway timeout, not a failure of the request.
  if (err.code === CLOUD_TIMEOUT) return 504;
  // The cloud throttles us: the request is fine, try it again later.
  if (err.httpStatus === 429) return 503;
  // The cloud's own 4xx (e.g. a quota it enforces) is the caller's to fix; keep it.
  if (err.httpStatus && err.httpStatus >= 400 && err.httpStatus < 500) return 422;
  return STATUS[err.kind];
}

/** The request fields at fault: those the error names, or the one field a conflict is about. */
function fieldProblems(err: DomainError): FieldProblem[] | undefined {
  if ((err instanceof InputError || err instanceof PreconditionError) && err.problems.length) return err.problems;
  if (err instanceof ConflictError && err.field) return [{ path: err.field, message: err.message }];
  return undefined;
}

/** The `type` URI of a problem: one per kind of business error, plus `internal` for a bug. */
export const problemType = (kind: DomainError['kind'] | 'internal'): string =>
  `https://instantstart.dev/problems/${kind}`;

/** Fastify's own refusal of a request (and our body parser's): an Error with a 4xx `statusCode`. */
function isFastifyRefusal(err: unknown): err is Error & { statusCode: number; code?: unknown } {
  return (
    err instanceof Error &&
    'statusCode' in err &&
    typeof err.statusCode === 'number' &&
    err.statusCode >= 400 &&
    err.statusCode < 500
  );
}

const TITLES: Record<DomainError['kind'], string> = {
  input: 'Invalid request',
  'not-found': 'Not found',
  conflict: 'Conflict',
  precondition: 'Precondition failed',
  cloud: 'Cloud request failed',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  unavailable: 'Service unavailable',
};

export function sendProblem(reply: FastifyReply, request: FastifyRequest, err: unknown): FastifyReply {
  const problem = problemFor(err, clip(request.url.split('?')[0]!, 300));
  // The store outage is reported once by the engine; each refused request is a line, not a stack.
  if (err instanceof StoreUnavailableError)
    request.log.warn(
      { status: problem.status, code: err.code },
      'request refused: the data directory cannot be written',
    );
  else if (problem.status >= 500) request.log.error({ err }, 'request failed');
  // A refusal's reason goes on the request's own line (request-log.ts): one line per request.
  else noteRefusal(request, clip(problem.detail, 300));
  if (problem.status === 401) void reply.header('www-authenticate', 'Bearer realm="instantstart"');
  if (request.routeOptions.config?.errorDialect === 'jsonrpc')
    return reply.code(problem.status).type('application/json').send(jsonRpcError(problem, err));
  return reply.code(problem.status).type('application/problem+json').send(problem);
}

/**
 * The same refusal in JSON-RPC, for /mcp: MCP clients read `error.code`/`error.message`, not
 * problem+json. Invalid JSON is a Parse error (-32700); every other refusal before the MCP server
 * sees the message (Host, Origin, token, size, media type) is a server error (-32000) with the detail.
 */
export function jsonRpcError(
  problem: Problem,
  err: unknown,
): { jsonrpc: '2.0'; error: { code: number; message: string }; id: null } {
  const parseError = err instanceof Error && 'code' in err && err.code === INVALID_JSON;
  return {
    jsonrpc: '2.0',
    error: {
      code: parseError ? -32700 : -32000,
      message: parseError ? `Parse error: ${problem.detail}` : problem.detail,
    },
    id: null,
  };
}

/** The code our JSON body parser gives a body that is not JSON. */
export const INVALID_JSON = 'INSTANTSTART_INVALID_JSON';
