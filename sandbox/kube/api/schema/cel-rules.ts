import type { StatusCause } from '../../errors.js';
import { celEnvironment } from './cel-library.js';
import { isPlainObject, type Schema } from './walk.js';

/**
 * `x-kubernetes-validations` rules compiled once per source text, and the CRD-time check the API
 * server makes: every rule (and messageExpression) of every version's schema must compile, a rule
 * to a bool and a messageExpression to a string — otherwise the CRD itself is refused
 * (`…x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{…}: compilation
 * failed: …`), so no rule the sandbox cannot evaluate is ever accepted silently.
 */

export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface Compiled {
  run(vars: { self: unknown; oldSelf?: unknown }): unknown;
  /** Whether the expression reads `oldSelf` (a transition rule: evaluated only on update). */
  usesOldSelf: boolean;
}

type Outcome = { compiled: Compiled } | { error: string };
const cache = new Map<string, Outcome>();

interface AstNode {
  op: string;
  args: unknown;
}
const isNode = (v: unknown): v is AstNode =>
  typeof v === 'object' && v !== null && typeof (v as AstNode).op === 'string';

function readsOldSelf(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(readsOldSelf);
  if (!isNode(node)) return false;
  if (node.op === 'id') return node.args === 'oldSelf';
  return readsOldSelf(node.args);
}

const firstLine = (message: string) => message.split('\n')[0]!.trim();

/** Compiles `source` expecting `want` ('bool' for a rule, 'string' for a messageExpression); the error says why it did not. */
export function compile(source: string, want: 'bool' | 'string'): Outcome {
  const key = `${want}\u0000${source}`;
  const known = cache.get(key);
  if (known) return known;
  let outcome: Outcome;
  try {
    const env = celEnvironment();
    const parsed = env.parse(source);
    const checked = parsed.check();
    const type = String(checked.type);
    if (!checked.valid)
      outcome = { error: `ERROR: <input>: ${firstLine(checked.error?.message ?? 'type check failed')}` };
    else if (type !== want && type !== 'dyn') outcome = { error: `cel expression must evaluate to a ${want}` };
    else outcome = { compiled: { run: (vars) => parsed(vars), usesOldSelf: readsOldSelf(parsed.ast) } };
  } catch (err) {
    outcome = { error: `ERROR: <input>: ${firstLine(err instanceof Error ? err.message : String(err))}` };
  }
  cache.set(key, outcome);
  return outcome;
}

/** How the API server prints a rule in a compile error (Go's %#v of apiextensions.ValidationRule). */
function ruleShown(r: ValidationRule): string {
  const str = (v: string | undefined) => JSON.stringify(v ?? '');
  const ptr = (type: string, v: unknown) => (v === undefined ? `(*${type})(nil)` : `(*${type})(${JSON.stringify(v)})`);
  return `apiextensions.ValidationRule{Rule:${str(r.rule)}, Message:${str(r.message)}, MessageExpression:${str(r.messageExpression)}, Reason:${ptr('apiextensions.FieldValueErrorReason', r.reason)}, FieldPath:${str(r.fieldPath)}, OptionalOldSelf:${ptr('bool', r.optionalOldSelf)}}`;
}

/** The rules of one schema node (malformed entries are the structural check's business). */
export function rulesOf(schema: Schema): ValidationRule[] {
  const rules = schema['x-kubernetes-validations'];
  return Array.isArray(rules)
    ? (rules.filter((r) => isPlainObject(r) && typeof r.rule === 'string') as ValidationRule[])
    : [];
}

/** Compile causes of every rule under `schema` (a CRD version's openAPIV3Schema at `at`). */
export function ruleCompileCauses(schema: Schema, at: string): StatusCause[] {
  const causes: StatusCause[] = [];
  rulesOf(schema).forEach((r, i) => {
    const path = `${at}.x-kubernetes-validations[${i}]`;
    if (r.rule.trim() === '') {
      causes.push({ field: `${path}.rule`, reason: 'FieldValueRequired', message: 'Required value' });
      return;
    }
    const rule = compile(r.rule, 'bool');
    if ('error' in rule)
      causes.push({
        field: `${path}.rule`,
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${ruleShown(r)}: compilation failed: ${rule.error}`,
      });
    if (r.messageExpression !== undefined) {
      const message = compile(r.messageExpression, 'string');
      if ('error' in message)
        causes.push({
          field: `${path}.messageExpression`,
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${ruleShown(r)}: messageExpression compilation failed: ${message.error}`,
        });
    }
  });
  for (const [name, sub] of Object.entries(isPlainObject(schema.properties) ? schema.properties : {}))
    if (isPlainObject(sub)) causes.push(...ruleCompileCauses(sub, `${at}.properties[${name}]`));
  if (isPlainObject(schema.items)) causes.push(...ruleCompileCauses(schema.items, `${at}.items`));
  if (isPlainObject(schema.additionalProperties))
    causes.push(...ruleCompileCauses(schema.additionalProperties, `${at}.additionalProperties`));
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key]))
      (schema[key] as Schema[]).forEach(
        (s, i) => isPlainObject(s) && causes.push(...ruleCompileCauses(s, `${at}.${key}[${i}]`)),
      );
  }
  return causes;
}
