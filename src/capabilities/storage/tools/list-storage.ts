import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { StorageListSchema, type StorageList, type StorageView } from '../../../domain/schemas/storage.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { STORAGE_PATHS } from '../paths.js';

const where = (s: StorageView) =>
  s.kind === 's3' ? `s3://${s.bucket}/${s.prefix ?? ''}` : `${s.fileSystemId} (FSx for Lustre)`;
const mounts = (s: StorageView) =>
  s.mounts.length
    ? `mounted by ${s.mounts.map((m) => `${m.namespace}/${m.pod}${m.node ? ` on ${m.node}` : ''}`).join(', ')}`
    : 'not mounted';

/** `list_storage` → GET /api/v1/clusters/{cluster}/storage. */
export function registerListStorageTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_storage',
    title: "List a cluster's storages",
    description:
      "A cluster's storages (S3, FSx for Lustre): claim name, data location, access, claim phase (Bound = mountable), pods mounting it; storages kept after removal; whether the CSI drivers are on.",
    input: z.object({ cluster: ClusterRefSchema, region: RegionSchema.optional() }).strict(),
    output: StorageListSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, region }, { api, signal }) {
      const v = await api.get<StorageList>(apiPath(STORAGE_PATHS.list, { name: cluster }), {
        query: { region },
        signal,
      });
      const lines = v.storages.map(
        (s) => `- ${s.namespace}/${s.name}: ${where(s)}, ${s.access}, claim ${s.claimPhase}, ${mounts(s)}`,
      );
      for (const k of v.kept)
        lines.push(
          `- ${k.namespace}/${k.name}: ${k.state} — ${k.dataName} kept${k.madeByInstantStart ? " (the cluster's delete keeps it)" : ''}; forget_kept_storage forgets it`,
        );
      const drivers = `S3 CSI driver ${v.drivers['s3-csi-driver'] ? 'on' : 'off'}; FSx CSI driver ${v.drivers['fsx-csi-driver'] ? 'on' : 'off'}.`;
      const text = [
        `Cluster ${cluster} has ${v.storages.length} storage${v.storages.length === 1 ? '' : 's'}.`,
        ...lines,
        drivers,
      ].join('\n');
      return { text, data: v };
    },
  });
}
