import { z } from 'zod';
import {
  AcceptedSchema,
  OperationStatusSchema,
  OperationViewSchema,
  PhaseStatusSchema,
  TERMINAL_OPERATION_STATUSES,
  type Accepted,
  type OperationView,
  type PhaseView,
} from '../domain/schemas/operations.js';
import { nextCallAfterSuccess } from './next-call.js';
import { OPERATION_STATUS_TOOL } from './status-tool.js';
import type { ToolAnswer } from './tool-kit.js';

/**
 * How operations read to an agent. The prototype's mutating tools returned "submitted" with a tip
 * that most of them forgot; here every mutating answer names the status tool with its arguments and
 * says in so many words that the work is NOT done, and every status answer ends with the next step.
 */

export const STATUS_TOOL = OPERATION_STATUS_TOOL;

/** The sentence every operation-starting tool's description ends with: the answer is not the end of the work. */
export const POLL_UNTIL_DONE = 'The answer is NOT the end: poll wait_for_operation until "succeeded" or "failed".';

const PhaseLineSchema = z.object({
  name: z.string().describe('Phase id; pass it to retry_operation_phase when the phase failed.'),
  title: z.string(),
  status: PhaseStatusSchema,
  attempts: z.number().int(),
  progress: z.string().optional().describe('Latest progress note while the phase awaits the cloud.'),
  error: z.string().optional(),
  retryable: z.boolean(),
  after: z
    .array(z.string())
    .optional()
    .describe('The phases it starts after; it runs side by side with any other phase whose needs are met.'),
});

export const NextCallSchema = z
  .object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) })
  .describe('The call to make next, when there is one.');

/** Answer of every tool that starts (or returns) an operation: create_cluster, delete_cluster, retry, cancel. */
export const OperationStartedSchema = z.object({
  operationId: z.string(),
  kind: z.string(),
  target: z.string(),
  status: OperationStatusSchema,
  done: z
    .boolean()
    .describe('Always false unless the operation already reached a terminal status: poll statusTool until it is.'),
  existing: z
    .boolean()
    .describe(
      'True when this request was already answered (same idempotencyKey, the same request still running, or the succeeded create that made this cluster): that operation is returned and nothing new started.',
    ),
  statusTool: z.string().describe('The tool that decides completion: wait_for_operation.'),
  statusToolArguments: z.object({ operationId: z.string() }),
  nextStep: z.string(),
  operation: OperationViewSchema,
});

/** What every status answer opens with (statusOf fills it): which operation, where it stands, which phases run. */
const OperationStatusFields = z.object({
  operationId: z.string(),
  kind: z.string(),
  target: z.string(),
  status: OperationStatusSchema,
  terminal: z.boolean().describe('True for succeeded, failed and cancelled: nothing more will happen without a retry.'),
  succeeded: z.boolean(),
  currentPhase: z.string().optional().describe('The first phase working; see runningPhases for all of them.'),
  runningPhases: z.array(z.string()).describe('Every phase working now: independent phases run side by side.'),
});

/** Answer of get_operation. */
export const OperationReportSchema = OperationStatusFields.extend({
  phases: z.array(PhaseLineSchema).describe('Per-phase progress, in order.'),
  failedPhase: z.string().optional().describe('The phase to pass to retry_operation_phase after fixing the cause.'),
  waitedSeconds: z.number().optional().describe('How long wait_for_operation blocked.'),
  nextStep: z.string(),
  next: NextCallSchema.optional(),
  operation: OperationViewSchema,
});
export type OperationReport = z.infer<typeof OperationReportSchema>;

/** One phase in a wait answer: where it stands, nothing more. */
const PhaseProgressSchema = z.object({
  name: z.string().describe('Phase id; pass it to retry_operation_phase when the phase failed.'),
  status: PhaseStatusSchema,
  progress: z.string().optional().describe('Latest progress note while the phase works.'),
});

/**
 * Answer of wait_for_operation: compact, because an agent calls it again and again while an operation
 * runs — the phases as name/status/progress, the failure in one line, no operation view (get_operation
 * has the full report, get_operation_logs the log).
 */
export const OperationProgressSchema = OperationStatusFields.extend({
  phasesDone: z.number().int().describe('Phases succeeded or skipped so far.'),
  phases: z.array(PhaseProgressSchema).describe('Every phase, in order.'),
  failedPhase: z.string().optional().describe('The phase to pass to retry_operation_phase after fixing the cause.'),
  retryable: z
    .boolean()
    .describe('True when the operation failed and failedPhase can be retried with retry_operation_phase.'),
  error: z.string().optional().describe('Why it failed, as "code: message".'),
  result: z.record(z.string(), z.unknown()).optional().describe('What a succeeded operation produced.'),
  waitedSeconds: z.number().describe('How long this call blocked.'),
  nextStep: z.string(),
  next: NextCallSchema.optional(),
});
export type OperationProgress = z.infer<typeof OperationProgressSchema>;

export const isTerminal = (op: OperationView) => TERMINAL_OPERATION_STATUSES.includes(op.status);

/** The answer of a mutating tool, from the server's 202 body. */
export function startedAnswer(raw: unknown, verb: string): ToolAnswer {
  const accepted: Accepted = AcceptedSchema.parse(raw);
  const op = accepted.operation;
  // Always our own status tool: the playbooks and the pinned tool list rely on this exact name.
  const statusTool = STATUS_TOOL;
  const terminal = isTerminal(op);
  const args = JSON.stringify({ operationId: op.id });
  const nextStep = terminal
    ? `Operation ${op.id} is already ${op.status}. Call ${statusTool} with ${args} to read its phases.`
    : `NOT done yet: operation ${op.id} is ${op.status}. Call ${statusTool} with ${args} and keep calling it until it reports status "succeeded" (or "failed"). Do not tell the user the work is finished before that.`;
  const head = !accepted.existing
    ? `${verb}: accepted as operation ${op.id} (${op.kind} ${op.target}).`
    : terminal
      ? `${verb}: this request was already answered by operation ${op.id} (${op.kind} ${op.target}), which ${op.status === 'succeeded' ? 'succeeded' : `ended ${op.status}`}; nothing new was started.`
      : `${verb}: an operation for this request was already under way; returning it (${op.id}, ${op.kind} ${op.target}).`;
  return {
    text: `${head}\n${nextStep}`,
    data: {
      operationId: op.id,
      kind: op.kind,
      target: op.target,
      status: op.status,
      done: terminal,
      existing: accepted.existing,
      statusTool,
      statusToolArguments: { operationId: op.id },
      nextStep,
      operation: op,
    },
  };
}

/** The answer of get_operation / wait_for_operation: status, per-phase progress, next step. */
export function reportAnswer(raw: unknown, waitedSeconds?: number): ToolAnswer {
  const op = OperationViewSchema.parse(raw);
  const failed = op.phases.find((p) => p.status === 'failed');
  const { nextStep, next } = nextStepFor(op, failed);
  const report: OperationReport = {
    ...statusOf(op),
    phases: op.phases.map(phaseLine),
    failedPhase: failed?.name,
    waitedSeconds,
    nextStep,
    next,
    operation: op,
  };
  const together =
    op.runningPhases.length > 1
      ? ` — ${op.runningPhases.length} phases running side by side (${op.runningPhases.join(', ')})`
      : '';
  const lines = [`Operation ${op.id} (${op.kind} ${op.target}): ${op.status.toUpperCase()}${together}`];
  op.phases.forEach((p, i) => lines.push(`  ${i + 1}/${op.phases.length} ${describePhase(p)}`));
  if (op.error && !failed) lines.push(`Error: ${op.error.code}: ${op.error.message}`);
  lines.push(nextStep);
  return { text: lines.join('\n'), data: report };
}

/** What every status answer opens with: which operation, where it stands, which phases run now. */
function statusOf(op: OperationView) {
  return {
    operationId: op.id,
    kind: op.kind,
    target: op.target,
    status: op.status,
    terminal: isTerminal(op),
    succeeded: op.status === 'succeeded',
    currentPhase: op.currentPhase,
    runningPhases: op.runningPhases,
  };
}

/** The answer of wait_for_operation: one status line, the phase working (or failed), the next step. */
export function progressAnswer(raw: unknown, waitedSeconds: number): ToolAnswer {
  const op = OperationViewSchema.parse(raw);
  const failed = op.phases.find((p) => p.status === 'failed');
  const { nextStep, next } = nextStepFor(op, failed);
  const done = op.phases.filter((p) => p.status === 'succeeded' || p.status === 'skipped').length;
  const failure = failed?.error ?? op.error;
  const error = failure ? `${failure.code}: ${failure.message}` : undefined;
  const data: OperationProgress = {
    ...statusOf(op),
    phasesDone: done,
    phases: op.phases.map((p) => ({ name: p.name, status: p.status, progress: p.progress })),
    failedPhase: failed?.name,
    retryable: op.status === 'failed' && failed?.retryable === true,
    error,
    result: op.result,
    waitedSeconds,
    nextStep,
    next,
  };
  // Every phase working now (several run side by side), else the current one.
  const working = op.phases.filter((p) => op.runningPhases.includes(p.name));
  const current = op.phases.find((p) => p.name === op.currentPhase);
  const now = working.length ? working : current && current !== failed ? [current] : [];
  const together = working.length > 1 ? `, ${working.length} running side by side` : '';
  const lines = [
    `Operation ${op.id} (${op.kind} ${op.target}): ${op.status.toUpperCase()} — ${done}/${op.phases.length} phases done${together}`,
  ];
  for (const p of now) lines.push(`Now: ${describePhase(p)}`);
  if (failed) lines.push(`Failed: ${describePhase(failed)}`);
  else if (error) lines.push(`Error: ${error}`);
  lines.push(nextStep);
  return { text: lines.join('\n'), data };
}

function phaseLine(p: PhaseView): z.infer<typeof PhaseLineSchema> {
  return {
    name: p.name,
    title: p.title,
    status: p.status,
    attempts: p.attempts,
    progress: p.progress,
    error: p.error ? `${p.error.code}: ${p.error.message}` : undefined,
    retryable: p.retryable,
    after: p.after,
  };
}

function describePhase(p: PhaseView): string {
  let s = `[${p.status}] ${p.name} — ${p.title}`;
  if (p.durationMs !== undefined && p.finishedAt) s += ` (${Math.round(p.durationMs / 1000)} s)`;
  else if (p.status === 'observing' || p.status === 'acting' || p.status === 'awaiting')
    s += ` (typically ~${p.expectedSeconds} s)`;
  if (p.attempts > 1) s += `, attempt ${p.attempts}`;
  if (p.status === 'pending' && p.after?.length) s += ` (after ${p.after.join(', ')})`;
  if (p.progress && !p.finishedAt) s += `: ${p.progress}`;
  if (p.error) s += `: ${p.error.code}: ${p.error.message}`;
  return s;
}

function nextStepFor(
  op: OperationView,
  failed: PhaseView | undefined,
): { nextStep: string; next?: z.infer<typeof NextCallSchema> } {
  const id = { operationId: op.id };
  switch (op.status) {
    case 'succeeded': {
      const after = nextCallAfterSuccess(op);
      if (!after) return { nextStep: 'Succeeded: the operation is complete.' };
      return {
        nextStep: `Succeeded: the operation is complete. Next: call ${after.tool} ${JSON.stringify(after.arguments)} ${after.why}.`,
        next: { tool: after.tool, arguments: after.arguments },
      };
    }
    case 'cancelled':
      return { nextStep: 'Cancelled: nothing more will run for this operation.' };
    case 'failed':
      if (failed?.retryable) {
        return {
          nextStep:
            `FAILED in phase "${failed.name}". Read get_operation_logs ${JSON.stringify(id)} to find the cause; once it is fixed ` +
            `(or if it was transient), call retry_operation_phase ${JSON.stringify({ ...id, phase: failed.name })}, then wait_for_operation again. Completed phases are not repeated.`,
          next: { tool: 'get_operation_logs', arguments: id },
        };
      }
      return {
        nextStep: `FAILED${failed ? ` in phase "${failed.name}"` : ''} and not retryable. Read get_operation_logs ${JSON.stringify(id)} and tell the user the cause.`,
        next: { tool: 'get_operation_logs', arguments: id },
      };
    default:
      return {
        nextStep: `NOT finished (${op.status}${workingOn(op)}). Call wait_for_operation ${JSON.stringify(id)} again; do not report the work as done.`,
        next: { tool: STATUS_TOOL, arguments: id },
      };
  }
}

/** `, phase eks` or `, phases nat-ready, eks`: what works now (else the current phase), for the next step. */
function workingOn(op: OperationView): string {
  if (op.runningPhases.length > 1) return `, phases ${op.runningPhases.join(', ')}`;
  const one = op.runningPhases[0] ?? op.currentPhase;
  return one ? `, phase ${one}` : '';
}
