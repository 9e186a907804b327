import type { SandboxState } from '../../core/store.js';
import { getQuotaValue, HYPERPOD_QUOTA_NAMES } from '../quotas/public.js';
import { limitExceeded } from './errors.js';
import { clustersIn, type StoredCluster } from './state.js';

/**
 * HyperPod's account quotas (Service Quotas, service code `sagemaker`): instances of each type across
 * the region's clusters, instances across all clusters, and instances per cluster. A request that
 * would go over one fails with ResourceLimitExceeded in AWS's own wording.
 */

/** Instances a cluster holds or is working towards: the target counts of its groups. */
function clusterUsage(cluster: StoredCluster): Map<string, number> {
  const usage = new Map<string, number>();
  if (cluster.status === 'Failed') return usage;
  for (const g of cluster.groups) {
    if (g.deleting || g.failureMessage || !g.spec.InstanceType) continue;
    usage.set(g.spec.InstanceType, (usage.get(g.spec.InstanceType) ?? 0) + g.targetCount);
  }
  return usage;
}

const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

function exceeded(name: string, limit: number, used: number, delta: number) {
  return limitExceeded(
    `The account-level service limit '${name}' is ${limit} Instances, with current utilization of ${used} Instances and a request delta of ${delta} Instances. Please use AWS Service Quotas to request an increase for this quota.`,
  );
}

/**
 * Throws when adding `delta` (instances per ml.* type) to `cluster` (undefined for a new cluster)
 * goes over a quota. Quotas the account does not have are not enforced.
 */
export function checkQuotas(
  state: SandboxState,
  region: string,
  delta: Map<string, number>,
  cluster: StoredCluster | undefined,
): void {
  const requested = total(delta);
  if (requested <= 0) return;
  const regionUsage = new Map<string, number>();
  for (const c of clustersIn(state, region)) {
    for (const [type, n] of clusterUsage(c)) regionUsage.set(type, (regionUsage.get(type) ?? 0) + n);
  }
  for (const [type, d] of delta) {
    if (d <= 0) continue;
    const name = HYPERPOD_QUOTA_NAMES.clusterUsage(type);
    const limit = getQuotaValue(state, region, 'sagemaker', name);
    const used = regionUsage.get(type) ?? 0;
    if (limit !== undefined && used + d > limit) throw exceeded(name, limit, used, d);
  }
  const perCluster = getQuotaValue(state, region, 'sagemaker', HYPERPOD_QUOTA_NAMES.instancesPerCluster);
  const clusterUsed = cluster ? total(clusterUsage(cluster)) : 0;
  if (perCluster !== undefined && clusterUsed + requested > perCluster) {
    throw exceeded(HYPERPOD_QUOTA_NAMES.instancesPerCluster, perCluster, clusterUsed, requested);
  }
  const overall = getQuotaValue(state, region, 'sagemaker', HYPERPOD_QUOTA_NAMES.totalInstances);
  const regionUsed = total(regionUsage);
  if (overall !== undefined && regionUsed + requested > overall) {
    throw exceeded(HYPERPOD_QUOTA_NAMES.totalInstances, overall, regionUsed, requested);
  }
}
