import type { RoleDefinition } from '../../domain/cluster-roles.js';
import type { Log } from './log.js';

/** IAM roles: a cluster's fixed roles whole (`ensure`), a feature's identity call by call. */
export interface IamPort extends IamSimulatorPort {
  find(roleName: string): Promise<string | undefined>;
  isComplete(spec: RoleDefinition): Promise<boolean>;
  ensure(cluster: string, spec: RoleDefinition, log: Log): Promise<string>;
  delete(roleName: string, log: Log): Promise<void>;
  // The finer calls a feature's identity is reconciled with (src/workflows/feature-identities.ts): each one
  // object, so a role that is already right costs reads only.
  /** The role's ARN, trust policy (JSON text) and tags; undefined when it does not exist. */
  describeRole(roleName: string): Promise<IamRoleFacts | undefined>;
  /** CreateRole with a whole trust policy; a role made meanwhile by someone else is answered as found. */
  createRole(role: {
    roleName: string;
    description: string;
    trustPolicy: unknown;
    tags: Record<string, string>;
  }): Promise<string>;
  updateTrustPolicy(roleName: string, trustPolicy: unknown): Promise<void>;
  attachedPolicies(roleName: string): Promise<string[]>;
  attachPolicy(roleName: string, policyArn: string): Promise<void>;
  /** The inline policy's document (JSON text); undefined when the role has no policy of that name. */
  inlinePolicy(roleName: string, policyName: string): Promise<string | undefined>;
  putInlinePolicy(roleName: string, policyName: string, document: unknown): Promise<void>;
  /** DeleteRolePolicy; a role or policy already gone is fine. */
  deleteInlinePolicy(roleName: string, policyName: string): Promise<void>;
  /** Every role of the account (all pages of ListRoles) with its trust policy: who still trusts an OIDC provider. */
  listRoleTrusts(): Promise<Array<{ roleName: string; arn: string; trustPolicy: string }>>;
}

export interface IamRoleFacts {
  arn: string;
  /** The trust policy, decoded JSON text. */
  trustPolicy: string;
  tags: Record<string, string>;
}

/**
 * One question to IAM's policy simulator (SimulatePrincipalPolicy): these actions, on these resources, with these
 * context keys, for the identity-based policies of one principal (a user or a role).
 */
export interface PolicySimulation {
  /** The user or role ARN whose policies are evaluated (an assumed-role session is simulated as its role). */
  principalArn: string;
  actions: readonly string[];
  /** Resource ARNs; none means `*`. */
  resources?: readonly string[];
  /** Condition keys and their values, as the real request would carry them (`iam:PassedToService` …). */
  context?: Readonly<Record<string, readonly string[]>>;
}

/** How IAM decided one action on one resource. */
export interface SimulatedDecision {
  action: string;
  resource: string;
  decision: 'allowed' | 'explicitDeny' | 'implicitDeny';
  /** The policies whose statements decided (empty for an implicit deny). */
  matchedPolicies: string[];
  /** Context keys the policies name that the simulation did not supply (the decision may then be wrong). */
  missingContextValues: string[];
}

/** IAM's policy simulator: read-only, it evaluates and never changes a policy (`instantstart doctor`). */
export interface IamSimulatorPort {
  /** Every page of SimulatePrincipalPolicy's answer. */
  simulate(question: PolicySimulation): Promise<SimulatedDecision[]>;
}
