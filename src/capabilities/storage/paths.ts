/** The REST paths of the storage capability, written once (routes, MCP tools and the UI use these). */
export const STORAGE_PATHS = {
  list: '/api/v1/clusters/{name}/storage',
  one: '/api/v1/clusters/{name}/storage/{storage}',
  objects: '/api/v1/clusters/{name}/storage/{storage}/objects',
  kept: '/api/v1/clusters/{name}/kept-storage/{storage}',
} as const;
