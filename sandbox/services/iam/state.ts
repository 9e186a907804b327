import { keyed, type Keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';
import { noSuchRole } from './errors.js';

/**
 * IAM's section of the sandbox state. IAM is global, so there is one section for the account,
 * not one per region. Role and policy names are unique case-insensitively in IAM, so maps are
 * keyed by the lower-cased name (roles) or the ARN (customer-managed policies, OIDC providers).
 */
export interface Tag {
  Key: string;
  Value: string;
}

export interface StoredRole {
  roleName: string;
  roleId: string;
  arn: string;
  path: string;
  /** Decoded JSON text, exactly as the caller sent it. */
  assumeRolePolicyDocument: string;
  description?: string;
  maxSessionDuration: number;
  permissionsBoundaryArn?: string;
  createDate: number;
  tags: Tag[];
  /** Inline policy name → decoded JSON text, in the order they were put. */
  inlinePolicies: Keyed<string>;
  attachedPolicyArns: string[];
}

export interface StoredPolicyVersion {
  versionId: string;
  document: string;
  isDefault: boolean;
  createDate: number;
}

export interface StoredPolicy {
  policyName: string;
  policyId: string;
  arn: string;
  path: string;
  description?: string;
  createDate: number;
  updateDate: number;
  tags: Tag[];
  versions: StoredPolicyVersion[];
}

export interface StoredOidcProvider {
  arn: string;
  url: string;
  clientIds: string[];
  thumbprints: string[];
  createDate: number;
  tags: Tag[];
}

export interface IamSection {
  roles: Keyed<StoredRole>;
  policies: Keyed<StoredPolicy>;
  oidcProviders: Keyed<StoredOidcProvider>;
}

export function iamSection(state: SandboxState): IamSection {
  const existing = state.iam as IamSection | undefined;
  if (existing) return existing;
  const created: IamSection = { roles: {}, policies: {}, oidcProviders: {} };
  state.iam = created;
  return created;
}

/** Read-only access that does not create the section (public lookups must not change state). */
export function peekIam(state: SandboxState): IamSection | undefined {
  return state.iam as IamSection | undefined;
}

/** A role by name or ARN (`arn:aws:iam::<acct>:role/<path><name>`). */
export function lookupRole(state: SandboxState, nameOrArn: string): StoredRole | undefined {
  const section = peekIam(state);
  if (!section) return undefined;
  if (nameOrArn.startsWith('arn:')) {
    const m = /^arn:aws[\w-]*:iam::(\d{12}):role\/(?:.*\/)?([\w+=,.@-]+)$/.exec(nameOrArn);
    if (!m) return undefined;
    const role = keyed.get(section.roles, m[2]!.toLowerCase());
    return role && role.arn === nameOrArn ? role : undefined;
  }
  return keyed.get(section.roles, nameOrArn.toLowerCase());
}

/** The role by name (case-insensitive, as IAM matches), or NoSuchEntity (404) in IAM's words. */
export function requireRole(state: SandboxState, name: string): StoredRole {
  const role = keyed.get(peekIam(state)?.roles, name.toLowerCase());
  if (!role) throw noSuchRole(name);
  return role;
}
