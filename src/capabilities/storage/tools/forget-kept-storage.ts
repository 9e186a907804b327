import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import {
  ForgetKeptStorageAnswerSchema,
  StorageNameSchema,
  StorageNamespaceSchema,
  type ForgetKeptStorageAnswer,
} from '../../../domain/schemas/storage.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { STORAGE_PATHS } from '../paths.js';

/** `forget_kept_storage` → DELETE /api/v1/clusters/{cluster}/kept-storage/{storage}. */
export function registerForgetKeptStorageTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'forget_kept_storage',
    title: 'Forget a kept storage',
    description:
      "Forget a storage removed keeping its data: no longer listed nor kept by the cluster's delete. Nothing is deleted now, but the cluster's own bucket goes with the cluster. Ask first.",
    input: z
      .object({
        cluster: ClusterRefSchema,
        storage: StorageNameSchema.describe("The kept storage to forget (its name in list_storage's kept list)."),
        namespace: StorageNamespaceSchema.optional(),
        region: RegionSchema.optional(),
      })
      .strict(),
    output: ForgetKeptStorageAnswerSchema,
    // Destructive: the cluster's delete no longer keeps the data (its own shared bucket then goes with it), so ask
    // first.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    async run({ cluster, storage, namespace, region }, { api, signal }) {
      const answer = await api.delete<ForgetKeptStorageAnswer>(
        apiPath(STORAGE_PATHS.kept, { name: cluster, storage }),
        { query: { namespace, region }, signal },
      );
      return { text: answer.message, data: answer };
    },
  });
}
