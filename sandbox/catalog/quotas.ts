import { createHash } from 'node:crypto';
import { listInstanceTypes } from './instance-types.js';

/**
 * The Service Quotas catalogue the sandbox plays: the account-level quotas SageMaker HyperPod
 * enforces, with the defaults a new account gets. Accelerated types start at 0 (an increase must
 * be requested, as on a fresh AWS account); small GPU and CPU types start low but usable.
 */
export interface QuotaDefinition {
  serviceCode: string;
  serviceName: string;
  quotaCode: string;
  quotaName: string;
  defaultValue: number;
  unit: string;
  adjustable: boolean;
  description: string;
}

export const HYPERPOD_TOTAL_INSTANCES = 'Total number of instances allowed across SageMaker HyperPod clusters';
export const HYPERPOD_INSTANCES_PER_CLUSTER = 'Maximum number of instances allowed per SageMaker HyperPod cluster';
export const HYPERPOD_EBS_VOLUME_GB = 'Maximum size of EBS volume in GB for a SageMaker HyperPod cluster instance';
export const clusterUsageQuotaName = (mlInstanceType: string): string =>
  `${mlInstanceType.startsWith('ml.') ? mlInstanceType : `ml.${mlInstanceType}`} for cluster usage`;

/** Quota codes look like AWS's (`L-` + 8 upper-case hex) and stay stable because they come from the name. */
export function quotaCodeFor(name: string): string {
  return `L-${createHash('sha256').update(name).digest('hex').slice(0, 8).toUpperCase()}`;
}

const ZERO_BY_DEFAULT = /^(p4d|p4de|p5|p5e|p5en|p6-.*|trn\d+)$/;

/** New-account defaults: accelerated types 0; small GPU types 2 (large ones 1); CPU types 10 (large ones 4). */
function defaultClusterUsage(instanceType: string): number {
  const [family, size] = instanceType.split('.') as [string, string];
  if (ZERO_BY_DEFAULT.test(family)) return 0;
  const multiple = Number(/^(\d+)xlarge$/.exec(size)?.[1] ?? 1);
  if (/^g\d/.test(family)) return multiple <= 8 ? 2 : 1;
  return multiple <= 2 ? 10 : 4;
}

function sagemakerQuota(quotaName: string, defaultValue: number, description: string): QuotaDefinition {
  return {
    serviceCode: 'sagemaker',
    serviceName: 'Amazon SageMaker',
    quotaCode: quotaCodeFor(quotaName),
    quotaName,
    defaultValue,
    unit: 'None',
    adjustable: true,
    description,
  };
}

function buildCatalogue(): QuotaDefinition[] {
  const perType = listInstanceTypes()
    .filter((t) => t.hyperpod)
    .map((t) =>
      sagemakerQuota(
        clusterUsageQuotaName(t.instanceType),
        defaultClusterUsage(t.instanceType),
        `Maximum number of ml.${t.instanceType} instances allowed across all SageMaker HyperPod clusters in this account and Region.`,
      ),
    );
  return [
    ...perType,
    sagemakerQuota(
      HYPERPOD_TOTAL_INSTANCES,
      100,
      'Maximum number of instances allowed across all SageMaker HyperPod clusters in this account and Region.',
    ),
    sagemakerQuota(
      HYPERPOD_INSTANCES_PER_CLUSTER,
      100,
      'Maximum number of instances allowed in a single SageMaker HyperPod cluster.',
    ),
    sagemakerQuota(
      HYPERPOD_EBS_VOLUME_GB,
      2000,
      'Maximum size in GB of an additional EBS volume attached to a SageMaker HyperPod cluster instance.',
    ),
  ];
}

let catalogue: QuotaDefinition[] | undefined;

/** Every quota, sorted by code as ListServiceQuotas pages through them. */
export function listQuotaDefinitions(serviceCode?: string): QuotaDefinition[] {
  catalogue ??= buildCatalogue().sort((a, b) => (a.quotaCode < b.quotaCode ? -1 : 1));
  return serviceCode ? catalogue.filter((q) => q.serviceCode === serviceCode) : [...catalogue];
}

export const knownServiceCodes = (): string[] => [...new Set(listQuotaDefinitions().map((q) => q.serviceCode))];

export function findQuotaDefinition(serviceCode: string, quotaCode: string): QuotaDefinition | undefined {
  return listQuotaDefinitions(serviceCode).find((q) => q.quotaCode === quotaCode);
}

export function findQuotaByName(serviceCode: string, quotaName: string): QuotaDefinition | undefined {
  return listQuotaDefinitions(serviceCode).find((q) => q.quotaName === quotaName);
}
