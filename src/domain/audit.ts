import { REDACTED, isSecretName, redactSecretFields } from './secret-names.js';
import type { AuditFace, AuditOutcome } from './schemas/audit.js';

/**
 * The rules of the audit timeline (docs/AUDIT.md) that need no I/O: what of a request is kept, which AWS calls count
 * as mutations, and how a status and a client's claim are read.
 */

/** The header a client names its face in (the MCP server's REST client: mcp; the web UI: ui; absent: rest). */
export const FACE_HEADER = 'x-instantstart-face';
/** The header the MCP server names its MCP client in (the name the client gave at initialize). */
export const CLIENT_HEADER = 'x-instantstart-client';

/** At most this much of a request's input is kept (canonical JSON characters); a longer one keeps only its digest. */
export const MAX_AUDIT_INPUT_CHARS = 8000;

/**
 * `input` as the audit keeps it: every field with a secret name removed (src/domain/secret-names.ts, what the logs
 * use), and the value of every `{ name, value }` pair whose name is a secret name (environment variables such as
 * `{ name: 'HF_TOKEN', value: '…' }`, which hide a credential under the field name `value`).
 */
export function auditInput<T>(input: T, depth = 8): T {
  const named = redactNamedValues(input, depth);
  return redactSecretFields(named, depth);
}

function redactNamedValues<T>(value: T, depth: number): T {
  if (depth <= 0 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactNamedValues(v, depth - 1)) as T;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) out[k] = redactNamedValues(v, depth - 1);
  const name = record.name;
  if (typeof name === 'string' && isSecretName(name) && Object.hasOwn(record, 'value') && record.value != null) {
    out.value = REDACTED;
  }
  return out as T;
}

/**
 * Whether an AWS API operation may change something: everything but the reads (Describe…, List…, Get…, Head…,
 * Search…, Simulate… — the read verbs of the AWS API naming convention). It errs on the side of recording.
 */
export function isMutatingAwsOperation(operation: string): boolean {
  return !/^(Describe|List|Get|Head|Search|Simulate|Lookup|Select|Check|Preview)/.test(operation);
}

export function outcomeOf(status: number): AuditOutcome {
  return status < 400 ? 'accepted' : status < 500 ? 'refused' : 'failed';
}

/** The face a request claims (its header), REST when it claims none or something unknown. */
export function faceOf(header: string | undefined): AuditFace {
  return header === 'ui' || header === 'mcp' ? header : 'rest';
}

/** A client-supplied name as kept: visible ASCII, at most 200 characters. */
export function clientName(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const clean = raw.replace(/[^\x20-\x7e]/g, '').slice(0, 200);
  return clean || undefined;
}
