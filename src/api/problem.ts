import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DomainError, InputError, type FieldProblem } from '../domain/errors.js';

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
}

/** zod issues → field problems, paths joined with dots (`storage.fsxLustre.storageCapacityGiB`). */
export function zodProblems(error: z.ZodError, prefix?: string): FieldProblem[] {
  return error.issues.map((i) => {
    const path = [...(prefix ? [prefix] : []), ...i.path.map(String)].join('.') || (prefix ?? '(body)');
    let message = i.message;
    if (i.code === 'unrecognized_keys') message = `unknown field(s) ${i.keys.map((k) => `'${k}'`).join(', ')}`;
    if (i.code === 'invalid_type' && /received undefined/.test(i.message)) message = 'is required';
    return { path: i.code === 'unrecognized_keys' && i.keys.length === 1 ? [path === '(body)' ? '' : path, i.keys[0]].filter(Boolean).join('.') : path, message };
  });
}

/** Parses `data` with `schema` or throws an InputError naming every bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, data: unknown, what: string): z.output<S> {
  const r = schema.safeParse(data ?? {});
  if (r.success) return r.data;
  const problems = zodProblems(r.error);
  throw new InputError(`Invalid ${what}: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, problems);
}

const STATUS: Record<DomainError['kind'], number> = {
  input: 400,
  'not-found': 404,
  conflict: 409,
  precondition: 422,
  cloud: 502,
  unauthorized: 401,
  forbidden: 403,
  unavailable: 503,
};

export function problemFor(err: unknown, instance?: string): Problem {
  if (err instanceof DomainError) {
    const e = err as DomainError & { problems?: FieldProblem[]; code?: string; remedy?: string; httpStatus?: number; field?: string; service?: string };
    let status = STATUS[err.kind];
    // The cloud's own 4xx (e.g. a quota it enforces) is the caller's to fix; keep it.
    if (err.kind === 'cloud' && e.httpStatus && e.httpStatus >= 400 && e.httpStatus < 500 && e.httpStatus !== 429) status = 422;
    if (err.kind === 'cloud' && e.httpStatus === 429) status = 503;
    const errors = e.problems?.length ? e.problems : e.field ? [{ path: e.field, message: err.message }] : undefined;
    return {
      type: `https://instantstart.dev/problems/${err.kind}`,
      title: TITLES[err.kind],
      status,
      detail: err.message,
      ...(errors ? { errors } : {}),
      ...(e.code ? { code: e.code } : {}),
      ...(e.remedy ? { remedy: e.remedy } : {}),
      ...(instance ? { instance } : {}),
    };
  }
  const fe = err as FastifyError;
  if (fe?.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    // Fastify's own rejections: malformed JSON, wrong content type, body too large.
    return { type: 'https://instantstart.dev/problems/input', title: 'Bad request', status: fe.statusCode, detail: fe.message, errors: [{ path: '(body)', message: fe.message }] };
  }
  return { type: 'https://instantstart.dev/problems/internal', title: 'Internal error', status: 500, detail: 'The server failed unexpectedly; see its log for the request id.' };
}

const TITLES: Record<DomainError['kind'], string> = {
  input: 'Invalid request',
  'not-found': 'Not found',
  conflict: 'Conflict',
  precondition: 'Precondition failed',
  cloud: 'Cloud request failed',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  unavailable: 'Cloud not available',
};

export function sendProblem(reply: FastifyReply, request: FastifyRequest, err: unknown): FastifyReply {
  const problem = problemFor(err, request.url);
  if (problem.status >= 500) request.log.error({ err }, 'request failed');
  else request.log.info({ status: problem.status, detail: problem.detail }, 'request refused');
  return reply.code(problem.status).type('application/problem+json').send(problem);
}
