import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema } from '../../../domain/schemas/common.js';
import { StartModelDownloadRequestSchema } from '../../../domain/schemas/model-downloads.js';
import { OperationStartedSchema, startedAnswer, POLL_UNTIL_DONE } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { MODEL_DOWNLOAD_PATHS } from '../paths.js';

const InputSchema = z
  .object({
    cluster: ClusterRefSchema.describe('The cluster whose storage receives the model (from list_clusters).'),
    ...StartModelDownloadRequestSchema.shape,
  })
  .strict();

/** `download_model` → POST /api/v1/clusters/{cluster}/model-downloads (202 + operation). */
export function registerDownloadModelTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'download_model',
    title: "Download a model into the cluster's storage",
    description: `Download a Hugging Face model into a cluster's S3 storage (a Kubernetes Job), under <prefix>/models/<owner>/<name>/<revision>/. Ask for token only for gated or private models. ${POLL_UNTIL_DONE}`,
    input: InputSchema,
    output: OperationStartedSchema,
    // Idempotent: a repeat while it runs answers that operation, and one after it landed answers the finished download.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run({ cluster, ...body }, { api, signal }) {
      const accepted = await api.post(apiPath(MODEL_DOWNLOAD_PATHS.list, { name: cluster }), { body, signal });
      return startedAnswer(accepted, `download_model ${body.modelId} into ${cluster}/${body.storage}`);
    },
  });
}
