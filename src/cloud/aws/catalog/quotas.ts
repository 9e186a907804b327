import {
  GetServiceQuotaCommand,
  paginateListAWSDefaultServiceQuotas,
  paginateListServiceQuotas,
  type ServiceQuota,
} from '@aws-sdk/client-service-quotas';
import type { QuotaFact } from '../../../domain/preflight-facts.js';
import type { AwsClients } from '../clients.js';
import { awsCall, hasCode } from '../errors.js';
import { collectPages } from './paginate.js';

/** One quota of a service in a Region: its code, the value the listing showed and AWS's default. */
export interface QuotaEntry {
  serviceCode: string;
  quotaName: string;
  quotaCode: string;
  /** The applied value ListServiceQuotas reported, when it reported one. */
  appliedValue?: number;
  /** AWS's default (ListAWSDefaultServiceQuotas). */
  defaultValue?: number;
}

/** Every quota of a service in a Region, by name. */
export type QuotaIndex = Map<string, QuotaEntry>;

/**
 * Reads a service's quotas in one Region: ListServiceQuotas (applied values) merged with
 * ListAWSDefaultServiceQuotas, because ListServiceQuotas leaves out quotas that have no applied value
 * and those still exist, at their default.
 */
export async function loadQuotaIndex(clients: AwsClients, region: string, serviceCode: string): Promise<QuotaIndex> {
  const client = clients.quotas(region);
  const [applied, defaults] = await Promise.all([
    collectPages(
      'servicequotas',
      'ListServiceQuotas',
      () => paginateListServiceQuotas({ client, pageSize: 100 }, { ServiceCode: serviceCode }),
      (p) => p.Quotas,
    ),
    collectPages(
      'servicequotas',
      'ListAWSDefaultServiceQuotas',
      () => paginateListAWSDefaultServiceQuotas({ client, pageSize: 100 }, { ServiceCode: serviceCode }),
      (p) => p.Quotas,
    ),
  ]);
  const index: QuotaIndex = new Map();
  const entry = (q: ServiceQuota): QuotaEntry | undefined => {
    if (!q.QuotaName || !q.QuotaCode) return undefined;
    let e = index.get(q.QuotaName);
    if (!e) index.set(q.QuotaName, (e = { serviceCode, quotaName: q.QuotaName, quotaCode: q.QuotaCode }));
    return e;
  };
  for (const q of defaults) {
    const e = entry(q);
    if (e && q.Value !== undefined) e.defaultValue = q.Value;
  }
  for (const q of applied) {
    const e = entry(q);
    if (e && q.Value !== undefined) e.appliedValue = q.Value;
  }
  return index;
}

/** The value a listing implies: the applied one, else the default. */
export function listedValue(entry: QuotaEntry): number | undefined {
  return entry.appliedValue ?? entry.defaultValue;
}

/**
 * The current value of one quota, asked fresh (GetServiceQuota), since a decision rests on it and an
 * increase may have been approved since the listing was cached. When Service Quotas has no applied
 * value for it (NoSuchResourceException, or no Value), the default from the listing holds.
 */
export async function currentQuota(
  clients: AwsClients,
  region: string,
  entry: QuotaEntry,
): Promise<QuotaFact | undefined> {
  let value: number | undefined;
  try {
    const r = await awsCall('servicequotas', 'GetServiceQuota', () =>
      clients
        .quotas(region)
        .send(new GetServiceQuotaCommand({ ServiceCode: entry.serviceCode, QuotaCode: entry.quotaCode })),
    );
    value = r.Quota?.Value;
  } catch (err) {
    if (!hasCode(err, 'NoSuchResourceException')) throw err;
  }
  value ??= entry.defaultValue;
  if (value === undefined) return undefined;
  return { serviceCode: entry.serviceCode, quotaName: entry.quotaName, quotaCode: entry.quotaCode, value };
}
