import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { ModelDownloadListSchema, type ModelDownloadList } from '../../../domain/schemas/model-downloads.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { MODEL_DOWNLOAD_PATHS } from '../paths.js';

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** `list_model_downloads` → GET /api/v1/clusters/{cluster}/model-downloads. */
export function registerListModelDownloadsTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_model_downloads',
    title: 'List model downloads',
    description:
      "A cluster's model downloads, newest first: model, revision, storage, S3 destination, status, progress, the Job, the files landed. Follow download_model with it.",
    input: z.object({ cluster: ClusterRefSchema, region: RegionSchema.optional() }).strict(),
    output: ModelDownloadListSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, region }, { api, signal }) {
      const list = await api.get<ModelDownloadList>(apiPath(MODEL_DOWNLOAD_PATHS.list, { name: cluster }), {
        query: { region },
        signal,
      });
      const lines = list.downloads.map((d) => {
        const p = d.progress;
        const job = d.job ? `; Job ${d.job.name} ${d.job.state}` : '';
        const why = d.error ? `: ${d.error.message.split('\n')[0]}` : '';
        const landed = p ? `; ${p.files}/${p.totalFiles} files, ${mb(p.bytes)} of ${mb(p.totalBytes)}` : '';
        return `- ${d.modelId}@${d.revision} → ${d.destination} (${d.storage}): ${d.status}${why}${landed}${job} [operation ${d.operationId}]`;
      });
      const text = lines.length
        ? `Model downloads of ${cluster}:\n${lines.join('\n')}`
        : `No model downloads on ${cluster} yet (start one with download_model).`;
      return { text, data: list };
    },
  });
}
