/** The REST paths of the system capability, written once (routes, MCP tools and the UI use these). */
export const SYSTEM_PATHS = {
  config: '/api/v1/config',
  credentialsCheck: '/api/v1/config/credentials/check',
} as const;
