import { jsonRpcErrors } from '../../core/error-styles.js';
import type { ServiceModule } from '../../core/service.js';
import type { SandboxState } from '../../core/store.js';
import { quotaOperations } from './ops.js';
import { quotaRegions } from './state.js';
import { keyed } from '../../core/keyed.js';
import { quotaTick } from './tick.js';

/** Increase requests and raised values per region, for `GET /_sandbox/inventory`. */
function inventory(state: SandboxState): Record<string, unknown[]> {
  const quotaRequests: unknown[] = [];
  const raisedQuotas: unknown[] = [];
  for (const [region, s] of keyed.entries(state.servicequotas === undefined ? undefined : quotaRegions(state))) {
    for (const r of keyed.values(s.requests))
      quotaRequests.push({
        region,
        id: r.id,
        serviceCode: r.serviceCode,
        quotaCode: r.quotaCode,
        desiredValue: r.desiredValue,
        status: r.status,
      });
    for (const [quotaCode, value] of keyed.entries(s.applied)) raisedQuotas.push({ region, quotaCode, value });
  }
  return { quotaRequests, raisedQuotas };
}

/** Service Quotas: the SageMaker HyperPod quotas, per region, and increase requests on the clock. */
export const servicequotas: ServiceModule = {
  signingName: 'servicequotas',
  protocol: 'awsJson1_1',
  targetPrefix: 'ServiceQuotasV20190624',
  errors: {
    ...jsonRpcErrors('IllegalArgumentException'),
    throttling: { code: 'TooManyRequestsException', status: 400 },
  },
  operations: quotaOperations,
  tick: quotaTick,
  inventory,
};
