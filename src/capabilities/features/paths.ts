/** The REST paths of the features capability, written once (routes, MCP tools and the UI use these). */
export const FEATURE_PATHS = {
  all: '/api/v1/clusters/{name}/features',
  plan: '/api/v1/clusters/{name}/features/plan',
} as const;
