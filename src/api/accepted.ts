import type { FastifyRequest } from 'fastify';
import { InputError } from '../domain/errors.js';
import type { KeyedCall } from '../domain/keyed-call.js';
import { IdempotencyKeySchema, type Accepted, type OperationView } from '../domain/schemas/operations.js';

/** The 202 body every mutation answers with. */
export function accepted(result: { operation: OperationView; existing: boolean }): Accepted {
  return {
    operation: result.operation,
    statusUrl: result.operation.statusUrl,
    statusTool: result.operation.statusTool,
    existing: result.existing,
  };
}

/** The optional Idempotency-Key header, validated like any other field. */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0]! : raw;
  const parsed = IdempotencyKeySchema.safeParse(key);
  if (!parsed.success) throw InputError.field('Idempotency-Key', parsed.error.issues[0]!.message);
  return parsed.data;
}

const keyedCalls = new WeakMap<FastifyRequest, KeyedCall>();

/** Set by the route layer while a keyed request runs. */
export function setKeyedCall(request: FastifyRequest, call: KeyedCall): void {
  keyedCalls.set(request, call);
}

/** The request's keyed call; undefined without an Idempotency-Key. */
export function keyedCall(request: FastifyRequest): KeyedCall | undefined {
  return keyedCalls.get(request);
}

export type { KeyedCall };
