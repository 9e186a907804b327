import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { StorageNameSchema, StorageNamespaceSchema } from '../../../domain/schemas/storage.js';
import { OperationStartedSchema, startedAnswer, POLL_UNTIL_DONE } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { STORAGE_PATHS } from '../paths.js';

const InputSchema = z
  .object({
    cluster: ClusterRefSchema,
    storage: StorageNameSchema.describe('The storage to remove (its name in list_storage).'),
    namespace: StorageNamespaceSchema.optional(),
    region: RegionSchema.optional(),
    force: z
      .boolean()
      .default(false)
      .describe('true removes it even while running pods mount it (they lose it). Ask the user first.'),
    deleteData: z
      .boolean()
      .default(false)
      .describe(
        "true ALSO deletes the data, irreversibly. The bucket, the objects under the storage's prefix, or the file system; only after the user explicitly asked for it.",
      ),
    confirm: z
      .string()
      .max(600)
      .optional()
      .describe("With deleteData: the data's name exactly as list_storage's dataName shows it."),
  })
  .strict();

/** `remove_storage` → DELETE /api/v1/clusters/{cluster}/storage/{storage} (202 + operation). */
export function registerRemoveStorageTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'remove_storage',
    title: 'Remove a storage from a cluster',
    description: `Remove a storage's claim and volume; its data is KEPT unless deleteData: true with confirm naming it. Refused while pods mount it, unless force. ${POLL_UNTIL_DONE}`,
    input: InputSchema,
    output: OperationStartedSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    async run({ cluster, storage, namespace, region, force, deleteData, confirm }, { api, signal }) {
      const accepted = await api.delete(apiPath(STORAGE_PATHS.one, { name: cluster, storage }), {
        query: { namespace, region, force: String(force), deleteData: String(deleteData), confirm },
        signal,
      });
      return startedAnswer(accepted, `remove_storage ${storage} from ${cluster}`);
    },
  });
}
