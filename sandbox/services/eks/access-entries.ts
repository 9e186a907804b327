import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { EKS_ACCESS_POLICIES, findAccessPolicy } from '../../catalog/eks-access-policies.js';
import { lookupClientToken, rememberClientToken } from '../../core/idempotency.js';
import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { findRole } from '../iam/public.js';
import {
  ACCESS_ENTRY_TYPES,
  NODE_ENTRY_TYPES,
  newAccessEntry,
  parsePrincipalArn,
  PRINCIPAL_ARN_PATTERN,
} from './access-model.js';
import { requireCluster } from './clusters.js';
import { clientError, inUse, invalidParameter, invalidRequest, notFound } from './errors.js';
import { maxResults, nextToken, page, tagsSchema } from './paging.js';
import { renderAccessEntry, renderAssociatedPolicy } from './render.js';
import type { StoredAccessEntry, StoredCluster } from './state.js';

/** Access entries and their access policies: who may use the cluster's Kubernetes API, and how. */
const VALIDATION = { style: 'coral', code: 'InvalidParameterException' } as const;

/** Access entries exist only in the API modes; a CONFIG_MAP cluster refuses them. */
function requireApiMode(c: StoredCluster): void {
  if (c.authenticationMode === 'CONFIG_MAP') {
    throw invalidRequest(
      `The cluster's authentication mode must be set to one of [API, API_AND_CONFIG_MAP] to perform this operation (it is CONFIG_MAP).`,
      { clusterName: c.name },
    );
  }
}

function requireApiCluster(ctx: RequestContext, name: string): StoredCluster {
  const c = requireCluster(ctx, name);
  requireApiMode(c);
  return c;
}

function requireEntry(c: StoredCluster, principalArn: string): StoredAccessEntry {
  const e = keyed.get(c.accessEntries, principalArn);
  if (!e)
    throw notFound(
      `The specified principalArn could not be found. You can view your available access entries with 'list-access-entries'.`,
      { clusterName: c.name },
    );
  return e;
}

const RESERVED_PREFIXES = ['system:', 'eks:', 'aws:', 'amazon:', 'iam:'];

function checkNames(c: StoredCluster, type: string, username: string | undefined, groups: string[] | undefined): void {
  const about = { clusterName: c.name };
  if (NODE_ENTRY_TYPES.has(type) && groups?.length)
    throw invalidParameter(`kubernetesGroups cannot be specified for access entries of type ${type}.`, about);
  if (username !== undefined && type === 'STANDARD' && RESERVED_PREFIXES.some((p) => username.startsWith(p))) {
    throw invalidParameter(`username '${username}' cannot start with ${RESERVED_PREFIXES.join(', ')}.`, about);
  }
  const reserved = groups?.find((g) => g.startsWith('system:'));
  if (reserved)
    throw invalidParameter(
      `kubernetesGroups: '${reserved}' cannot be used; group names starting with system: are reserved.`,
      about,
    );
}

const createSchema = z.object({
  clusterName: z.string().min(1),
  principalArn: z.string().min(1),
  kubernetesGroups: z.array(z.string().min(1)).optional(),
  tags: tagsSchema,
  clientRequestToken: z.string().min(1).optional(),
  username: z.string().min(1).optional(),
  type: z.enum(ACCESS_ENTRY_TYPES).optional(),
});

export function createAccessEntry(input: unknown, ctx: RequestContext) {
  const req = validateInput(createSchema, input, VALIDATION);
  const c = requireApiCluster(ctx, req.clusterName);
  const about = { clusterName: c.name };
  const mismatch = () =>
    clientError('The clientRequestToken was already used for a different CreateAccessEntry request.', about);
  const earlier = lookupClientToken(ctx, req.clientRequestToken, input, mismatch);
  const repeated = earlier ? keyed.get(c.accessEntries, earlier) : undefined;
  if (repeated) return { accessEntry: renderAccessEntry(c, repeated) };
  if (c.status === 'DELETING') throw invalidRequest('Cluster has status of DELETING.', about);
  const type = req.type ?? 'STANDARD';
  if (!PRINCIPAL_ARN_PATTERN.test(req.principalArn))
    throw invalidParameter(
      `The specified principalArn is invalid: ${req.principalArn} is not an IAM role or user ARN.`,
      about,
    );
  const principal = parsePrincipalArn(req.principalArn)!;
  if (NODE_ENTRY_TYPES.has(type) && principal.kind !== 'role')
    throw invalidParameter(`Access entries of type ${type} need an IAM role principal.`, about);
  // Roles are checked against IAM; IAM users are not modelled by the sandbox, so any user ARN of the account is taken.
  if (principal.kind === 'role' && !findRole(ctx.state, req.principalArn))
    throw invalidParameter(
      `The specified principalArn could not be found: role ${req.principalArn} does not exist.`,
      about,
    );
  checkNames(c, type, req.username, req.kubernetesGroups);
  if (keyed.get(c.accessEntries, req.principalArn))
    throw inUse('The specified access entry resource is already in use on this cluster.', about);

  const entry = newAccessEntry(c, { ...req, type }, ctx.now());
  keyed.set(c.accessEntries, req.principalArn, entry);
  rememberClientToken(ctx, req.clientRequestToken, input, req.principalArn);
  return { accessEntry: renderAccessEntry(c, entry) };
}

export function describeAccessEntry(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({ clusterName: z.string().min(1), principalArn: z.string().min(1) }),
    input,
    VALIDATION,
  );
  const c = requireApiCluster(ctx, req.clusterName);
  return { accessEntry: renderAccessEntry(c, requireEntry(c, req.principalArn)) };
}

export function listAccessEntries(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({
      clusterName: z.string().min(1),
      associatedPolicyArn: z.string().optional(),
      maxResults: maxResults(),
      nextToken,
    }),
    input,
    VALIDATION,
  );
  const c = requireApiCluster(ctx, req.clusterName);
  const arns = keyed
    .values(c.accessEntries)
    .filter((e) => !req.associatedPolicyArn || e.policies.some((p) => p.policyArn === req.associatedPolicyArn))
    .map((e) => e.principalArn)
    .sort();
  const p = page(arns, (a) => a, req);
  return { accessEntries: p.items, ...(p.nextToken ? { nextToken: p.nextToken } : {}) };
}

const updateSchema = z.object({
  clusterName: z.string().min(1),
  principalArn: z.string().min(1),
  kubernetesGroups: z.array(z.string().min(1)).optional(),
  clientRequestToken: z.string().optional(),
  username: z.string().min(1).optional(),
});

export function updateAccessEntry(input: unknown, ctx: RequestContext) {
  const req = validateInput(updateSchema, input, VALIDATION);
  const c = requireApiCluster(ctx, req.clusterName);
  const e = requireEntry(c, req.principalArn);
  checkNames(c, e.type, req.username, req.kubernetesGroups);
  if (req.kubernetesGroups !== undefined) e.kubernetesGroups = [...req.kubernetesGroups];
  if (req.username !== undefined) e.username = req.username;
  e.modifiedAt = ctx.now();
  return { accessEntry: renderAccessEntry(c, e) };
}

export function deleteAccessEntry(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({ clusterName: z.string().min(1), principalArn: z.string().min(1) }),
    input,
    VALIDATION,
  );
  const c = requireApiCluster(ctx, req.clusterName);
  requireEntry(c, req.principalArn);
  keyed.delete(c.accessEntries, req.principalArn);
  return {};
}

const associateSchema = z.object({
  clusterName: z.string().min(1),
  principalArn: z.string().min(1),
  policyArn: z.string().min(1),
  accessScope: z.object({
    type: z.enum(['cluster', 'namespace']).optional(),
    namespaces: z.array(z.string().min(1)).optional(),
  }),
});

export function associateAccessPolicy(input: unknown, ctx: RequestContext) {
  const req = validateInput(associateSchema, input, VALIDATION);
  const c = requireApiCluster(ctx, req.clusterName);
  const e = requireEntry(c, req.principalArn);
  const about = { clusterName: c.name };
  if (e.type !== 'STANDARD')
    throw invalidRequest(
      `Access policies can only be associated with access entries of type STANDARD; this entry is ${e.type}.`,
      about,
    );
  if (!findAccessPolicy(req.policyArn))
    throw invalidParameter(
      `The specified policyArn is invalid: ${req.policyArn} is not an EKS access policy (see ListAccessPolicies).`,
      about,
    );
  const scopeType = req.accessScope.type ?? 'cluster';
  const namespaces = [...new Set(req.accessScope.namespaces ?? [])];
  if (scopeType === 'cluster' && namespaces.length)
    throw invalidParameter('accessScope.namespaces must be empty when accessScope.type is cluster.', about);
  if (scopeType === 'namespace' && !namespaces.length)
    throw invalidParameter(
      'accessScope.namespaces must name at least one namespace when accessScope.type is namespace.',
      about,
    );

  const now = ctx.now();
  let assoc = e.policies.find((p) => p.policyArn === req.policyArn);
  if (assoc) Object.assign(assoc, { accessScope: { type: scopeType, namespaces }, modifiedAt: now });
  else {
    assoc = {
      policyArn: req.policyArn,
      accessScope: { type: scopeType, namespaces },
      associatedAt: now,
      modifiedAt: now,
    };
    e.policies.push(assoc);
  }
  e.modifiedAt = now;
  return { clusterName: c.name, principalArn: e.principalArn, associatedAccessPolicy: renderAssociatedPolicy(assoc) };
}

export function disassociateAccessPolicy(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({ clusterName: z.string().min(1), principalArn: z.string().min(1), policyArn: z.string().min(1) }),
    input,
    VALIDATION,
  );
  const c = requireApiCluster(ctx, req.clusterName);
  const e = requireEntry(c, req.principalArn);
  if (!e.policies.some((p) => p.policyArn === req.policyArn))
    throw notFound(`The policy ${req.policyArn} is not associated with ${e.principalArn}.`, { clusterName: c.name });
  e.policies = e.policies.filter((p) => p.policyArn !== req.policyArn);
  e.modifiedAt = ctx.now();
  return {};
}

export function listAssociatedAccessPolicies(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({ clusterName: z.string().min(1), principalArn: z.string().min(1), maxResults: maxResults(), nextToken }),
    input,
    VALIDATION,
  );
  const c = requireApiCluster(ctx, req.clusterName);
  const e = requireEntry(c, req.principalArn);
  const sorted = [...e.policies].sort((x, y) => (x.policyArn < y.policyArn ? -1 : 1));
  const p = page(sorted, (x) => x.policyArn, req);
  return {
    clusterName: c.name,
    principalArn: e.principalArn,
    associatedAccessPolicies: p.items.map(renderAssociatedPolicy),
    ...(p.nextToken ? { nextToken: p.nextToken } : {}),
  };
}

export function listAccessPolicies(input: unknown, _ctx: RequestContext) {
  const req = validateInput(z.object({ maxResults: maxResults(), nextToken }), input, VALIDATION);
  const p = page(EKS_ACCESS_POLICIES, (x) => x.name, req);
  return { accessPolicies: p.items, ...(p.nextToken ? { nextToken: p.nextToken } : {}) };
}
