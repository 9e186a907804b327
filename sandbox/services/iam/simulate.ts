import { z } from 'zod';
import { SANDBOX_PRINCIPAL } from '../../core/credentials.js';
import type { OperationHandler } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { boundaryPolicy, identityPolicies } from './authorize.js';
import { invalidInput, noSuchEntity } from './errors.js';
import { evaluatePolicies, requestContext, type NamedPolicy } from './policy-evaluation.js';
import { arnType, IAM_VALIDATION, marker, maxItems, queryList } from './schemas.js';
import { lookupRole } from './state.js';

/**
 * IAM SimulatePrincipalPolicy (IAM API Reference, 2010-05-08): how IAM would decide each action × resource for the
 * identity-based policies of a role — its attached managed policies and inline policies, then its permissions
 * boundary — with the context keys the caller supplies. Read-only. EvalDecision is `allowed`, `explicitDeny` or
 * `implicitDeny`; MatchedStatements name the policy that decided.
 *
 * The sandbox's administrator user (its default credentials) is an administrator, as everywhere in the sandbox
 * (authorize.ts): every action is `allowed` for it (assumed: the sandbox models no user policies). Other user and
 * group ARNs are NoSuchEntity. Not modelled (refused with InvalidInput, not silently ignored): PolicyInputList,
 * PermissionsBoundaryPolicyInputList, ResourcePolicy, CallerArn, ResourceOwner, ResourceHandlingOption.
 */

const contextEntry = z.object({
  ContextKeyName: z.string().min(5).max(256),
  ContextKeyValues: queryList(z.string(), 1000).optional(),
  ContextKeyType: z
    .enum([
      'string',
      'stringList',
      'numeric',
      'numericList',
      'boolean',
      'booleanList',
      'ip',
      'ipList',
      'binary',
      'binaryList',
      'date',
      'dateList',
    ])
    .optional(),
});

const schema = z.object({
  PolicySourceArn: arnType,
  ActionNames: queryList(z.string().min(3).max(128), 1000),
  ResourceArns: queryList(arnType, 1000).optional(),
  ContextEntries: queryList(contextEntry, 1000).optional(),
  MaxItems: maxItems.optional(),
  Marker: marker.optional(),
});

const NOT_MODELLED = [
  'PolicyInputList',
  'PermissionsBoundaryPolicyInputList',
  'ResourcePolicy',
  'ResourceOwner',
  'CallerArn',
  'ResourceHandlingOption',
];

const ADMIN: NamedPolicy = {
  name: 'AdministratorAccess',
  document: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] },
};

const decisionName = { Allow: 'allowed', ExplicitDeny: 'explicitDeny', ImplicitDeny: 'implicitDeny' } as const;

const simulatePrincipalPolicy: OperationHandler = (input, ctx) => {
  const given = NOT_MODELLED.filter((k) => input && typeof input === 'object' && k in (input as object));
  if (given.length > 0)
    throw invalidInput(`The sandbox does not model ${given.join(', ')} in SimulatePrincipalPolicy.`);
  const req = validateInput(schema, input, IAM_VALIDATION);
  if (req.ActionNames.length === 0) throw invalidInput('ActionNames must name at least one action.');
  let policies: NamedPolicy[];
  let boundary: NamedPolicy | undefined;
  if (req.PolicySourceArn === SANDBOX_PRINCIPAL.arn) policies = [ADMIN];
  else {
    const role = lookupRole(ctx.state, req.PolicySourceArn);
    if (!role) throw noSuchEntity(`The entity ${req.PolicySourceArn} cannot be found.`);
    policies = identityPolicies(ctx.state, role);
    boundary = boundaryPolicy(ctx.state, role);
  }
  const context = requestContext({
    'aws:PrincipalArn': req.PolicySourceArn,
    ...Object.fromEntries((req.ContextEntries ?? []).map((e) => [e.ContextKeyName, e.ContextKeyValues ?? []])),
  });
  const resources = req.ResourceArns && req.ResourceArns.length > 0 ? req.ResourceArns : ['*'];
  const results = req.ActionNames.flatMap((action) =>
    resources.map((resource) => {
      const asked = { action, resource, context };
      let decision = evaluatePolicies(policies, asked);
      if (decision.decision === 'Allow' && boundary) {
        const bounded = evaluatePolicies([boundary], asked);
        if (bounded.decision !== 'Allow') decision = bounded;
      }
      return {
        EvalActionName: action,
        EvalResourceName: resource,
        EvalDecision: decisionName[decision.decision],
        MatchedStatements:
          decision.decision === 'ImplicitDeny'
            ? []
            : [
                {
                  SourcePolicyId: decision.policy,
                  SourcePolicyType: decision.policy.startsWith('arn:') ? 'IAM Policy' : 'role',
                },
              ],
        MissingContextValues: [],
      };
    }),
  );
  const start = req.Marker ? Number(req.Marker) || 0 : 0;
  const max = req.MaxItems ?? 100;
  const page = results.slice(start, start + max);
  const truncated = start + max < results.length;
  return { EvaluationResults: page, IsTruncated: truncated, ...(truncated ? { Marker: String(start + max) } : {}) };
};

export const simulateOperations: Record<string, OperationHandler> = {
  SimulatePrincipalPolicy: simulatePrincipalPolicy,
};
