import { keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';
import {
  clusterUsageQuotaName,
  findQuotaByName,
  HYPERPOD_INSTANCES_PER_CLUSTER,
  HYPERPOD_TOTAL_INSTANCES,
} from '../../catalog/quotas.js';
import { peekQuotaRegion } from './state.js';

/** The names SageMaker HyperPod quotas go by, so SageMaker can look them up (and quote them in errors). */
export const HYPERPOD_QUOTA_NAMES: {
  clusterUsage(mlInstanceType: string): string;
  totalInstances: string;
  instancesPerCluster: string;
} = {
  clusterUsage: clusterUsageQuotaName,
  totalInstances: HYPERPOD_TOTAL_INSTANCES,
  instancesPerCluster: HYPERPOD_INSTANCES_PER_CLUSTER,
};

/** The quota's current value in the region (default, or raised by an approved request); undefined when the quota does not exist. */
export function getQuotaValue(
  state: SandboxState,
  region: string,
  serviceCode: string,
  quotaName: string,
): number | undefined {
  const def = findQuotaByName(serviceCode, quotaName);
  if (!def) return undefined;
  return keyed.get(peekQuotaRegion(state, region)?.applied, def.quotaCode) ?? def.defaultValue;
}
