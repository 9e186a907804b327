/** The REST paths of the nodes capability, written once (routes, MCP tools and the UI use these). */
export const NODE_PATHS = {
  list: '/api/v1/clusters/{name}/nodes',
  one: '/api/v1/clusters/{name}/nodes/{nodeId}',
  reboot: '/api/v1/clusters/{name}/nodes/reboot',
  replace: '/api/v1/clusters/{name}/nodes/replace',
  delete: '/api/v1/clusters/{name}/nodes/delete',
  deepHealthCheck: '/api/v1/clusters/{name}/nodes/deep-health-check',
  events: '/api/v1/clusters/{name}/events',
} as const;
