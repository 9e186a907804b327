import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { lookupClientToken, rememberClientToken } from '../../core/idempotency.js';
import { uuid } from '../../core/ids.js';
import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { findRole } from '../iam/public.js';
import { requireCluster } from './clusters.js';
import { clientError, invalidParameter, invalidRequest, notFound } from './errors.js';
import { maxResults, nextToken, page, tagsSchema } from './paging.js';
import { checkNoAssociationFor, checkPodIdentityRole, newPodIdentityAssociation } from './pod-identity-model.js';
import { renderPodIdentityAssociation, renderPodIdentitySummary } from './render.js';
import { k8sName } from './schemas.js';
import type { StoredCluster, StoredPodIdentityAssociation } from './state.js';

/** EKS Pod Identity associations: which IAM role the pods of a namespace/service account get. */
const VALIDATION = { style: 'coral', code: 'InvalidParameterException' } as const;

const sessionPolicy = z.string().max(2048).optional();

function requireUsableCluster(ctx: RequestContext, name: string): StoredCluster {
  const c = requireCluster(ctx, name);
  if (c.status !== 'ACTIVE' && c.status !== 'UPDATING')
    throw invalidRequest(`Cluster has status of ${c.status}; pod identity associations need an ACTIVE cluster.`, {
      clusterName: c.name,
    });
  return c;
}

function checkPolicy(policy: string | undefined, clusterName: string): void {
  if (policy === undefined) return;
  try {
    JSON.parse(policy);
  } catch {
    throw invalidParameter('policy: the session policy is not valid JSON.', { clusterName });
  }
}

function checkTargetRole(ctx: RequestContext, targetRoleArn: string | undefined, clusterName: string): void {
  if (targetRoleArn && !findRole(ctx.state, targetRoleArn))
    throw invalidParameter(`targetRoleArn: role ${targetRoleArn} does not exist.`, { clusterName });
}

function requireAssociation(c: StoredCluster, associationId: string): StoredPodIdentityAssociation {
  const a = keyed.get(c.podIdentityAssociations, associationId);
  if (!a) throw notFound(`No Pod Identity Association found for ID: ${associationId}`, { clusterName: c.name });
  return a;
}

const createSchema = z.object({
  clusterName: z.string().min(1),
  namespace: k8sName(63),
  serviceAccount: k8sName(253),
  roleArn: z.string().min(1),
  clientRequestToken: z.string().min(1).optional(),
  tags: tagsSchema,
  disableSessionTags: z.boolean().optional(),
  targetRoleArn: z.string().optional(),
  policy: sessionPolicy,
});

export function createPodIdentityAssociation(input: unknown, ctx: RequestContext) {
  const req = validateInput(createSchema, input, VALIDATION);
  const c = requireUsableCluster(ctx, req.clusterName);
  const mismatch = () =>
    clientError('The clientRequestToken was already used for a different CreatePodIdentityAssociation request.', {
      clusterName: c.name,
    });
  const earlier = lookupClientToken(ctx, req.clientRequestToken, input, mismatch);
  const repeated = earlier ? keyed.get(c.podIdentityAssociations, earlier) : undefined;
  if (repeated) return { association: renderPodIdentityAssociation(c, repeated) };
  const roleArn = checkPodIdentityRole(ctx.state, req.roleArn, 'roleArn', c.name);
  checkTargetRole(ctx, req.targetRoleArn, c.name);
  checkPolicy(req.policy, c.name);
  checkNoAssociationFor(c, req.namespace, req.serviceAccount);
  const a = newPodIdentityAssociation(c, { ...req, roleArn }, ctx.now());
  keyed.set(c.podIdentityAssociations, a.associationId, a);
  rememberClientToken(ctx, req.clientRequestToken, input, a.associationId);
  return { association: renderPodIdentityAssociation(c, a) };
}

export function describePodIdentityAssociation(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({ clusterName: z.string().min(1), associationId: z.string().min(1) }),
    input,
    VALIDATION,
  );
  const c = requireCluster(ctx, req.clusterName);
  return { association: renderPodIdentityAssociation(c, requireAssociation(c, req.associationId)) };
}

export function listPodIdentityAssociations(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({
      clusterName: z.string().min(1),
      namespace: z.string().optional(),
      serviceAccount: z.string().optional(),
      maxResults: maxResults(),
      nextToken,
    }),
    input,
    VALIDATION,
  );
  const c = requireCluster(ctx, req.clusterName);
  const matching = keyed
    .values(c.podIdentityAssociations)
    .filter(
      (a) =>
        (!req.namespace || a.namespace === req.namespace) &&
        (!req.serviceAccount || a.serviceAccount === req.serviceAccount),
    )
    .sort((x, y) => (x.associationId < y.associationId ? -1 : 1));
  const p = page(matching, (a) => a.associationId, req);
  return {
    associations: p.items.map((a) => renderPodIdentitySummary(c, a)),
    ...(p.nextToken ? { nextToken: p.nextToken } : {}),
  };
}

function refuseAddonOwned(c: StoredCluster, a: StoredPodIdentityAssociation): void {
  if (a.ownerArn)
    throw invalidRequest(
      `Pod Identity Association ${a.associationId} is managed by the add-on ${a.ownerArn}; change it through UpdateAddon.`,
      { clusterName: c.name },
    );
}

const updateSchema = z.object({
  clusterName: z.string().min(1),
  associationId: z.string().min(1),
  roleArn: z.string().optional(),
  clientRequestToken: z.string().optional(),
  disableSessionTags: z.boolean().optional(),
  targetRoleArn: z.string().optional(),
  policy: sessionPolicy,
});

export function updatePodIdentityAssociation(input: unknown, ctx: RequestContext) {
  const req = validateInput(updateSchema, input, VALIDATION);
  const c = requireCluster(ctx, req.clusterName);
  const a = requireAssociation(c, req.associationId);
  refuseAddonOwned(c, a);
  const roleArn = req.roleArn ? checkPodIdentityRole(ctx.state, req.roleArn, 'roleArn', c.name) : undefined;
  // An empty targetRoleArn removes the target role, as on AWS.
  if (req.targetRoleArn) checkTargetRole(ctx, req.targetRoleArn, c.name);
  checkPolicy(req.policy || undefined, c.name);
  if (roleArn) a.roleArn = roleArn;
  if (req.disableSessionTags !== undefined) a.disableSessionTags = req.disableSessionTags;
  if (req.targetRoleArn !== undefined) {
    if (req.targetRoleArn) {
      if (a.targetRoleArn !== req.targetRoleArn) a.externalId = uuid();
      a.targetRoleArn = req.targetRoleArn;
    } else {
      delete a.targetRoleArn;
      delete a.externalId;
    }
  }
  if (req.policy !== undefined) {
    if (req.policy) a.policy = req.policy;
    else delete a.policy;
  }
  a.modifiedAt = ctx.now();
  return { association: renderPodIdentityAssociation(c, a) };
}

export function deletePodIdentityAssociation(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({ clusterName: z.string().min(1), associationId: z.string().min(1) }),
    input,
    VALIDATION,
  );
  const c = requireCluster(ctx, req.clusterName);
  const a = requireAssociation(c, req.associationId);
  refuseAddonOwned(c, a);
  keyed.delete(c.podIdentityAssociations, a.associationId);
  return { association: renderPodIdentityAssociation(c, a) };
}
