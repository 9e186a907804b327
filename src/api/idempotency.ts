import { createHash } from 'node:crypto';
import { canonicalJson } from '../domain/canonical-json.js';
import { ConflictError, NotFoundError } from '../domain/errors.js';
import type { Accepted } from '../domain/schemas/operations.js';
import { accepted, type KeyedCall } from './accepted.js';
import type { ApiContext } from './context.js';

/** A mutating route's answer as it goes on the wire. */
export interface RouteAnswer {
  status: number;
  /** JSON text; undefined for an answer without a body. */
  text: string | undefined;
  /** True when this answer is a replay of the key's first one (the `Idempotent-Replayed` header). */
  replayed?: boolean;
}

/** What names one request: the same key with another fingerprint is another request. */
export interface KeyedRequest {
  key: string;
  /** "POST /api/v1/clusters/demo/storage": what the key named, in the 409 that refuses another use of it. */
  line: string;
  method: string;
  /** The route's pattern (`/api/v1/clusters/{name}/storage/{storage}`) with its validated parameters, query and body. */
  route: string;
  params: unknown;
  query: unknown;
  body: unknown;
}

/** Digest of a request: method, route, validated parameters, query and body in canonical JSON (bodies may carry tokens: only the digest is kept). */
export function requestFingerprint(r: Pick<KeyedRequest, 'method' | 'route' | 'params' | 'query' | 'body'>): string {
  return createHash('sha256')
    .update(
      canonicalJson({
        method: r.method,
        route: r.route,
        params: r.params ?? {},
        query: r.query ?? {},
        body: r.body ?? null,
      }),
    )
    .digest('hex');
}

/**
 * Idempotency-Key on every mutating route (docs/API.md → Idempotency-Key): one mechanism, whether
 * the request starts an operation or is answered at once.
 *
 * - The first request under a key is recorded (key → fingerprint) before it runs; its answer is
 *   recorded when it succeeds. An error is not recorded: a refusal changed nothing, and a failure must
 *   be finished by a retry, so the key may be sent again.
 * - The same key and fingerprint answer the recorded answer (`Idempotent-Replayed: true`). An answer
 *   that named an operation answers that operation as it is now (`existing: true`).
 * - The same key with another fingerprint (another body, or another route, method or target) is a 409
 *   naming `Idempotency-Key` and the request the key was first used for.
 * - A duplicate that arrives while the first is under way waits for it, then is answered as above.
 * - A key whose request was interrupted (the server died before its answer was recorded) answers the
 *   operation started under that key when there is one, else runs the request again: each mutating
 *   route makes its change so that running it again finds what the interrupted run made (an operation
 *   by key, a training job by its key annotation, an MLflow server by its key tag, names that make a
 *   repeat harmless). The route's service sees that it is such a retry (`keyedCall`), and a change that
 *   leaves nothing to find once done (a deleted job) promises its answer before it acts.
 */
export class Replays {
  /** Requests under way in this process, by key. */
  private readonly underWay = new Map<string, { fingerprint: string; line: string; done: Promise<void> }>();

  constructor(private readonly ctx: Pick<ApiContext, 'idempotencyKeys' | 'operations'>) {}

  async run(
    request: KeyedRequest,
    respond: (call: KeyedCall) => Promise<RouteAnswer & { operationId?: string }>,
  ): Promise<RouteAnswer> {
    const fingerprint = requestFingerprint(request);
    for (;;) {
      const running = this.underWay.get(request.key);
      if (!running) break;
      if (running.fingerprint !== fingerprint) throw this.conflict(request.key, { request: running.line });
      await running.done;
    }
    const keys = this.ctx.idempotencyKeys;
    const earlier = keys.find(request.key);
    if (earlier && earlier.fingerprint !== fingerprint) throw this.conflict(request.key, earlier);
    if (earlier?.status !== undefined) return this.replay(earlier);
    if (earlier) {
      // Interrupted: the operation it started (if it got that far) is its answer.
      const started = this.ctx.operations.byIdempotencyKey(request.key);
      if (started) {
        const text = JSON.stringify(accepted({ operation: started, existing: true }));
        keys.answer(request.key, 202, text, started.id);
        return { status: 202, text, replayed: true };
      }
    }
    keys.begin({ key: request.key, fingerprint, request: request.line });
    const call: KeyedCall = {
      key: request.key,
      interrupted: earlier !== undefined,
      ...(earlier?.answer !== undefined ? { promised: earlier.answer } : {}),
      promise: (answer) => keys.promise(request.key, JSON.stringify(answer)),
    };
    let finished!: () => void;
    this.underWay.set(request.key, { fingerprint, line: request.line, done: new Promise<void>((r) => (finished = r)) });
    try {
      const answer = await respond(call);
      if (answer.status < 300) keys.answer(request.key, answer.status, answer.text ?? '', answer.operationId);
      else keys.forget(request.key);
      return { status: answer.status, text: answer.text };
    } catch (err) {
      keys.forget(request.key);
      throw err;
    } finally {
      this.underWay.delete(request.key);
      finished();
    }
  }

  private replay(r: { status?: number; answer?: string; operationId?: string }): RouteAnswer {
    if (r.operationId === undefined) return { status: r.status!, text: r.answer || undefined, replayed: true };
    let body: Accepted;
    try {
      // The first answer with its operation as it is now (a route may answer more than the operation,
      // e.g. a cluster delete's plan).
      const first = JSON.parse(r.answer!) as Accepted;
      body = { ...first, ...accepted({ operation: this.ctx.operations.get(r.operationId), existing: true }) };
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      // Retention removed the operation before the key: the answer as it was.
      body = { ...(JSON.parse(r.answer!) as Accepted), existing: true };
    }
    return { status: r.status!, text: JSON.stringify(body), replayed: true };
  }

  /** 409 naming the key and the request it was first used for (with the operation that request started, if any). */
  private conflict(key: string, first: { request: string; operationId?: string; createdAt?: string }): ConflictError {
    const about = [
      first.request,
      first.operationId && `operation ${first.operationId}`,
      first.createdAt && `at ${first.createdAt}`,
    ]
      .filter(Boolean)
      .join(', ');
    return new ConflictError({
      message:
        `Idempotency key '${key}' was already used for another request (${about}): ` +
        'send exactly that request again to get its answer, or use a new key for a different request.',
      field: 'Idempotency-Key',
    });
  }
}
