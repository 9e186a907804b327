import { arnMatches, globMatches, operatorHolds, contextValue, type ConditionContext } from './condition-operators.js';
import { statementsOf } from './policy-document.js';

/**
 * IAM's evaluation of one request against a set of policies, as the IAM User Guide's "Policy
 * evaluation logic" states it for a principal in one account: an explicit Deny in any matching
 * statement wins; otherwise a matching Allow allows; otherwise the request is implicitly denied.
 * A statement matches when its Action (or NotAction), its Resource (or NotResource) — or, in a trust
 * policy, its Principal — and every operator of its Condition match (condition-operators.ts).
 * Action names match case-insensitively with `*`/`?`; resources as ARNs, part by part. Policy
 * variables (`${aws:PrincipalAccount}`, `${*}`, `${?}`, `${$}`) are replaced from the request; a
 * variable the request lacks matches nothing. Not modelled: permissions boundaries, session and
 * resource-based policies other than a role's trust policy, SCPs (the sandbox account has none).
 */

/** Who asks, for a resource-based policy (a role's trust policy). */
export interface RequestPrincipal {
  kind: 'AWS' | 'Service' | 'Federated';
  /** An ARN or account id (AWS), a service principal (`sagemaker.amazonaws.com`), a provider ARN (Federated). */
  id: string;
}

export interface EvaluationRequest {
  action: string;
  /** The resource's ARN (`*` for actions that take no resource). */
  resource: string;
  context: ConditionContext;
  /** Set when the policies are resource-based: their statements name principals instead of resources. */
  principal?: RequestPrincipal;
}

/** A policy by the name it is known by (an ARN, or a role's inline policy name), with its document (JSON text or parsed). */
export interface NamedPolicy {
  name: string;
  document: unknown;
}

export type Decision =
  | { decision: 'Allow'; policy: string; sid?: string }
  | { decision: 'ExplicitDeny'; policy: string; sid?: string }
  | { decision: 'ImplicitDeny' };

type Statement = Record<string, unknown>;

/** The request's condition keys, by lower-cased name (IAM's keys are case-insensitive); undefined values are left out. */
export function requestContext(keys: Record<string, string | readonly string[] | undefined>): ConditionContext {
  const map = new Map<string, string | readonly string[]>();
  for (const [k, v] of Object.entries(keys)) if (v !== undefined) map.set(k.toLowerCase(), v);
  return map;
}

const asList = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is string => typeof x === 'string');

/** Replaces policy variables from the request; undefined when one names a key the request lacks. */
function substitute(value: string, context: ConditionContext): string | undefined {
  let missing = false;
  const out = value.replace(/\$\{([^}]+)\}/g, (_, name: string) => {
    if (name === '*' || name === '?' || name === '$') return name;
    const v = contextValue(context, name.trim());
    if (!v || v.length !== 1) {
      missing = true;
      return '';
    }
    return v[0]!;
  });
  return missing ? undefined : out;
}

function actionMatches(s: Statement, action: string): boolean {
  if (s.Action !== undefined) return asList(s.Action).some((p) => globMatches(p, action, true));
  if (s.NotAction !== undefined) return !asList(s.NotAction).some((p) => globMatches(p, action, true));
  return false;
}

function resourceMatches(s: Statement, resource: string, context: ConditionContext): boolean {
  const matches = (patterns: string[]) =>
    patterns.some((p) => {
      const resolved = substitute(p, context);
      return resolved !== undefined && (resolved === '*' || arnMatches(resolved, resource));
    });
  if (s.Resource !== undefined) return matches(asList(s.Resource));
  if (s.NotResource !== undefined) return !matches(asList(s.NotResource));
  return false;
}

/** `"*"`, `{"AWS": "*"}`, or the principal's kind naming its id (an AWS account id also names every principal of that account). */
function principalIn(element: unknown, who: RequestPrincipal): boolean {
  if (element === '*') return true;
  if (typeof element !== 'object' || element === null) return false;
  const e = element as Record<string, unknown>;
  if (asList(e.AWS).includes('*')) return true;
  return asList(e[who.kind]).some((id) => {
    if (id === who.id || (who.kind !== 'AWS' && globMatches(id, who.id))) return true;
    if (who.kind !== 'AWS') return false;
    const account = /^arn:aws[\w-]*:(?:iam|sts)::(\d{12}):/.exec(who.id)?.[1];
    return id === account || id === `arn:aws:iam::${account}:root`;
  });
}

function principalMatches(s: Statement, who: RequestPrincipal): boolean {
  if (s.Principal !== undefined) return principalIn(s.Principal, who);
  if (s.NotPrincipal !== undefined) return !principalIn(s.NotPrincipal, who);
  return false;
}

function conditionHolds(s: Statement, context: ConditionContext): boolean {
  const condition = s.Condition;
  if (condition === undefined) return true;
  if (typeof condition !== 'object' || condition === null) return false;
  return Object.entries(condition as Record<string, unknown>).every(
    ([operator, block]) =>
      typeof block === 'object' &&
      block !== null &&
      operatorHolds(operator, block as Record<string, unknown>, context, (v) => substitute(v, context)),
  );
}

function statementMatches(s: Statement, request: EvaluationRequest): boolean {
  if (!actionMatches(s, request.action)) return false;
  const target = request.principal
    ? principalMatches(s, request.principal)
    : resourceMatches(s, request.resource, request.context);
  return target && conditionHolds(s, request.context);
}

/**
 * The decision for `request` over `policies`.
 *
 * @example
 * evaluatePolicies([{ name: 'inline', document: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 's3:*',
 * Resource: '*' }] } }],
 *   { action: 's3:GetObject', resource: 'arn:aws:s3:::b/k', context: requestContext({}) }) // { decision: 'Allow',
 * policy: 'inline' }
 */
export function evaluatePolicies(policies: readonly NamedPolicy[], request: EvaluationRequest): Decision {
  let allow: Decision | undefined;
  for (const p of policies) {
    const statements =
      typeof p.document === 'string' ? statementsOf(p.document) : statementsOf(JSON.stringify(p.document));
    for (const s of statements ?? []) {
      if (!statementMatches(s, request)) continue;
      const sid = typeof s.Sid === 'string' ? s.Sid : undefined;
      if (s.Effect === 'Deny') return { decision: 'ExplicitDeny', policy: p.name, ...(sid ? { sid } : {}) };
      if (s.Effect === 'Allow' && !allow) allow = { decision: 'Allow', policy: p.name, ...(sid ? { sid } : {}) };
    }
  }
  return allow ?? { decision: 'ImplicitDeny' };
}
