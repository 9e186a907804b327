import { keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';
import { findManagedPolicy } from '../../catalog/managed-policies.js';
import { evaluatePolicies, requestContext, type NamedPolicy } from './policy-evaluation.js';
import { lookupRole, peekIam, type StoredRole } from './state.js';

/**
 * What a sandbox controller may do when it acts as an IAM role (an operator with IRSA or pod
 * identity): its request is evaluated against the role's attached managed policies (AWS's documents,
 * sandbox/catalog/managed-policies.ts, or the account's own at their default version) and its inline
 * policies — and, when it has one, its permissions boundary. A refusal carries AWS's own sentence.
 * The product's caller (the sandbox account's credentials) is not checked here: it is an administrator.
 */

export interface ActAsRequest {
  action: string;
  /** The resource's ARN (`*` for actions without one). */
  resource: string;
  /** Service condition keys (`iam:PassedToService`, `aws:ResourceTag/<key>`, …); global keys are added. */
  context?: Record<string, string | readonly string[] | undefined>;
  /** The session name in the assumed-role ARN AWS names in the refusal (an operator's SDK picks its own). */
  sessionName?: string;
}

export type ActAsAnswer = { allowed: true } | { allowed: false; code: 'AccessDenied'; message: string };

const accountOf = (arn: string): string | undefined => /^arn:aws[\w-]*:[\w-]+:[\w-]*:(\d{12}):/.exec(arn)?.[1];

/** The role's identity-based policies, each by the name AWS would give it. */
export function identityPolicies(state: SandboxState, role: StoredRole): NamedPolicy[] {
  const own = peekIam(state)?.policies;
  const managed = role.attachedPolicyArns.flatMap((arn): NamedPolicy[] => {
    const aws = findManagedPolicy(arn);
    if (aws) return [{ name: arn, document: aws.document }];
    const customer = keyed.get(own, arn);
    const version = customer?.versions.find((v) => v.isDefault);
    return version ? [{ name: arn, document: version.document }] : [];
  });
  const inline = keyed.entries(role.inlinePolicies).map(([name, document]) => ({ name, document }));
  return [...managed, ...inline];
}

export function boundaryPolicy(state: SandboxState, role: StoredRole): NamedPolicy | undefined {
  const arn = role.permissionsBoundaryArn;
  if (!arn) return undefined;
  const aws = findManagedPolicy(arn);
  if (aws) return { name: arn, document: aws.document };
  const version = keyed.get(peekIam(state)?.policies, arn)?.versions.find((v) => v.isDefault);
  return version ? { name: arn, document: version.document } : undefined;
}

/** `arn:aws:sts::<account>:assumed-role/<role>/<session>`: who AWS says asked. */
export const assumedRoleArn = (roleArn: string, session: string): string => {
  const m = /^arn:(aws[\w-]*):iam::(\d{12}):role\/(?:.*\/)?([\w+=,.@-]+)$/.exec(roleArn);
  return m ? `arn:${m[1]}:sts::${m[2]}:assumed-role/${m[3]}/${session}` : roleArn;
};

/**
 * Whether the role `roleArn` may do `request`, as IAM decides it (policy-evaluation.ts). The global
 * keys `aws:PrincipalArn`, `aws:PrincipalAccount` and `aws:ResourceAccount` (from the resource's ARN)
 * are in the context. A refusal reads as AWS writes it:
 * `User: arn:aws:sts::<account>:assumed-role/<role>/<session> is not authorized to perform: <action>
 * on resource: <resource> because no identity-based policy allows the <action> action` (or `with an
 * explicit deny in an identity-based policy`).
 */
export function actAsRole(state: SandboxState, roleArn: string, request: ActAsRequest): ActAsAnswer {
  const who = assumedRoleArn(roleArn, request.sessionName ?? 'sandbox-controller');
  const context = requestContext({
    'aws:PrincipalArn': roleArn,
    'aws:PrincipalAccount': accountOf(roleArn),
    'aws:PrincipalType': 'AssumedRole',
    'aws:ResourceAccount': accountOf(request.resource),
    ...request.context,
  });
  const denied = (why: string): ActAsAnswer => ({
    allowed: false,
    code: 'AccessDenied',
    message: `User: ${who} is not authorized to perform: ${request.action} on resource: ${request.resource} ${why}`,
  });
  const role = lookupRole(state, roleArn);
  if (!role) return denied(`because no identity-based policy allows the ${request.action} action`);
  const asked = { action: request.action, resource: request.resource, context };
  const decision = evaluatePolicies(identityPolicies(state, role), asked);
  if (decision.decision === 'ExplicitDeny') return denied('with an explicit deny in an identity-based policy');
  if (decision.decision === 'ImplicitDeny')
    return denied(`because no identity-based policy allows the ${request.action} action`);
  const boundary = boundaryPolicy(state, role);
  if (boundary) {
    const bounded = evaluatePolicies([boundary], asked);
    if (bounded.decision === 'ExplicitDeny') return denied('with an explicit deny in a permissions boundary');
    if (bounded.decision === 'ImplicitDeny')
      return denied(`because no permissions boundary allows the ${request.action} action`);
  }
  return { allowed: true };
}

export type AssumeAnswer =
  | { allowed: true }
  | { allowed: false; code: 'AccessDenied' | 'InvalidIdentityToken'; message: string };

/**
 * IRSA: whether a pod's projected token (issuer `issuerUrl`, subject
 * `system:serviceaccount:<ns>:<sa>`, audience `sts.amazonaws.com`) may AssumeRoleWithWebIdentity into
 * `roleArn`. STS needs the account's OIDC provider for that issuer listing the audience, and the
 * role's trust policy must allow the provider as a federated principal with the `<issuer>:sub`/`:aud`
 * keys. Refusals read as STS words them.
 */
export function assumeRoleWithWebIdentity(
  state: SandboxState,
  roleArn: string,
  issuerUrl: string,
  subject: string,
  audience: string,
): AssumeAnswer {
  const hostPath = issuerUrl.replace(/^https:\/\//, '').replace(/\/+$/, '');
  const provider = keyed
    .values(peekIam(state)?.oidcProviders)
    .find((p) => p.url.replace(/^https:\/\//, '') === hostPath);
  if (!provider)
    return {
      allowed: false,
      code: 'InvalidIdentityToken',
      message: `No OpenIDConnect provider found in your account for https://${hostPath}`,
    };
  if (!provider.clientIds.includes(audience))
    return { allowed: false, code: 'InvalidIdentityToken', message: 'Incorrect token audience' };
  const role = lookupRole(state, roleArn);
  const notAuthorized: AssumeAnswer = {
    allowed: false,
    code: 'AccessDenied',
    message: 'Not authorized to perform sts:AssumeRoleWithWebIdentity',
  };
  if (!role) return notAuthorized;
  const decision = evaluatePolicies([{ name: 'trust', document: role.assumeRolePolicyDocument }], {
    action: 'sts:AssumeRoleWithWebIdentity',
    resource: role.arn,
    principal: { kind: 'Federated', id: provider.arn },
    context: requestContext({
      [`${hostPath}:sub`]: subject,
      [`${hostPath}:aud`]: audience,
      [`${hostPath}:amr`]: undefined,
    }),
  });
  return decision.decision === 'Allow' ? { allowed: true } : notAuthorized;
}
