import { ACTION_EXCEPTIONS, DEPENDENT_ACTIONS } from './policy-actions.js';
import type { ProductPolicyStatement } from './product-policy.js';

/**
 * How `instantstart doctor` asks IAM's policy simulator about the product's policy (src/domain/iam/product-policy.ts):
 * one question per statement — its actions, its resources with the account and Region filled in, and the context its
 * condition needs — and, from the answer, the AWS calls that need a denied action.
 */

export interface StatementSimulation {
  sid: string;
  actions: readonly string[];
  /** Resource ARNs to evaluate; empty means `*` (the statement's actions take no resource). */
  resources: string[];
  /** Condition keys with the value the product's requests carry. */
  context: Record<string, string[]>;
}

/**
 * Fills an ARN pattern's `*` account and Region with the ones checked (a caller's policy scoped to its own account
 * or Region still matches); the resource part keeps its wildcard: the product needs every name under the prefix, so
 * a literal `instantstart-*` is what a policy scoped as the product's must allow (a narrower one is rightly denied).
 */
export function concreteArn(pattern: string, where: { accountId: string; region: string }): string {
  const parts = pattern.split(':');
  if (parts.length < 6 || parts[0] !== 'arn') return pattern;
  if (parts[3] === '*') parts[3] = where.region;
  if (parts[4] === '*') parts[4] = where.accountId;
  return parts.join(':');
}

/**
 * The questions for a statement. Each condition value is asked on its own: a condition with a list
 * (`iam:PassedToService` = EKS, SageMaker, Pod Identity) means the product makes a request with each value, and a
 * caller allowed only one of them must show as denied. Every condition of PRODUCT_POLICY is StringEquals or ArnEquals
 * on one key, where the value itself is what a request carries; a `*Like` pattern is sent as written (it matches
 * itself), which is the simple context this check supports.
 */
export function statementSimulations(
  statement: ProductPolicyStatement,
  where: { accountId: string; region: string },
): StatementSimulation[] {
  const resources = statement.resources.filter((r) => r !== '*').map((r) => concreteArn(r, where));
  const base = { sid: statement.sid, actions: statement.actions, resources };
  const entries = Object.values(statement.conditions ?? {}).flatMap((kv) =>
    Object.entries(kv).map(([key, v]) => [key, typeof v === 'string' ? [v] : [...v]] as const),
  );
  if (entries.length === 0) return [{ ...base, context: {} }];
  // One question per value of each key, the other keys at their first value.
  const first = Object.fromEntries(entries.map(([k, vs]) => [k, [vs[0]!]]));
  const out: StatementSimulation[] = [];
  for (const [key, values] of entries)
    for (const value of values) {
      if (out.length > 0 && value === first[key]![0]) continue;
      out.push({ ...base, context: { ...first, [key]: [value] } });
    }
  return out;
}

const SERVICE_NAMES: Readonly<Record<string, string>> = {
  ec2: 'EC2',
  eks: 'EKS',
  fsx: 'FSx',
  iam: 'IAM',
  s3: 'S3',
  sagemaker: 'SageMaker',
  'sagemaker-mlflow': 'SageMaker MLflow',
  servicequotas: 'Service Quotas',
  sts: 'STS',
  pricing: 'Price List',
};

const callName = (action: string): string => {
  const [prefix, operation] = action.split(':') as [string, string];
  return `${SERVICE_NAMES[prefix] ?? prefix} ${operation}`;
};

/** Actions that are a permission only, no API operation (IAM User Guide, "Granting a user permissions to pass a role"). */
const PERMISSION_ONLY = new Set(['iam:PassRole']);

/**
 * The AWS calls that need `action`: the calls authorized by it (its own operation, or the operations
 * ACTION_EXCEPTIONS maps to it: S3 HeadBucket → s3:ListBucket) and the calls it is a dependent action of
 * (DEPENDENT_ACTIONS: EKS CreateCluster needs iam:PassRole).
 */
export function callsNeeding(action: string): string[] {
  const byException = Object.entries(ACTION_EXCEPTIONS)
    .filter(([, a]) => a.toLowerCase() === action.toLowerCase())
    .map(([op]) => callName(op));
  const own = PERMISSION_ONLY.has(action) ? [] : byException.length > 0 ? byException : [callName(action)];
  const dependents = Object.entries(DEPENDENT_ACTIONS)
    .filter(([, needs]) => needs.some((a) => a.toLowerCase() === action.toLowerCase()))
    .map(([op]) => `${callName(op)} (checked with it)`);
  return [...new Set([...own, ...dependents])];
}

/** One statement of the product's policy holding just `action`, as IAM policy JSON: what the fix says to add. */
export function statementFor(statement: ProductPolicyStatement, action: string): string {
  return JSON.stringify({
    Sid: statement.sid,
    Effect: 'Allow',
    Action: action,
    Resource: statement.resources.length === 1 ? statement.resources[0] : statement.resources,
    ...(statement.conditions ? { Condition: statement.conditions } : {}),
  });
}

/**
 * The ARN to simulate for a caller: an assumed-role session (`arn:aws:sts::<acct>:assumed-role/<role>/<session>`) is
 * its role (`arn:aws:iam::<acct>:role/<role>`; a role's path is not in the session ARN, so a role under a path is
 * looked up by name only — assumed good enough, IAM answers NoSuchEntity otherwise); a user is itself. The root user
 * and federated users cannot be simulated: undefined.
 */
export function simulatedPrincipal(callerArn: string): string | undefined {
  const assumed = /^arn:(aws[a-z-]*):sts::(\d{12}):assumed-role\/([^/]+)\/.+$/.exec(callerArn);
  if (assumed) return `arn:${assumed[1]}:iam::${assumed[2]}:role/${assumed[3]}`;
  if (/^arn:aws[a-z-]*:iam::\d{12}:user\/.+$/.test(callerArn)) return callerArn;
  return undefined;
}
