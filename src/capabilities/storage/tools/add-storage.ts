import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema } from '../../../domain/schemas/common.js';
import { AddStorageRequestSchema } from '../../../domain/schemas/storage.js';
import { OperationStartedSchema, startedAnswer } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { STORAGE_PATHS } from '../paths.js';

const { name, ...fields } = AddStorageRequestSchema.shape;

/** `add_storage` → POST /api/v1/clusters/{cluster}/storage (202 + operation). */
export function registerAddStorageTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'add_storage',
    title: 'Add storage to a cluster',
    description:
      'Add storage pods can mount: kind "s3" with an existing bucket or a new one (createBucket: true), optionally ' +
      'a prefix, read-only or read-write; or kind "fsx" with an existing FSx for Lustre file system or a new one ' +
      "(createFileSystem: true, storageCapacityGiB; ~10 minutes). The kind's CSI driver feature must be on " +
      '(list_storage says; set_features). Refused before any change when the bucket or file system will not do. ' +
      'The answer is an operation that is NOT done: call wait_for_operation with its operationId until status is ' +
      '"succeeded" or "failed". Then list_storage shows the claim Bound.',
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
