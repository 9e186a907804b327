/** The REST paths of the clusters capability, written once (routes, MCP tools and the UI use these). */
export const CLUSTER_PATHS = {
  list: '/api/v1/clusters',
  plan: '/api/v1/clusters/plan',
  cost: '/api/v1/clusters/{name}/cost',
  one: '/api/v1/clusters/{name}',
  deletePlan: '/api/v1/clusters/{name}/delete-plan',
  active: '/api/v1/active-cluster',
} as const;
