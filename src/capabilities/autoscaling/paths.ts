/** The REST paths of the autoscaling capability, written once (routes, MCP tools and the UI use these). */
export const AUTOSCALING_PATHS = {
  one: '/api/v1/clusters/{name}/autoscaling',
} as const;
