import { rest } from '@kit/api/rest.js';
import type {
  AvailabilityZoneView,
  CreateClusterInput,
  InstanceTypeView,
  KubernetesVersions,
  QuotaCheckInput,
  QuotaCheckResult,
  RegionView,
  TrainingPlanView,
} from '@kit/api/types.js';
import { useQuery } from '@tanstack/react-query';
import { CATALOG_PATHS } from '../paths.js';

/** What AWS offers (Regions, zones, instance types, training plans, Kubernetes versions) and the preflight checks. */

export const catalogKeys = {
  regions: ['regions'] as const,
  zones: (region?: string) => ['availability-zones', region ?? ''] as const,
  instanceTypes: (region?: string, zone?: string) => ['instance-types', region ?? '', zone ?? ''] as const,
  trainingPlans: (region?: string) => ['training-plans', region ?? ''] as const,
  kubernetesVersions: (region?: string) => ['kubernetes-versions', region ?? ''] as const,
};

export const listRegions = () =>
  rest(CATALOG_PATHS.regions)
    .get<{ regions: RegionView[] }>()
    .then((r) => r.regions);
export const listAvailabilityZones = (region?: string) =>
  rest(CATALOG_PATHS.availabilityZones)
    .get<{ region: string; availabilityZones: AvailabilityZoneView[] }>({ region })
    .then((r) => r.availabilityZones);
export const listInstanceTypes = (region: string | undefined, availabilityZone: string | undefined) =>
  rest(CATALOG_PATHS.instanceTypes)
    .get<{ instanceTypes: InstanceTypeView[] }>({ region, availabilityZone })
    .then((r) => r.instanceTypes);
export const listTrainingPlans = (region?: string) =>
  rest(CATALOG_PATHS.trainingPlans)
    .get<{ trainingPlans: TrainingPlanView[] }>({ region })
    .then((r) => r.trainingPlans);
export const listKubernetesVersions = (region?: string) =>
  rest(CATALOG_PATHS.kubernetesVersions).get<KubernetesVersions>({ region });
export const preflightCluster = (body: CreateClusterInput) =>
  rest(CATALOG_PATHS.clusterCheck).post<QuotaCheckResult>({ body });
export const checkQuotas = (body: QuotaCheckInput) => rest(CATALOG_PATHS.quotaCheck).post<QuotaCheckResult>({ body });

export function useRegions() {
  return useQuery({ queryKey: catalogKeys.regions, queryFn: listRegions, staleTime: 10 * 60_000 });
}
export function useAvailabilityZones(region: string | undefined) {
  return useQuery({
    queryKey: catalogKeys.zones(region),
    queryFn: () => listAvailabilityZones(region),
    enabled: !!region,
    staleTime: 5 * 60_000,
  });
}
export function useInstanceTypes(region: string | undefined, zone: string | undefined) {
  return useQuery({
    queryKey: catalogKeys.instanceTypes(region, zone),
    queryFn: () => listInstanceTypes(region, zone),
    enabled: !!region && !!zone,
    staleTime: 5 * 60_000,
  });
}
export function useKubernetesVersions(region: string | undefined) {
  return useQuery({
    queryKey: catalogKeys.kubernetesVersions(region),
    queryFn: () => listKubernetesVersions(region),
    enabled: !!region,
    staleTime: 5 * 60_000,
  });
}
export function useTrainingPlans(region: string | undefined) {
  return useQuery({
    queryKey: catalogKeys.trainingPlans(region),
    queryFn: () => listTrainingPlans(region),
    enabled: !!region,
    staleTime: 60_000,
  });
}
