import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ClusterSummarySchema, type ClusterSummary } from '../../../domain/schemas/clusters.js';
import { RegionSchema } from '../../../domain/schemas/common.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { CLUSTER_PATHS } from '../paths.js';

/** `list_clusters` → GET /api/v1/clusters. The first call of every create (check before create). */
export function registerListClustersTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_clusters',
    title: 'List HyperPod clusters',
    description:
      "A Region's HyperPod clusters, with those an InstantStart operation is creating or deleting. Call it FIRST (check before create: the user may have one; a new name must be free).",
    input: z.object({ region: RegionSchema.optional() }).strict(),
    output: z.object({ clusters: z.array(ClusterSummarySchema) }),
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ region }, { api, signal }) {
      const data = await api.get<{ clusters: ClusterSummary[] }>(CLUSTER_PATHS.list, { query: { region }, signal });
      const lines = data.clusters.map((c) => {
        const op = c.activeOperation
          ? ` — operation ${c.activeOperation.id} (${c.activeOperation.kind}, ${c.activeOperation.status})`
          : '';
        const health =
          c.health && c.health.state !== 'healthy' ? ` — health ${c.health.state}: ${c.health.summary}` : '';
        return `- ${c.name} (${c.region}): ${c.status}${c.managedByInstantStart ? '' : ' [not created by InstantStart]'}${health}${op}`;
      });
      const text =
        data.clusters.length === 0
          ? 'No HyperPod clusters in this region.'
          : `${data.clusters.length} cluster(s):\n${lines.join('\n')}`;
      return { text, data };
    },
  });
}
