import { canonicalJson } from '../domain/canonical-json.js';
import { ConflictError, InputError, OperationConflictError } from '../domain/errors.js';
import { operationKindLabel } from '../domain/naming.js';
import type { CloudIdentity, OperationPlace } from '../domain/operation-owner.js';
import type { LogLine } from '../domain/schemas/operations.js';
import type { OperationRecord, OperationsStore } from '../store/operations-store.js';
import type { InputSchema } from './engine-options.js';
import { lockHolder, type LockHolder } from './locks.js';
import type { AnyWorkflow } from './workflow.js';

/** What a start reads and writes: the journal, the registered workflows, the clock and the ids. */
export interface StartDeps {
  store: OperationsStore;
  workflow(kind: string): AnyWorkflow | undefined;
  now(): Date;
  idFactory(): string;
  /** The cloud and account this server acts on, recorded with each new operation (none in the engine's own tests). */
  owner: CloudIdentity | undefined;
}

/** What a start found or made: the operation, whether it was already there, and the first log line of a new one. */
export interface Started {
  record: OperationRecord;
  existing: boolean;
  accepted?: LogLine;
}

/**
 * In one write transaction: the operation that already answers this request — the one with the same
 * idempotency key (whatever its status), else a running one of the same kind on the same target with the
 * same input — or a new one, journaled with its phases and its first log line. Refuses (ConflictError) a
 * key used for another request, and (OperationConflictError, 409) a start whose locks a running operation
 * holds. `input` is already parsed (parseInput).
 */
export function findOrJournalOperation(
  deps: StartDeps,
  workflow: AnyWorkflow,
  input: Record<string, unknown>,
  idempotencyKey: string | undefined,
): Started {
  const { store } = deps;
  const kind = workflow.kind;
  const target = workflow.target(input);
  return store.transaction((): Started => {
    if (idempotencyKey !== undefined) {
      const same = store.findByIdempotencyKey(idempotencyKey);
      if (same) {
        assertSameRequest(idempotencyKey, same, kind, input);
        return { record: same, existing: true };
      }
    }
    // Read in this write transaction: what runs is what the journal says, and nothing starts between.
    const active = store.listActive();
    const request = canonicalJson(input);
    const repeat = active.find((op) => op.kind === kind && op.target === target && canonicalJson(op.input) === request);
    if (repeat) return { record: repeat, existing: true };
    const holder = lockHolder(workflow.locks(input), active, deps.workflow);
    if (holder) throw lockConflict(holder, `${kind} on ${target} cannot start`);
    const createdAt = deps.now().toISOString();
    const record = store.createOperation(
      {
        id: deps.idFactory(),
        kind,
        target,
        status: 'pending',
        input,
        state: workflow.initialState(input) as Record<string, unknown>,
        createdAt,
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
        ...placeOf(deps.owner, input),
      },
      workflow.phases
        .filter((p) => p.appliesTo?.(input) !== false)
        .map((p) => ({ name: p.name, title: p.title, expectedSeconds: p.expectedSeconds })),
    );
    // In the same transaction: an operation is in the journal with its first line, or not at all.
    const accepted = store.appendLog(record.id, {
      at: createdAt,
      level: 'info',
      message: `Accepted: ${operationKindLabel(kind)} (${target}).`,
    });
    return { record, existing: false, accepted };
  });
}

/** The cloud, account and Region a new operation acts in: its input's Region, else the server's default. */
function placeOf(owner: CloudIdentity | undefined, input: Record<string, unknown>): OperationPlace {
  if (!owner) return {};
  const region = typeof input.region === 'string' && input.region ? input.region : owner.region;
  return { cloud: owner.cloud, accountId: owner.accountId, region };
}

/** The input as its kind's schema reads it (as given without a schema); InputError naming each bad field. */
export function parseInput(
  kind: string,
  input: object,
  schema: InputSchema<unknown> | undefined,
): Record<string, unknown> {
  if (!schema) return input as Record<string, unknown>;
  const result = schema.safeParse(input);
  if (result.success) return result.data as Record<string, unknown>;
  const problems = result.error.issues.map((i) => ({
    path: i.path.map(String).join('.') || '(input)',
    message: i.message,
  }));
  throw new InputError({
    message: `Invalid input for ${kind}: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
    problems,
  });
}

/**
 * The 409 for a start or retry that needs what a running operation holds: names that operation and what it
 * holds. How to wait for it (a URL, a tool) is the faces' to add (src/api/operation-links.ts).
 */
export function lockConflict({ operation: op, resource, mode }: LockHolder, what: string): OperationConflictError {
  const how = mode === 'exclusive' ? 'holds' : 'shares';
  return new OperationConflictError({
    message: `${what}: ${op.kind} operation ${op.id} (${op.status}) on ${op.target} ${how} ${resource}.`,
    operation: { id: op.id, kind: op.kind, status: op.status, target: op.target },
    resource,
  });
}

/**
 * A repeat under the same Idempotency-Key must be the same request: same kind and the same validated
 * input (compared in canonical JSON: both went through the same schema), or it is refused naming the
 * key and the operation that holds it — returning the first operation would silently drop the second
 * request.
 */
function assertSameRequest(key: string, same: OperationRecord, kind: string, input: Record<string, unknown>): void {
  if (same.kind !== kind) {
    throw new ConflictError({
      message: `Idempotency key '${key}' was already used for ${same.kind} operation ${same.id}; use a new key for a different request.`,
      field: 'Idempotency-Key',
    });
  }
  if (canonicalJson(same.input) !== canonicalJson(input)) {
    throw new ConflictError({
      message: `Idempotency key '${key}' was already used for ${same.kind} operation ${same.id} on ${same.target} with a different request body; send the same body to get that operation back, or use a new key for a different request.`,
      field: 'Idempotency-Key',
    });
  }
}
