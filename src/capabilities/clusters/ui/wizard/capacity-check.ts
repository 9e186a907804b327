import type { QuotaCheckResult } from '@kit/api/types.js';
import { useDebounced } from '@kit/hooks/use-debounced.js';
import { useQuery } from '@tanstack/react-query';
import { checkQuotas } from '../../../catalog/ui/index.js';
import { toRequest, type WizardForm } from './form.js';

export interface CapacityCheck {
  result?: QuotaCheckResult;
  error: unknown;
  /** True while the user is still typing or the server is checking. */
  checking: boolean;
  /** False until the step has a type and a valid count to check. */
  enabled: boolean;
}

/**
 * The quota and training-plan part of the create preflight, run at the Capacity step as soon as a type
 * and a count are chosen (POST /api/v1/preflight/quotas) — a count the account cannot run is caught
 * where it is typed, not first on Review.
 */
export function useCapacityCheck(form: WizardForm): CapacityCheck {
  const r = toRequest(form);
  const body = {
    ...(r.region ? { region: r.region } : {}),
    instanceType: r.instanceType,
    instanceCount: r.instanceCount,
    capacityType: r.capacityType ?? 'on-demand',
    ...(r.trainingPlanArn ? { trainingPlanArn: r.trainingPlanArn } : {}),
    ...(r.availabilityZone ? { availabilityZone: r.availabilityZone } : {}),
  };
  const key = JSON.stringify(body);
  const settled = useDebounced(key);
  const enabled =
    !!r.instanceType &&
    Number.isInteger(r.instanceCount) &&
    r.instanceCount >= 1 &&
    r.instanceCount <= 1000 &&
    (r.capacityType !== 'training-plan' || !!r.trainingPlanArn);
  const query = useQuery({
    queryKey: ['capacity-check', settled],
    queryFn: () => checkQuotas(JSON.parse(settled) as typeof body),
    enabled: enabled && settled === key,
    staleTime: 10_000,
    retry: false,
  });
  const current = settled === key;
  return {
    ...(current && query.data ? { result: query.data } : {}),
    error: current ? query.error : null,
    checking: enabled && (!current || query.isFetching),
    enabled,
  };
}
