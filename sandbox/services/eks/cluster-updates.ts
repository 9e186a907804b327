import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { lookupClientToken, rememberClientToken } from '../../core/idempotency.js';
import { unitHash, uuid } from '../../core/ids.js';
import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { requireCluster } from './clusters.js';
import { clientError, inUse, invalidParameter, notFound } from './errors.js';
import { maxResults, nextToken, page } from './paging.js';
import { renderUpdate } from './render.js';
import { AUTH_MODES, loggingSchema, normaliseLogging } from './schemas.js';
import type { AuthenticationMode, StoredCluster, StoredUpdate, UpdateChanges } from './state.js';

const MINUTE = 60_000;
const VALIDATION = { style: 'coral', code: 'InvalidParameterException' } as const;

const updateConfigSchema = z.object({
  name: z.string().min(1),
  logging: loggingSchema.optional(),
  accessConfig: z.object({ authenticationMode: z.enum(AUTH_MODES).optional() }).optional(),
  deletionProtection: z.boolean().optional(),
  upgradePolicy: z.object({ supportType: z.enum(['STANDARD', 'EXTENDED']).optional() }).optional(),
  clientRequestToken: z.string().min(1).optional(),
});

/** Update kinds AWS has that the sandbox does not emulate. */
const NOT_EMULATED = [
  'resourcesVpcConfig',
  'zonalShiftConfig',
  'computeConfig',
  'kubernetesNetworkConfig',
  'storageConfig',
  'remoteNetworkConfig',
  'controlPlaneScalingConfig',
  'kubeApiServerConfig',
  'kubeSchedulerConfig',
  'kubeControllerManagerConfig',
];

/** Only forward: access entries, once enabled, cannot be turned off again. */
const MODE_RANK: Record<AuthenticationMode, number> = { CONFIG_MAP: 0, API_AND_CONFIG_MAP: 1, API: 2 };

export function updateClusterConfig(input: unknown, ctx: RequestContext) {
  const req = validateInput(updateConfigSchema, input, VALIDATION);
  const c = requireCluster(ctx, req.name);
  const about = { clusterName: c.name };
  const mismatch = () =>
    clientError('The clientRequestToken was already used for a different UpdateClusterConfig request.', about);
  const earlier = lookupClientToken(ctx, req.clientRequestToken, input, mismatch);
  const done = earlier && c.updates.find((u) => u.id === earlier);
  if (done) return { update: renderUpdate(done) };

  const raw = input as Record<string, unknown>;
  const stray = NOT_EMULATED.find((k) => raw[k] !== undefined);
  if (stray) throw invalidParameter(`${stray}: the sandbox does not emulate this kind of cluster update.`, about);
  const kinds = (['logging', 'accessConfig', 'deletionProtection', 'upgradePolicy'] as const).filter(
    (k) => req[k] !== undefined,
  );
  if (kinds.length === 0) throw invalidParameter('No changes needed: the request names nothing to update.', about);
  if (kinds.length > 1) throw invalidParameter('Only one type of update can be allowed.', about);
  if (c.status !== 'ACTIVE') throw inUse(`Cluster has status of ${c.status}. Updates need an ACTIVE cluster.`, about);

  let type: string;
  let params: StoredUpdate['params'];
  let changes: UpdateChanges;
  if (req.accessConfig) {
    const mode = req.accessConfig.authenticationMode;
    if (!mode)
      throw invalidParameter('accessConfig.authenticationMode is required to update the access configuration.', about);
    if (mode === c.authenticationMode)
      throw invalidParameter(`Cluster is already in ${mode} authentication mode.`, about);
    if (MODE_RANK[mode] < MODE_RANK[c.authenticationMode]) {
      throw invalidParameter(
        `Unsupported authentication mode update from ${c.authenticationMode} to ${mode}: the mode can only move CONFIG_MAP → API_AND_CONFIG_MAP → API.`,
        about,
      );
    }
    type = 'AccessConfigUpdate';
    params = [{ type: 'AuthenticationMode', value: mode }];
    changes = { authenticationMode: mode };
  } else if (req.logging) {
    const logging = normaliseLogging(c.logging, req.logging);
    if (JSON.stringify(logging) === JSON.stringify(c.logging))
      throw invalidParameter('No changes needed for the logging config provided', about);
    type = 'LoggingUpdate';
    params = [{ type: 'ClusterLogging', value: JSON.stringify({ clusterLogging: logging }) }];
    changes = { logging };
  } else if (req.deletionProtection !== undefined) {
    if (req.deletionProtection === c.deletionProtection)
      throw invalidParameter(`Deletion protection is already ${c.deletionProtection ? 'enabled' : 'disabled'}.`, about);
    type = 'DeletionProtectionUpdate';
    params = [{ type: 'DeletionProtection', value: String(req.deletionProtection) }];
    changes = { deletionProtection: req.deletionProtection };
  } else {
    const supportType = req.upgradePolicy!.supportType;
    if (!supportType || supportType === c.supportType)
      throw invalidParameter('No changes needed for the upgrade policy provided', about);
    type = 'UpgradePolicyUpdate';
    params = [{ type: 'UpgradePolicy', value: supportType }];
    changes = { supportType };
  }

  const now = ctx.now();
  const id = uuid();
  const update: StoredUpdate = {
    id,
    status: 'InProgress',
    type,
    params,
    changes,
    createdAt: now,
    completeAt: now + Math.round((1 + unitHash(id)) * MINUTE),
  };
  c.updates.push(update);
  c.status = 'UPDATING';
  rememberClientToken(ctx, req.clientRequestToken, input, id);
  return { update: renderUpdate(update) };
}

function findUpdates(c: StoredCluster, addonName: string | undefined): StoredUpdate[] {
  if (addonName && !keyed.get(c.addons, addonName))
    throw notFound(`No addon: ${addonName} found in cluster: ${c.name}`, { clusterName: c.name, addonName });
  return c.updates.filter((u) => u.addonName === addonName);
}

export function describeUpdate(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({
      name: z.string().min(1),
      updateId: z.string().min(1),
      addonName: z.string().optional(),
      nodegroupName: z.string().optional(),
    }),
    input,
    VALIDATION,
  );
  const c = requireCluster(ctx, req.name);
  if (req.nodegroupName) throw notFound(`No node group found for name: ${req.nodegroupName}.`, { clusterName: c.name });
  const u = findUpdates(c, req.addonName).find((x) => x.id === req.updateId);
  if (!u) throw notFound(`No update found for ID: ${req.updateId}`, { clusterName: c.name });
  return { update: renderUpdate(u) };
}

export function listUpdates(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({
      name: z.string().min(1),
      addonName: z.string().optional(),
      nodegroupName: z.string().optional(),
      maxResults: maxResults(),
      nextToken,
    }),
    input,
    VALIDATION,
  );
  const c = requireCluster(ctx, req.name);
  if (req.nodegroupName) throw notFound(`No node group found for name: ${req.nodegroupName}.`, { clusterName: c.name });
  // Creation order, as AWS lists them; ids are uuids, so page by position in that order.
  const updates = findUpdates(c, req.addonName);
  const p = page(updates, (u) => u.id, req);
  return { updateIds: p.items.map((u) => u.id), ...(p.nextToken ? { nextToken: p.nextToken } : {}) };
}
