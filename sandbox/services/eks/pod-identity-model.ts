import { randomBytes } from 'node:crypto';
import { keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';
import { uuid } from '../../core/ids.js';
import { findRole, roleTrustsService } from '../iam/public.js';
import { inUse, invalidParameter } from './errors.js';
import type { StoredCluster, StoredPodIdentityAssociation } from './state.js';

/** Pod identity associations: shared by CreatePodIdentityAssociation and CreateAddon's podIdentityAssociations. */
export const POD_IDENTITY_PRINCIPAL = 'pods.eks.amazonaws.com';

/** `a-` followed by 17 lowercase alphanumerics, as EKS writes association ids. */
export function newAssociationId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(17);
  let out = 'a-';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}

/** The role must exist and trust the EKS Pod Identity service principal; returns its ARN. */
export function checkPodIdentityRole(state: SandboxState, roleArn: string, field: string, clusterName: string): string {
  const role = roleArn.startsWith('arn:') ? findRole(state, roleArn) : undefined;
  if (!role) throw invalidParameter(`${field}: role ${roleArn} does not exist.`, { clusterName });
  if (!roleTrustsService(role, POD_IDENTITY_PRINCIPAL)) {
    throw invalidParameter(
      `${field}: the trust policy of role ${roleArn} does not allow ${POD_IDENTITY_PRINCIPAL} to assume it (sts:AssumeRole, sts:TagSession).`,
      { clusterName },
    );
  }
  return role.arn;
}

export function checkNoAssociationFor(cluster: StoredCluster, namespace: string, serviceAccount: string): void {
  const existing = keyed
    .values(cluster.podIdentityAssociations)
    .find((a) => a.namespace === namespace && a.serviceAccount === serviceAccount);
  if (existing) {
    throw inUse(
      `Association already exists: ${existing.associationId} for namespace ${namespace} and service account ${serviceAccount}.`,
      { clusterName: cluster.name },
    );
  }
}

export function newPodIdentityAssociation(
  cluster: StoredCluster,
  req: {
    namespace: string;
    serviceAccount: string;
    roleArn: string;
    targetRoleArn?: string;
    disableSessionTags?: boolean;
    policy?: string;
    ownerArn?: string;
    tags?: Record<string, string>;
  },
  now: number,
): StoredPodIdentityAssociation {
  const associationId = newAssociationId();
  return {
    associationId,
    associationArn: `${cluster.arn.replace(/:cluster\/.*$/, '')}:podidentityassociation/${cluster.name}/${associationId}`,
    namespace: req.namespace,
    serviceAccount: req.serviceAccount,
    roleArn: req.roleArn,
    ...(req.targetRoleArn ? { targetRoleArn: req.targetRoleArn, externalId: uuid() } : {}),
    ...(req.policy ? { policy: req.policy } : {}),
    disableSessionTags: req.disableSessionTags ?? false,
    ...(req.ownerArn ? { ownerArn: req.ownerArn } : {}),
    tags: { ...(req.tags ?? {}) },
    createdAt: now,
    modifiedAt: now,
  };
}
