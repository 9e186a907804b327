import type { IncomingMessage } from 'node:http';
import { KubeError, type StatusCause } from '../errors.js';

/** The query options of create, update and patch: dryRun, fieldManager, force. */
export interface WriteOptions {
  dryRun: boolean;
  /** The field manager: `fieldManager`, else the User-Agent's program name (`kubectl/v1.32 …` → `kubectl`), as the API defaults it. */
  manager: string;
  /** Whether `fieldManager` was given explicitly (server-side apply requires it). */
  managerGiven: boolean;
  force: boolean;
  /** `fieldValidation=Strict` (kubectl's default): unknown fields are refused instead of dropped. */
  strict: boolean;
}

/** 422 for bad request options (`CreateOptions.meta.k8s.io "" is invalid: …`), as the API validates them. */
export const invalidOptions = (kind: string, causes: StatusCause[], group = 'meta.k8s.io') =>
  new KubeError(
    422,
    'Invalid',
    `${group ? `${kind}.${group}` : kind} "" is invalid: ${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}`,
    {
      group,
      kind,
      causes: causes.map((c) => ({ reason: c.reason ?? 'FieldValueInvalid', message: c.message, field: c.field })),
    },
  );

/** `dryRun` values: only `All` is defined. */
export function dryRunOf(values: string[], kind = 'DeleteOptions'): boolean {
  const bad = values.find((v) => v !== 'All');
  if (bad !== undefined)
    throw invalidOptions(kind, [
      {
        field: 'dryRun',
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: "${bad}": supported values: "All"`,
      },
    ]);
  return values.length > 0;
}

export function writeOptions(
  query: URLSearchParams,
  req: IncomingMessage,
  kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
): WriteOptions {
  const given = query.get('fieldManager') ?? '';
  const agent = String(req.headers['user-agent'] ?? '')
    .split('/')[0]!
    .replace(/[^\x20-\x7e]/g, '')
    .slice(0, 128);
  if (given.length > 128)
    throw invalidOptions(kind, [
      { field: 'fieldManager', reason: 'FieldValueTooLong', message: 'Too long: may not be longer than 128' },
    ]);
  const force = query.get('force');
  if (force !== null && force !== 'true' && force !== 'false')
    throw invalidOptions(kind, [{ field: 'force', message: `Invalid value: "${force}"` }]);
  const validation = query.get('fieldValidation');
  if (validation !== null && !['Strict', 'Warn', 'Ignore'].includes(validation)) {
    throw invalidOptions(kind, [
      {
        field: 'fieldValidation',
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: "${validation}": supported values: "Ignore", "Strict", "Warn"`,
      },
    ]);
  }
  return {
    dryRun: dryRunOf(query.getAll('dryRun'), kind),
    manager: given || agent,
    managerGiven: given !== '',
    force: force === 'true',
    strict: validation === 'Strict',
  };
}

/** Server-side apply needs a named manager; `force` is for apply only (both 422, as the API validates PatchOptions). */
export function checkPatchOptions(opts: WriteOptions, query: URLSearchParams, apply: boolean): void {
  if (apply && !opts.managerGiven)
    throw invalidOptions('PatchOptions', [
      { field: 'fieldManager', reason: 'FieldValueRequired', message: 'Required value: is required for apply patch' },
    ]);
  if (!apply && query.get('force') !== null)
    throw invalidOptions('PatchOptions', [
      { field: 'force', reason: 'FieldValueForbidden', message: 'Forbidden: may not be specified for non-apply patch' },
    ]);
}
