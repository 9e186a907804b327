import type { Diagnosis } from '@domain/schemas/diagnostics.js';
import { rest } from '@kit/api/rest.js';
import { useQuery } from '@tanstack/react-query';
import { DIAGNOSTICS_PATHS } from '../paths.js';

/** The diagnostics capability's REST calls: GETs only. */

export const diagnoseClusterCreation = (cluster: string, region?: string, operationId?: string) =>
  rest(DIAGNOSTICS_PATHS.clusterCreation, { name: cluster }).get<Diagnosis>({ region, operationId });

export const diagnoseNode = (cluster: string, node: string, region?: string) =>
  rest(DIAGNOSTICS_PATHS.node, { name: cluster, node }).get<Diagnosis>({ region });

export const diagnoseNccl = (cluster: string, namespace: string, job: string, region?: string) =>
  rest(DIAGNOSTICS_PATHS.nccl, { name: cluster, namespace, job }).get<Diagnosis>({ region });

/** A diagnosis, read once the user asked for it (`enabled`) and again on "Diagnose again"; never polled. */
export function useDiagnosis(key: readonly unknown[], read: () => Promise<Diagnosis>, enabled: boolean) {
  return useQuery({ queryKey: ['diagnostics', ...key], queryFn: read, enabled, staleTime: 0, gcTime: 60_000 });
}
