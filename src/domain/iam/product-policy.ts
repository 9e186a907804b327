/**
 * The IAM policy InstantStart's own identity needs (issue 30): the one source of the deployed role's permissions.
 * `deploy/cloudformation.yaml`'s policy, docs/SECURITY.md's permissions table and `instantstart doctor`'s simulation
 * are all generated from these statements; test/conformance proves every AWS operation the product calls is allowed
 * here, and that nothing here is never called.
 *
 * CONTRACT (issue 30, helpers "policy" and "deploy"): the shape below is fixed; the "policy" helper fills
 * PRODUCT_POLICY from the calls the product makes (src/cloud/aws), scoped by tags and name prefixes where the
 * service supports it.
 */

/** One statement: what the product calls and why, on which resources, under which conditions. */
export interface ProductPolicyStatement {
  /** IAM statement id: letters and digits only (IAM's rule). */
  sid: string;
  /** What the product does with these actions, for the docs' permissions table. */
  why: string;
  /** IAM actions, `service:Action` (no wildcards in the action part). */
  actions: readonly string[];
  /** Resource ARNs or patterns; `*` only where the service has no resource-level permissions for the action. */
  resources: readonly string[];
  /** IAM condition block, e.g. `{ StringEquals: { 'aws:ResourceTag/instantstart.io/managed': 'true' } }`. */
  conditions?: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>;
}

export const PRODUCT_POLICY: readonly ProductPolicyStatement[] = [
  {
    sid: 'WhoAmI',
    why: 'Knows which account and principal it acts as (the server info, the workspace per account).',
    actions: ['sts:GetCallerIdentity'],
    resources: ['*'],
  },
];

/** An IAM policy document of the statements (what CloudFormation's `PolicyDocument` and IAM take). */
export interface PolicyDocument {
  Version: '2012-10-17';
  Statement: {
    Sid: string;
    Effect: 'Allow';
    Action: string[];
    Resource: string[];
    Condition?: Record<string, Record<string, string | string[]>>;
  }[];
}

export function productPolicyDocument(statements: readonly ProductPolicyStatement[] = PRODUCT_POLICY): PolicyDocument {
  return {
    Version: '2012-10-17',
    Statement: statements.map((s) => ({
      Sid: s.sid,
      Effect: 'Allow',
      Action: [...s.actions],
      Resource: [...s.resources],
      ...(s.conditions
        ? {
            Condition: Object.fromEntries(
              Object.entries(s.conditions).map(([op, kv]) => [
                op,
                Object.fromEntries(Object.entries(kv).map(([k, v]) => [k, typeof v === 'string' ? v : [...v]])),
              ]),
            ),
          }
        : {}),
    })),
  };
}
