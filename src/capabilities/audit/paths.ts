/** The REST paths of the audit capability, written once (routes, MCP tools and the UI use these). */
export const AUDIT_PATHS = {
  list: '/api/v1/audit',
  export: '/api/v1/audit/export',
} as const;
