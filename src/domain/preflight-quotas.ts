import type { QuotaFact, PreflightRequest } from './preflight-facts.js';
import type { PreflightProblem, QuotaCheckResult } from './schemas/preflight.js';

// The HyperPod quotas: their names in Service Quotas, whether a request fits each, and how to raise one that
// it does not fit. The catalog reads the quotas by these names (src/cloud/aws/catalog.ts); preflight.ts asks.

export type QuotaFinding = QuotaCheckResult['quotas'][number];

/** Service Quotas' service code of SageMaker, which holds the HyperPod quotas. */
export const HYPERPOD_QUOTA_SERVICE_CODE = 'sagemaker';

/**
 * The names of the account-level quotas SageMaker HyperPod enforces. These are names to look up in
 * Service Quotas (values and codes always come from the API), not a list of what AWS offers.
 */
export const HYPERPOD_QUOTA_NAMES = {
  totalInstances: 'Total number of instances allowed across SageMaker HyperPod clusters',
  instancesPerCluster: 'Maximum number of instances allowed per SageMaker HyperPod cluster',
} as const;

const CLUSTER_USAGE = / for cluster usage$/;

/** `ml.p5.48xlarge` → `ml.p5.48xlarge for cluster usage`, the per-type HyperPod quota. */
export function clusterUsageQuotaName(instanceType: string): string {
  return `${instanceType} for cluster usage`;
}

/** The HyperPod instance type a quota name is about, or undefined when it is not a cluster-usage quota. */
export function instanceTypeFromClusterUsageQuota(quotaName: string): string | undefined {
  const type = quotaName.replace(CLUSTER_USAGE, '');
  return type !== quotaName && /^ml\.[a-z0-9-]+\.[a-z0-9]+$/.test(type) ? type : undefined;
}

/**
 * How to raise a quota, as a sentence and the CLI command that does it.
 *
 * @example
 * quotaIncreaseRemedy({ serviceCode: 'sagemaker', quotaName: 'ml.p5.48xlarge for cluster usage', quotaCode: 'L-1',
 * value: 0 }, 6, 'us-west-2')
 * // "Request an increase of 'ml.p5.48xlarge for cluster usage' (L-1) to at least 6 in Service Quotas: aws
 * service-quotas …"
 */
export function quotaIncreaseRemedy(quota: QuotaFact, desired: number, region: string): string {
  const where = `Request an increase of '${quota.quotaName}'${quota.quotaCode ? ` (${quota.quotaCode})` : ''} to at least ${desired} in Service Quotas`;
  if (!quota.quotaCode) return `${where} (console: Service Quotas → ${quota.serviceCode}, Region ${region}).`;
  return (
    `${where}: aws service-quotas request-service-quota-increase --service-code ${quota.serviceCode} ` +
    `--quota-code ${quota.quotaCode} --desired-value ${desired} --region ${region}`
  );
}

/** The finding of one quota for the request, given what existing clusters use of it; undefined when the account has no such quota. */
export function quotaFinding(
  req: PreflightRequest,
  quota: QuotaFact | undefined,
  inUse: number,
): QuotaFinding | undefined {
  if (!quota) return undefined;
  const requested = req.instanceCount;
  const ok = inUse + requested <= quota.value;
  return {
    quotaName: quota.quotaName,
    ...(quota.quotaCode ? { quotaCode: quota.quotaCode } : {}),
    serviceCode: quota.serviceCode,
    value: quota.value,
    inUse,
    requested,
    ok,
    ...(ok ? {} : { remedy: quotaIncreaseRemedy(quota, inUse + requested, req.region) }),
  };
}

/** The problem a quota the request does not fit makes. */
export function quotaProblem(req: PreflightRequest, q: QuotaFinding): PreflightProblem {
  return {
    field: 'instanceCount',
    code: 'QuotaExceeded',
    message:
      `The quota '${q.quotaName}' is ${q.value} in ${req.region}; existing HyperPod clusters use ${q.inUse} and this request adds ${q.requested}, ` +
      `${q.inUse + q.requested} in all.`,
    ...(q.remedy ? { remedy: `${q.remedy} (or ask for fewer instances).` } : {}),
  };
}
