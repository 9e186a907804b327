import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CLIENT_HEADER,
  FACE_HEADER,
  MAX_AUDIT_INPUT_CHARS,
  auditInput,
  clientName,
  faceOf,
  outcomeOf,
} from '../domain/audit.js';
import { bearerToken } from '../domain/bearer-token.js';
import { canonicalJson } from '../domain/canonical-json.js';
import type { AuditActor } from '../domain/schemas/audit.js';
import { inCallScope } from '../engine/call-scope.js';
import type { NewAuditEvent } from '../store/audit-store.js';
import { scopeOfToken, type ApiToken } from './guard/token.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A mutating route: each request to it is one audit event (set by route.ts from the route's spec). */
    audit?: { action: string; route: string };
  }
}

/** Where the audit events go (the workspace's audit store; nothing while the cloud is unavailable). */
export interface AuditTrailPort {
  record(event: NewAuditEvent): void;
}

interface Pending {
  id: string;
  at: string;
  input?: unknown;
}

const pending = new WeakMap<FastifyRequest, Pending>();

/**
 * Runs a mutating route's handler as one audit event (docs/AUDIT.md): the event's id is the call scope of every cloud
 * call the handler makes (src/engine/call-scope.ts), and `input` (parameters, query and body as validated) is noted
 * when the handler has parsed it. The event itself is written when the answer is sent ({@link installAuditTrail}).
 */
export function audited<T>(
  request: FastifyRequest,
  fn: (noteInput: (input: unknown) => void) => Promise<T>,
): Promise<T> {
  const entry: Pending = { id: randomUUID(), at: new Date().toISOString() };
  pending.set(request, entry);
  return inCallScope({ auditEventId: entry.id }, () => fn((input) => (entry.input = input)));
}

/**
 * Writes one audit event per request to a mutating route, when its answer is sent: accepted, refused for its token's
 * scope (403), by validation (400, 422) or by a conflict (409), or failed — and a replay of an Idempotency-Key
 * is its own event marked `replay` (it changed nothing). A failure to write it is logged, never the request's.
 */
export function installAuditTrail(
  app: FastifyInstance,
  trail: () => AuditTrailPort | undefined,
  tokens: readonly ApiToken[],
): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const audit = request.routeOptions.config?.audit;
    if (!audit || request.is404) return done(null, payload);
    try {
      const port = trail();
      // A request the guard refused before it knew who sent it (no valid token, a foreign Host or Origin) is not
      // recorded: whoever can reach the port could otherwise flood the timeline and push real events out of it
      // (the request log still has a line for it). A token's refusal for its scope is.
      if (port && (pending.has(request) || actorOf(request, tokens).kind === 'token'))
        port.record(
          eventOf(request, reply.statusCode, reply.getHeader('idempotent-replayed') === 'true', payload, audit, tokens),
        );
    } catch (err) {
      request.log.warn({ err }, 'the audit event of this request could not be written');
    }
    done(null, payload);
  });
}

function eventOf(
  request: FastifyRequest,
  status: number,
  replayed: boolean,
  payload: unknown,
  audit: { action: string; route: string },
  tokens: readonly ApiToken[],
): NewAuditEvent {
  const entry = pending.get(request);
  const answer = typeof payload === 'string' && payload.startsWith('{') ? parseAnswer(payload) : undefined;
  const operation = status === 202 ? answer?.operation : undefined;
  const input = entry?.input === undefined ? undefined : auditInput(entry.input);
  const inputJson = input === undefined ? undefined : canonicalJson(input);
  const client = clientName(header(request, CLIENT_HEADER) ?? header(request, 'user-agent'));
  const error = status >= 400 && typeof answer?.code === 'string' ? answer.code : undefined;
  return {
    id: entry?.id ?? randomUUID(),
    at: entry?.at ?? new Date().toISOString(),
    actor: actorOf(request, tokens),
    face: faceOf(header(request, FACE_HEADER)),
    ...(client ? { client } : {}),
    method: request.method,
    route: audit.route,
    action: audit.action,
    target: operation?.target ?? request.url.split('?')[0]!.replace(/^\/api\/v1\//, ''),
    ...(inputJson !== undefined && inputJson.length <= MAX_AUDIT_INPUT_CHARS ? { input } : {}),
    ...(inputJson !== undefined ? { inputDigest: createHash('sha256').update(inputJson).digest('hex') } : {}),
    status,
    outcome: outcomeOf(status),
    // A replay, or a repeat answered with the operation an earlier request started (`existing`): it changed nothing.
    replay: replayed || answer?.existing === true,
    ...(error ? { error } : {}),
    ...(operation?.id ? { operationId: operation.id } : {}),
    ...(operation?.kind ? { operationKind: operation.kind } : {}),
  };
}

/** Who made the request: its token's stable id and scope, `local` on a server without tokens, else anonymous. */
export function actorOf(request: FastifyRequest, tokens: readonly ApiToken[]): AuditActor {
  if (tokens.length === 0) return { kind: 'local' };
  const presented = bearerToken(request.headers.authorization);
  const scope = presented === undefined ? undefined : scopeOfToken(presented, tokens);
  if (presented === undefined || scope === undefined) return { kind: 'anonymous' };
  return { kind: 'token', tokenId: tokenId(presented), scope };
}

/** A token's stable, non-secret id: the first 12 hex digits of its SHA-256 (docs/SECURITY.md says how to find it). */
export function tokenId(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex').slice(0, 12);
}

interface AnswerFields {
  operation?: { id?: string; kind?: string; target?: string };
  existing?: boolean;
  code?: unknown;
}

function parseAnswer(text: string): AnswerFields | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const a = parsed as AnswerFields;
    const op = a.operation;
    return {
      ...(op && typeof op === 'object'
        ? {
            operation: {
              ...(typeof op.id === 'string' ? { id: op.id } : {}),
              ...(typeof op.kind === 'string' ? { kind: op.kind } : {}),
              ...(typeof op.target === 'string' ? { target: op.target } : {}),
            },
          }
        : {}),
      ...(a.existing === true ? { existing: true } : {}),
      ...(a.code !== undefined ? { code: a.code } : {}),
    };
  } catch {
    return undefined;
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
