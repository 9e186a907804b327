/** The REST paths of the model-downloads capability, written once (routes, MCP tools and the UI use these). */
export const MODEL_DOWNLOAD_PATHS = {
  list: '/api/v1/clusters/{name}/model-downloads',
} as const;
