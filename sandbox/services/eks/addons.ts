import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { defaultAddonVersion, findAddon, type AddonSpec } from '../../catalog/eks-addons.js';
import { lookupClientToken, rememberClientToken } from '../../core/idempotency.js';
import { unitHash, uuid } from '../../core/ids.js';
import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import {
  checkAddonPodIdentity,
  checkAddonVersion,
  checkConfigurationValues,
  checkServiceAccountRole,
} from './addon-checks.js';
import { requireCluster } from './clusters.js';
import { clientError, inUse, invalidParameter, invalidRequest, notFound } from './errors.js';
import { maxResults, nextToken, page, queryBoolean, tagsSchema } from './paging.js';
import { checkNoAssociationFor, newPodIdentityAssociation } from './pod-identity-model.js';
import { renderAddon, renderUpdate } from './render.js';
import { k8sName, ROLE_ARN_PATTERN } from './schemas.js';
import type { StoredAddon, StoredCluster, StoredUpdate } from './state.js';

const MINUTE = 60_000;
const VALIDATION = { style: 'coral', code: 'InvalidParameterException' } as const;

const podIdentityList = z.array(z.object({ serviceAccount: z.string().min(1), roleArn: z.string().min(1) })).optional();

function requireAddon(c: StoredCluster, addonName: string): StoredAddon {
  const a = keyed.get(c.addons, addonName);
  if (!a) throw notFound(`No addon: ${addonName} found in cluster: ${c.name}`, { clusterName: c.name, addonName });
  return a;
}

function requireSpec(addonName: string, c: StoredCluster): AddonSpec {
  const spec = findAddon(addonName);
  if (!spec)
    throw invalidParameter(`Addon ${addonName} specified is not supported in ${c.version} kubernetes version`, {
      clusterName: c.name,
      addonName,
    });
  return spec;
}

const createSchema = z.object({
  clusterName: z.string().min(1),
  addonName: z.string().min(1),
  addonVersion: z.string().optional(),
  serviceAccountRoleArn: z.string().min(1).max(255).regex(ROLE_ARN_PATTERN).optional(),
  resolveConflicts: z.enum(['OVERWRITE', 'NONE', 'PRESERVE']).optional(),
  clientRequestToken: z.string().min(1).optional(),
  tags: tagsSchema,
  configurationValues: z.string().optional(),
  podIdentityAssociations: podIdentityList,
  namespaceConfig: z.object({ namespace: k8sName(63).optional() }).optional(),
});

export function createAddon(input: unknown, ctx: RequestContext) {
  const req = validateInput(createSchema, input, VALIDATION);
  const c = requireCluster(ctx, req.clusterName);
  const about = { clusterName: c.name, addonName: req.addonName };
  if (c.status !== 'ACTIVE' && c.status !== 'UPDATING')
    throw invalidRequest(`Cluster has status of ${c.status}; add-ons can only be created on an ACTIVE cluster.`, about);
  const mismatch = () =>
    clientError('The clientRequestToken was already used for a different CreateAddon request.', about);
  const earlier = lookupClientToken(ctx, req.clientRequestToken, input, mismatch);
  const repeated = earlier ? keyed.get(c.addons, earlier) : undefined;
  if (repeated) return { addon: renderAddon(c, repeated) };
  const spec = requireSpec(req.addonName, c);
  if (keyed.get(c.addons, req.addonName)) throw inUse('Addon already exists.', about);
  const addonVersion = req.addonVersion ?? defaultAddonVersion(spec, c.version);
  if (!addonVersion)
    throw invalidParameter(
      `Addon ${spec.addonName} specified is not supported in ${c.version} kubernetes version`,
      about,
    );
  checkAddonVersion(spec, addonVersion, c);
  checkServiceAccountRole(ctx.state, req.serviceAccountRoleArn, spec, c);
  checkConfigurationValues(req.configurationValues, spec, c);
  const associations = checkAddonPodIdentity(ctx.state, req.podIdentityAssociations, spec, c);
  const namespace = req.namespaceConfig?.namespace ?? spec.defaultNamespace;
  for (const a of associations) checkNoAssociationFor(c, namespace, a.serviceAccount);

  const now = ctx.now();
  const addonArn = `${c.arn.replace(/:cluster\/.*$/, '')}:addon/${c.name}/${spec.addonName}/${uuid()}`;
  const pias = associations.map((a) =>
    newPodIdentityAssociation(
      c,
      { namespace, serviceAccount: a.serviceAccount, roleArn: a.roleArn, ownerArn: addonArn },
      now,
    ),
  );
  for (const p of pias) keyed.set(c.podIdentityAssociations, p.associationId, p);
  const failureMessage = ctx.runtime.faults.takeCreateFailure('eks', c.name, spec.addonName);
  const addon: StoredAddon = {
    addonName: spec.addonName,
    addonArn,
    addonVersion,
    status: 'CREATING',
    readyAt: now + Math.round((1 + 2 * unitHash(`${c.name}:${spec.addonName}`)) * MINUTE),
    ...(failureMessage ? { failureMessage } : {}),
    ...(req.serviceAccountRoleArn ? { serviceAccountRoleArn: req.serviceAccountRoleArn } : {}),
    ...(req.configurationValues ? { configurationValues: req.configurationValues } : {}),
    podIdentityAssociationIds: pias.map((p) => p.associationId),
    ...(req.namespaceConfig?.namespace ? { namespace: req.namespaceConfig.namespace } : {}),
    healthIssues: [],
    tags: { ...(req.tags ?? {}) },
    createdAt: now,
    modifiedAt: now,
  };
  keyed.set(c.addons, spec.addonName, addon);
  rememberClientToken(ctx, req.clientRequestToken, input, spec.addonName);
  return { addon: renderAddon(c, addon) };
}

export function describeAddon(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({ clusterName: z.string().min(1), addonName: z.string().min(1) }),
    input,
    VALIDATION,
  );
  const c = requireCluster(ctx, req.clusterName);
  return { addon: renderAddon(c, requireAddon(c, req.addonName)) };
}

export function listAddons(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({ clusterName: z.string().min(1), maxResults: maxResults(), nextToken }),
    input,
    VALIDATION,
  );
  const c = requireCluster(ctx, req.clusterName);
  const p = page(keyed.keys(c.addons).sort(), (n) => n, req);
  return { addons: p.items, ...(p.nextToken ? { nextToken: p.nextToken } : {}) };
}

const updateSchema = z.object({
  clusterName: z.string().min(1),
  addonName: z.string().min(1),
  addonVersion: z.string().optional(),
  serviceAccountRoleArn: z.string().max(255).optional(),
  resolveConflicts: z.enum(['OVERWRITE', 'NONE', 'PRESERVE']).optional(),
  clientRequestToken: z.string().min(1).optional(),
  configurationValues: z.string().optional(),
  podIdentityAssociations: podIdentityList,
});

export function updateAddon(input: unknown, ctx: RequestContext) {
  const req = validateInput(updateSchema, input, VALIDATION);
  const c = requireCluster(ctx, req.clusterName);
  const a = requireAddon(c, req.addonName);
  const about = { clusterName: c.name, addonName: a.addonName };
  const mismatch = () =>
    clientError('The clientRequestToken was already used for a different UpdateAddon request.', about);
  const earlier = lookupClientToken(ctx, req.clientRequestToken, input, mismatch);
  const done = earlier && c.updates.find((u) => u.id === earlier);
  if (done) return { update: renderUpdate(done) };
  if (a.status !== 'ACTIVE' && a.status !== 'DEGRADED' && a.status !== 'UPDATE_FAILED') {
    throw inUse(`Addon ${a.addonName} has status ${a.status}; it can be updated once it is ACTIVE or DEGRADED.`, about);
  }
  const spec = requireSpec(a.addonName, c);
  if (req.addonVersion) checkAddonVersion(spec, req.addonVersion, c);
  // An empty string removes the IRSA role, as on AWS.
  if (req.serviceAccountRoleArn) checkServiceAccountRole(ctx.state, req.serviceAccountRoleArn, spec, c);
  if (req.configurationValues !== undefined) checkConfigurationValues(req.configurationValues, spec, c);
  const associations = req.podIdentityAssociations
    ? checkAddonPodIdentity(ctx.state, req.podIdentityAssociations, spec, c)
    : undefined;
  const namespace = a.namespace ?? spec.defaultNamespace;
  const owned = a.podIdentityAssociationIds.map((id) => keyed.get(c.podIdentityAssociations, id)).filter((x) => !!x);
  for (const n of associations ?? []) {
    if (!owned.some((o) => o.serviceAccount === n.serviceAccount))
      checkNoAssociationFor(c, namespace, n.serviceAccount);
  }

  const now = ctx.now();
  const params: StoredUpdate['params'] = [];
  if (req.addonVersion) params.push({ type: 'AddonVersion', value: req.addonVersion });
  if (req.serviceAccountRoleArn !== undefined)
    params.push({ type: 'ServiceAccountRoleArn', value: req.serviceAccountRoleArn });
  if (req.resolveConflicts) params.push({ type: 'ResolveConflicts', value: req.resolveConflicts });
  if (req.configurationValues !== undefined)
    params.push({ type: 'ConfigurationValues', value: req.configurationValues });
  if (associations) {
    // Pod identity changes apply at once: associations are their own resources on AWS too.
    params.push({ type: 'PodIdentityAssociations', value: JSON.stringify(associations) });
    for (const o of owned) {
      const wanted = associations.find((n) => n.serviceAccount === o.serviceAccount);
      if (!wanted) keyed.delete(c.podIdentityAssociations, o.associationId);
      else if (wanted.roleArn !== o.roleArn) Object.assign(o, { roleArn: wanted.roleArn, modifiedAt: now });
    }
    const fresh = associations
      .filter((n) => !owned.some((o) => o.serviceAccount === n.serviceAccount))
      .map((n) =>
        newPodIdentityAssociation(
          c,
          { namespace, serviceAccount: n.serviceAccount, roleArn: n.roleArn, ownerArn: a.addonArn },
          now,
        ),
      );
    for (const p of fresh) keyed.set(c.podIdentityAssociations, p.associationId, p);
    a.podIdentityAssociationIds = keyed
      .values(c.podIdentityAssociations)
      .filter((p) => p.ownerArn === a.addonArn)
      .map((p) => p.associationId);
  }
  const id = uuid();
  const update: StoredUpdate = {
    id,
    status: 'InProgress',
    type: 'AddonUpdate',
    params,
    addonName: a.addonName,
    changes: {
      ...(req.addonVersion ? { addonVersion: req.addonVersion } : {}),
      ...(req.serviceAccountRoleArn !== undefined ? { serviceAccountRoleArn: req.serviceAccountRoleArn } : {}),
      ...(req.configurationValues !== undefined ? { configurationValues: req.configurationValues } : {}),
    },
    createdAt: now,
    completeAt: now + Math.round((1 + unitHash(id)) * MINUTE),
  };
  c.updates.push(update);
  a.status = 'UPDATING';
  a.modifiedAt = now;
  rememberClientToken(ctx, req.clientRequestToken, input, id);
  return { update: renderUpdate(update) };
}

export function deleteAddon(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({ clusterName: z.string().min(1), addonName: z.string().min(1), preserve: queryBoolean.optional() }),
    input,
    VALIDATION,
  );
  const c = requireCluster(ctx, req.clusterName);
  const a = requireAddon(c, req.addonName);
  if (a.status === 'DELETING')
    throw inUse(`Addon ${a.addonName} is already being deleted.`, { clusterName: c.name, addonName: a.addonName });
  const now = ctx.now();
  a.status = 'DELETING';
  a.readyAt = now + Math.round((0.5 + unitHash(`${c.name}:${a.addonName}:delete`)) * MINUTE);
  a.preserve = req.preserve ?? false;
  a.modifiedAt = now;
  return { addon: renderAddon(c, a) };
}
