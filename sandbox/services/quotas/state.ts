import { keyed, type Keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';

/**
 * Service Quotas' section of the sandbox state, per region: the values raised by approved
 * requests (quota code → value; absent means the default) and the increase requests themselves.
 */
export type RequestStatus =
  | 'PENDING'
  | 'CASE_OPENED'
  | 'APPROVED'
  | 'DENIED'
  | 'CASE_CLOSED'
  | 'NOT_APPROVED'
  | 'INVALID_REQUEST';

export interface StoredQuotaRequest {
  id: string;
  caseId?: string;
  serviceCode: string;
  quotaCode: string;
  desiredValue: number;
  status: RequestStatus;
  created: number;
  lastUpdated: number;
  /** When the request moves to CASE_OPENED, then APPROVED (sandbox ms). */
  caseOpensAt: number;
  approvesAt: number;
  requester: string;
}

export interface QuotaRegion {
  /** Quota code → raised value. */
  applied: Keyed<number>;
  requests: Keyed<StoredQuotaRequest>;
}

type QuotasSection = Keyed<QuotaRegion>;

export function quotaRegions(state: SandboxState): QuotasSection {
  return (state.servicequotas ??= {}) as QuotasSection;
}

export function quotaRegion(state: SandboxState, region: string): QuotaRegion {
  const all = quotaRegions(state);
  return keyed.ensure(all, region, () => ({ applied: {}, requests: {} }));
}

/** Read-only: never creates the section. */
export function peekQuotaRegion(state: SandboxState, region: string): QuotaRegion | undefined {
  return keyed.get(state.servicequotas as QuotasSection | undefined, region);
}
