/** The REST paths of the catalog capability, written once (routes, MCP tools and the UI use these). */
export const CATALOG_PATHS = {
  regions: '/api/v1/regions',
  availabilityZones: '/api/v1/availability-zones',
  instanceTypes: '/api/v1/instance-types',
  trainingPlans: '/api/v1/training-plans',
  kubernetesVersions: '/api/v1/kubernetes-versions',
  quotaCheck: '/api/v1/preflight/quotas',
  clusterCheck: '/api/v1/preflight/clusters',
} as const;
