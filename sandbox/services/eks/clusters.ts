import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import { EKS_VERSIONS } from '../../catalog/eks-versions.js';
import { DEFAULT_EKS_VERSION } from '../../catalog/eks-versions.js';
import { unitHash } from '../../core/ids.js';
import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { clusterNotFound, inUse, invalidRequest } from './errors.js';
import { maxResults, nextToken, page, queryBoolean } from './paging.js';
import { renderCluster } from './render.js';
import { eksRegion, findCluster, type StoredCluster } from './state.js';

const MINUTE = 60_000;
const VALIDATION = { style: 'coral', code: 'InvalidParameterException' } as const;

/** The cluster named in the request, or ResourceNotFoundException. */
export function requireCluster(ctx: RequestContext, name: string): StoredCluster {
  const c = findCluster(ctx.state, ctx.region, name);
  if (!c) throw clusterNotFound(name);
  return c;
}

export function describeCluster(input: unknown, ctx: RequestContext) {
  const req = validateInput(z.object({ name: z.string().min(1) }), input, VALIDATION);
  return { cluster: renderCluster(requireCluster(ctx, req.name), ctx.region, ctx.runtime) };
}

export function listClusters(input: unknown, ctx: RequestContext) {
  const req = validateInput(
    z.object({ maxResults: maxResults(), nextToken, include: z.array(z.string()).optional() }),
    input,
    VALIDATION,
  );
  const names = keyed.keys(eksRegion(ctx.state, ctx.region).clusters).sort();
  const p = page(names, (n) => n, req);
  return { clusters: p.items, ...(p.nextToken ? { nextToken: p.nextToken } : {}) };
}

export function deleteCluster(input: unknown, ctx: RequestContext) {
  const req = validateInput(z.object({ name: z.string().min(1) }), input, VALIDATION);
  const c = requireCluster(ctx, req.name);
  if (c.status === 'CREATING' || c.status === 'UPDATING' || c.status === 'DELETING') {
    throw inUse(`Cluster has status of ${c.status}. Cannot delete.`, { clusterName: c.name });
  }
  if (c.deletionProtection) {
    throw invalidRequest(
      `Cluster ${c.name} has deletion protection enabled. Disable it with UpdateClusterConfig (deletionProtection=false) first.`,
      { clusterName: c.name },
    );
  }
  const now = ctx.now();
  c.status = 'DELETING';
  c.readyAt = now + Math.round((3 + 2 * unitHash(`${c.name}:delete`)) * MINUTE);
  for (const addon of keyed.values(c.addons)) {
    addon.status = 'DELETING';
    addon.readyAt = c.readyAt;
    addon.modifiedAt = now;
  }
  return { cluster: renderCluster(c, ctx.region, ctx.runtime) };
}

const versionsSchema = z.object({
  clusterType: z.string().optional(),
  maxResults: maxResults(),
  nextToken,
  defaultOnly: queryBoolean.optional(),
  includeAll: queryBoolean.optional(),
  clusterVersions: z.array(z.string()).optional(),
  status: z.enum(['unsupported', 'standard-support', 'extended-support']).optional(),
  versionStatus: z.enum(['UNSUPPORTED', 'STANDARD_SUPPORT', 'EXTENDED_SUPPORT']).optional(),
});

const legacyStatus = {
  STANDARD_SUPPORT: 'standard-support',
  EXTENDED_SUPPORT: 'extended-support',
  UNSUPPORTED: 'unsupported',
} as const;

export function describeClusterVersions(input: unknown, _ctx: RequestContext) {
  const req = validateInput(versionsSchema, input, VALIDATION);
  const versions = EKS_VERSIONS.filter(
    (v) =>
      (req.clusterType === undefined || req.clusterType === 'eks') &&
      (!req.defaultOnly || v.version === DEFAULT_EKS_VERSION) &&
      (req.includeAll || v.versionStatus !== 'UNSUPPORTED') &&
      (!req.clusterVersions?.length || req.clusterVersions.includes(v.version)) &&
      (!req.status || legacyStatus[v.versionStatus] === req.status) &&
      (!req.versionStatus || v.versionStatus === req.versionStatus),
  );
  const p = page(versions, (v) => v.version, req);
  return {
    clusterVersions: p.items.map((v) => ({
      clusterVersion: v.version,
      clusterType: 'eks',
      defaultPlatformVersion: v.platformVersion,
      defaultVersion: v.version === DEFAULT_EKS_VERSION,
      releaseDate: new Date(`${v.releaseDate}T00:00:00Z`),
      endOfStandardSupportDate: new Date(`${v.endOfStandardSupport}T00:00:00Z`),
      endOfExtendedSupportDate: new Date(`${v.endOfExtendedSupport}T00:00:00Z`),
      status: legacyStatus[v.versionStatus],
      versionStatus: v.versionStatus,
      kubernetesPatchVersion: v.patchVersion,
    })),
    ...(p.nextToken ? { nextToken: p.nextToken } : {}),
  };
}
