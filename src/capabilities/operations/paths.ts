/** The REST paths of the operations capability, written once (routes, MCP tools and the UI use these). */
export const OPERATION_PATHS = {
  list: '/api/v1/operations',
  one: '/api/v1/operations/{id}',
  wait: '/api/v1/operations/{id}/wait',
  events: '/api/v1/operations/{id}/events',
  retryPhase: '/api/v1/operations/{id}/phases/{phase}/retry',
  cancel: '/api/v1/operations/{id}/cancel',
} as const;
