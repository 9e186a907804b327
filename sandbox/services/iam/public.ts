import { keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';
import { statementsOf } from './policy-document.js';
import { lookupRole } from './state.js';

/** What other services may know about a role (EKS cluster roles, HyperPod execution roles, …). */
export interface RoleView {
  roleName: string;
  roleId: string;
  arn: string;
  path: string;
  /** Decoded JSON text. */
  assumeRolePolicyDocument: string;
  attachedPolicyArns: string[];
  inlinePolicyNames: string[];
}

export function findRole(state: SandboxState, nameOrArn: string): RoleView | undefined {
  const role = lookupRole(state, nameOrArn);
  if (!role) return undefined;
  return {
    roleName: role.roleName,
    roleId: role.roleId,
    arn: role.arn,
    path: role.path,
    assumeRolePolicyDocument: role.assumeRolePolicyDocument,
    attachedPolicyArns: [...role.attachedPolicyArns],
    inlinePolicyNames: keyed.keys(role.inlinePolicies),
  };
}

/** IAM action matching: case-insensitive, `*` and `?` wildcards. */
function actionMatches(pattern: string, action: string): boolean {
  const re = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    'i',
  );
  return re.test(action);
}

const asList = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * True when the trust policy has an Allow statement whose Action covers sts:AssumeRole and whose
 * Principal names the service (or is `*`). Deny statements for the same pair win, as in IAM.
 */
export function roleTrustsService(role: RoleView, servicePrincipal: string): boolean {
  const statements = statementsOf(role.assumeRolePolicyDocument);
  if (!statements) return false;
  const covers = (s: Record<string, unknown>) => {
    const actions = asList(s.Action).filter((a): a is string => typeof a === 'string');
    if (!actions.some((a) => actionMatches(a, 'sts:AssumeRole'))) return false;
    const principal = s.Principal;
    if (principal === '*') return true;
    if (typeof principal !== 'object' || principal === null) return false;
    const p = principal as Record<string, unknown>;
    if (p.AWS === '*') return true;
    return asList(p.Service).some((svc) => svc === servicePrincipal);
  };
  if (statements.some((s) => s.Effect === 'Deny' && covers(s))) return false;
  return statements.some((s) => s.Effect === 'Allow' && covers(s));
}

/** A controller acting as a role (IRSA, pod identity): what IAM lets it do, and IRSA's assume (authorize.ts). */
export {
  actAsRole,
  assumeRoleWithWebIdentity,
  type ActAsAnswer,
  type ActAsRequest,
  type AssumeAnswer,
} from './authorize.js';
