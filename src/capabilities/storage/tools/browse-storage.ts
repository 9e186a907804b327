import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema } from '../../../domain/schemas/common.js';
import {
  BrowseStorageAnswerSchema,
  BrowseStorageQuerySchema,
  StorageNameSchema,
  type BrowseStorageAnswer,
} from '../../../domain/schemas/storage.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { STORAGE_PATHS } from '../paths.js';

const q = BrowseStorageQuerySchema.shape;

/** `browse_storage` → GET /api/v1/clusters/{cluster}/storage/{storage}/objects. */
export function registerBrowseStorageTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'browse_storage',
    title: "Browse a storage's contents",
    description:
      'One folder of an S3 storage: sub-folders and objects with sizes and dates, in pages (nextToken → pageToken); path is relative to the storage. FSx cannot be browsed.',
    input: z
      .object({
        cluster: ClusterRefSchema,
        storage: StorageNameSchema.describe('The storage (its name in list_storage).'),
        namespace: q.namespace.optional(),
        region: q.region,
        path: q.path,
        pageToken: q.pageToken,
        limit: q.limit.optional(),
      })
      .strict(),
    output: BrowseStorageAnswerSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, storage, ...query }, { api, signal }) {
      const v = await api.get<BrowseStorageAnswer>(apiPath(STORAGE_PATHS.objects, { name: cluster, storage }), {
        query: { ...query },
        signal,
      });
      if (!v.browsable) return { text: v.message ?? `Storage ${storage} cannot be browsed.`, data: v };
      const lines = [
        `s3://${v.bucket}/${v.prefix ?? ''}: ${v.folders.length} folder(s), ${v.objects.length} object(s) on this page.`,
        ...v.folders.map((f) => `- ${f.name} (folder; path ${f.path})`),
        ...v.objects.map((o) => `- ${o.name} ${o.size} bytes${o.lastModified ? `, ${o.lastModified}` : ''}`),
        v.nextToken ? `More: call again with pageToken ${v.nextToken}.` : '',
      ];
      return { text: lines.filter(Boolean).join('\n'), data: v };
    },
  });
}
