import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema } from '../../../domain/schemas/common.js';
import { AddStorageRequestSchema } from '../../../domain/schemas/storage.js';
import { OperationStartedSchema, startedAnswer, POLL_UNTIL_DONE } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { STORAGE_PATHS } from '../paths.js';

const { name, ...fields } = AddStorageRequestSchema.shape;

/** `add_storage` → POST /api/v1/clusters/{cluster}/storage (202 + operation). */
export function registerAddStorageTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'add_storage',
    title: 'Add storage to a cluster',
    description: `Add a storage pods mount by its claim: s3 (a bucket or createBucket) or fsx (a file system or createFileSystem, ~10 min). Its CSI driver feature must be on. ${POLL_UNTIL_DONE}`,
    input: z.object({ cluster: ClusterRefSchema, storage: name, ...fields }).strict(),
    restFields: { name: 'storage' },
    output: OperationStartedSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run({ cluster, storage, ...rest }, { api, signal }) {
      const accepted = await api.post(apiPath(STORAGE_PATHS.list, { name: cluster }), {
        body: { ...rest, name: storage },
        signal,
      });
      return startedAnswer(accepted, `add_storage ${storage} to ${cluster}`);
    },
  });
}
