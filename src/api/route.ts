import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idempotencyKey, setKeyedCall } from './accepted.js';
import { answerJson } from './answer-json.js';
import { audited } from './audit-trail.js';
import type { Replays } from './idempotency.js';
import { parseOrThrow } from './problem.js';
import type { TokenScope } from '../domain/token-scopes.js';
import { methodScope } from './guard/scopes.js';

/**
 * A typed route whose zod schemas both validate the request and document it: every route
 * registered through `defineRoute` lands in the OpenAPI document, so the two cannot drift.
 */
export interface RouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  /** Status → schema of the answer (202 for mutations). */
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  /** Parses the body instead of `body.parse` (to map some field problems to other statuses); `body` still documents it. */
  parseBody?: (raw: unknown) => z.output<B>;
  /**
   * A POST that changes nothing (a check, a plan): it ignores Idempotency-Key. Every other route that
   * is not a GET is mutating, and honours the key (idempotency.ts) — no route can forget to.
   */
  readOnly?: true;
  /**
   * A POST/PUT that destroys or replaces (nodes deleted, rebooted or replaced; a template overwritten): only an
   * `admin` token may call it, like every DELETE. Other mutations need `operate`; GETs and `readOnly` POSTs `read`.
   */
  destructive?: true;
}

/** The smallest token scope that may call a route (docs/SECURITY.md → Token scopes; checked by guard/scopes.ts). */
export const requiredScope = (spec: Pick<AnyRouteSpec, 'method' | 'readOnly' | 'destructive'>): TokenScope =>
  spec.destructive ? 'admin' : spec.readOnly ? 'read' : methodScope(spec.method);

/** Whether a route honours Idempotency-Key: every mutating one. */
export const takesIdempotencyKey = (spec: Pick<AnyRouteSpec, 'method' | 'readOnly'>): boolean =>
  spec.method !== 'GET' && !spec.readOnly;

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A route without query parameters refuses any it is sent, naming them, instead of ignoring them. */
const NO_QUERY = z.object({}).strict();

export type AnyRouteSpec = RouteSpec<z.ZodType, z.ZodType, z.ZodType>;

export class RouteRegistry {
  readonly routes: AnyRouteSpec[] = [];

  /** `replays` answers repeats of mutating requests under one Idempotency-Key (idempotency.ts). */
  constructor(private readonly replays?: Replays) {}

  define<
    P extends z.ZodType = z.ZodObject<{}>,
    Q extends z.ZodType = z.ZodObject<{}>,
    B extends z.ZodType = z.ZodUndefined,
  >(
    app: FastifyInstance,
    spec: RouteSpec<P, Q, B>,
    handler: (input: RouteInput<z.output<P>, z.output<Q>, z.output<B>>) => Promise<unknown>,
  ): void {
    this.routes.push(spec as unknown as AnyRouteSpec);
    const successStatus = Number(Object.keys(spec.responses).find((s) => Number(s) < 300) ?? 200);
    const keyed = takesIdempotencyKey(spec);
    const handle = async (request: FastifyRequest, reply: FastifyReply, noteInput?: (input: unknown) => void) => {
      const params = spec.params ? parseOrThrow(spec.params, request.params, 'path') : {};
      const query = parseOrThrow(spec.query ?? NO_QUERY, request.query, 'query');
      const body = spec.parseBody
        ? spec.parseBody(request.body)
        : spec.body
          ? parseOrThrow(spec.body, request.body, 'body')
          : undefined;
      noteInput?.({ params, query, body });
      const key = keyed ? idempotencyKey(request) : undefined;
      const run = () =>
        handler({ params, query, body, request, reply } as RouteInput<z.output<P>, z.output<Q>, z.output<B>>);
      if (key === undefined || !this.replays) {
        const out = await run();
        if (reply.sent) return reply;
        reply.code(reply.statusCode !== 200 ? reply.statusCode : successStatus);
        const json = answerJson(out);
        return json === undefined ? reply.send(out) : reply.type('application/json; charset=utf-8').send(json);
      }
      const line = `${spec.method} ${request.url.split('?')[0]}`;
      const answer = await this.replays.run(
        { key, line, method: spec.method, route: spec.url, params, query, body },
        async (call) => {
          setKeyedCall(request, call);
          const out = await run();
          const status = reply.statusCode !== 200 ? reply.statusCode : successStatus;
          const text = out === undefined ? undefined : (answerJson(out) ?? JSON.stringify(out));
          return { status, text, ...operationNamed(status, out) };
        },
      );
      reply.code(answer.status);
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return answer.text === undefined ? reply.send() : reply.type('application/json; charset=utf-8').send(answer.text);
    };
    app.route({
      method: spec.method,
      url: spec.url.replace(/\{(\w+)\}/g, ':$1'),
      config: {
        scope: requiredScope(spec),
        // Every mutating request is one audit event (audit-trail.ts), whatever its answer.
        ...(keyed ? { audit: { action: spec.operationId, route: `${spec.method} ${spec.url}` } } : {}),
      },
      handler: (request, reply) =>
        keyed ? audited(request, (note) => handle(request, reply, note)) : handle(request, reply),
    });
  }
}

/** The operation a 202 names (src/api/accepted.ts): a replay answers it as it is then. */
function operationNamed(status: number, out: unknown): { operationId?: string } {
  if (status !== 202 || typeof out !== 'object' || out === null) return {};
  const id = (out as { operation?: { id?: unknown } }).operation?.id;
  return typeof id === 'string' ? { operationId: id } : {};
}
