import { z } from 'zod';
import { OperationKindSchema } from '../operation-kinds.js';

/**
 * The public shape of durable operations (ARCHITECTURE.md → Operations). Every mutating endpoint
 * answers 202 with an operation; `statusUrl` / `statusTool` name what decides completion.
 */
export const CloudKindSchema = z
  .enum(['sandbox', 'aws'])
  .describe('sandbox: the local simulated cloud (nothing is billed); aws: real AWS.');
export type CloudKind = z.infer<typeof CloudKindSchema>;

export const OperationStatusSchema = z
  .enum(['pending', 'running', 'succeeded', 'failed', 'cancelling', 'cancelled'])
  .describe('pending: queued; running: a phase works; succeeded/failed/cancelled: terminal.');
export type OperationStatus = z.infer<typeof OperationStatusSchema>;
export const TERMINAL_OPERATION_STATUSES: readonly OperationStatus[] = ['succeeded', 'failed', 'cancelled'];

export const PhaseStatusSchema = z
  .enum(['pending', 'observing', 'acting', 'awaiting', 'succeeded', 'skipped', 'failed', 'cancelled'])
  .describe(
    'observing: reading actual state; acting: one mutation journaled before the call; awaiting: polling to a terminal state; skipped: already done, nothing changed.',
  );
export type PhaseStatus = z.infer<typeof PhaseStatusSchema>;

export const OperationErrorSchema = z.object({
  phase: z.string().optional(),
  code: z.string().describe("The cloud's own error code (e.g. ValidationException) or ours."),
  message: z.string(),
});
export type OperationError = z.infer<typeof OperationErrorSchema>;

export const LogLineSchema = z.object({
  seq: z.number().int().describe('Increasing sequence number within the operation; use it as `after` to page.'),
  at: z.string().describe('ISO-8601 time.'),
  phase: z.string().optional(),
  level: z.enum(['info', 'warn', 'error']),
  message: z.string(),
});
export type LogLine = z.infer<typeof LogLineSchema>;

export const PhaseViewSchema = z.object({
  name: z.string(),
  title: z.string(),
  status: PhaseStatusSchema,
  attempts: z.number().int().describe('How many times the phase started (retries add one).'),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  durationMs: z.number().optional(),
  expectedSeconds: z.number().describe('Typical duration on AWS, for progress estimates.'),
  after: z
    .array(z.string())
    .optional()
    .describe(
      'The phases this one starts after: it runs as soon as they are done, side by side with any other phase whose needs are met. Absent when this server does not run this kind of operation.',
    ),
  progress: z.string().optional().describe('Latest progress note while awaiting, e.g. "EKS cluster CREATING".'),
  error: OperationErrorSchema.optional(),
  retryable: z.boolean().describe('True when this phase failed and can be retried alone.'),
});
export type PhaseView = z.infer<typeof PhaseViewSchema>;

export const OperationPauseSchema = z
  .object({
    since: z.string().describe('ISO-8601 time the operation paused.'),
    code: z
      .string()
      .describe("The store's error code, e.g. SQLITE_FULL, SQLITE_READONLY, SQLITE_IOERR_WRITE, SQLITE_BUSY."),
    reason: z
      .string()
      .describe(
        'Which file cannot be written, why, what to do; the operation resumes by itself, observing first, once it can.',
      ),
  })
  .describe(
    'Present while the operation is paused because the server cannot write its data directory (kept in memory only: the journal is what cannot be written).',
  );
export type OperationPause = z.infer<typeof OperationPauseSchema>;

/**
 * An operation and its phases as the journal has them now: what the engine answers. The faces add what to call to
 * follow it (OperationViewSchema).
 */
export const OperationSnapshotSchema = z.object({
  id: z.string(),
  kind: z.string().describe('Workflow kind, e.g. create-cluster, delete-cluster.'),
  target: z.string().describe('What the operation works on, e.g. cluster/us-west-2/my-cluster.'),
  status: OperationStatusSchema,
  cloud: CloudKindSchema.nullable().describe(
    'The cloud the operation acts on; null for operations journaled before InstantStart recorded it (unknown).',
  ),
  accountId: z
    .string()
    .nullable()
    .describe('The AWS account the operation acts in (000000000000 on the sandbox); null when unknown.'),
  region: z.string().nullable().describe('The Region the operation acts in; null when unknown.'),
  input: z.record(z.string(), z.unknown()),
  result: z.record(z.string(), z.unknown()).optional(),
  error: OperationErrorSchema.optional(),
  currentPhase: z
    .string()
    .optional()
    .describe(
      'The first phase working (else the failed or cancelled one, else the next pending one). Several phases may run at once: see runningPhases.',
    ),
  runningPhases: z
    .array(z.string())
    .default([])
    .describe(
      'Every phase working now (observing, acting or awaiting), in phase order: independent phases run side by side. Empty once the operation ended.',
    ),
  paused: OperationPauseSchema.optional(),
  phases: z.array(PhaseViewSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().optional(),
});
export type OperationSnapshot = z.infer<typeof OperationSnapshotSchema>;

/** An operation as REST answers it (and MCP reads it): its snapshot and where to follow it (src/api/operation-links.ts). */
export const OperationViewSchema = OperationSnapshotSchema.extend({
  statusUrl: z.string(),
  statusTool: z.string().describe('MCP tool that reports this operation (wait_for_operation / get_operation).'),
});
export type OperationView = z.infer<typeof OperationViewSchema>;

/**
 * The key a client chooses to name one mutating request (REST `Idempotency-Key` header, MCP tools'
 * `idempotencyKey`): a repeat under the same key is answered with the operation the first call
 * started, never started twice.
 */
export const IdempotencyKeySchema = z
  .string()
  .min(1, 'must be 1–200 visible ASCII characters')
  .max(200, 'must be 1–200 visible ASCII characters')
  .regex(/^[\x21-\x7e]+$/, 'must be 1–200 visible ASCII characters')
  .describe(
    'Optional key you choose for this request (1–200 visible ASCII characters, e.g. a UUID). When an answer was lost, repeat the call with the same key and ' +
      'the same arguments: the server answers with the operation the first call started instead of starting another.',
  );

/** The 202 body of every mutation. */
export const AcceptedSchema = z.object({
  operation: OperationViewSchema,
  statusUrl: z.string().describe('GET this URL until operation.status is terminal.'),
  statusTool: z.string().describe('MCP tool to poll: wait_for_operation with this operation id.'),
  existing: z
    .boolean()
    .describe(
      'True when this request was already answered: the operation started under the same Idempotency-Key, the one already running for the same request, or the succeeded create that made this very cluster — returned instead of a new one.',
    ),
});
export type Accepted = z.infer<typeof AcceptedSchema>;

export const ListOperationsQuerySchema = z
  .object({
    status: OperationStatusSchema.optional(),
    kind: OperationKindSchema.optional(),
    target: z.string().max(256).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();

export const OperationEventsQuerySchema = z
  .object({
    after: z.coerce.number().int().min(0).default(0).describe('Return log lines with seq greater than this.'),
    limit: z.coerce.number().int().min(1).max(1000).default(200),
  })
  .strict();

export const WaitQuerySchema = z
  .object({
    timeoutSeconds: z.coerce
      .number()
      .min(0)
      .max(300)
      .default(30)
      .describe('Block up to this many seconds for a terminal status.'),
  })
  .strict();
