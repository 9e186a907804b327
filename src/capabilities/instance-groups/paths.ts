/** The REST paths of the instance-groups capability, written once (routes, MCP tools and the UI use these). */
export const GROUP_PATHS = {
  list: '/api/v1/clusters/{name}/instance-groups',
  plan: '/api/v1/clusters/{name}/instance-groups/plan',
  one: '/api/v1/clusters/{name}/instance-groups/{group}',
  scalePreflight: '/api/v1/clusters/{name}/instance-groups/{group}/preflight/scale',
} as const;
