import type { FastifyRequest } from 'fastify';
import { InputError } from '../domain/errors.js';
import type { Accepted, OperationView } from '../domain/schemas/operations.js';

/** The 202 body every mutation answers with. */
export function accepted(result: { operation: OperationView; existing: boolean }): Accepted {
  return { operation: result.operation, statusUrl: result.operation.statusUrl, statusTool: result.operation.statusTool, existing: result.existing };
}

/** The optional Idempotency-Key header, validated like any other field. */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0]! : raw;
  if (!key || key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) {
    throw InputError.field('Idempotency-Key', 'must be 1–200 visible ASCII characters');
  }
  return key;
}
