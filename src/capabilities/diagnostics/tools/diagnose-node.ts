import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { DiagnosisSchema, type Diagnosis } from '../../../domain/schemas/diagnostics.js';
import { NodeIdSchema } from '../../../domain/schemas/nodes.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { DIAGNOSTICS_PATHS } from '../paths.js';
import { diagnosisText } from './diagnosis-text.js';

/** `diagnose_node` → GET /api/v1/clusters/{cluster}/diagnostics/nodes/{node}. */
export function registerDiagnoseNodeTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'diagnose_node',
    title: 'Diagnose a node',
    description:
      "A node's health with evidence (status, labels, deep health check, conditions, events, pods, past actions) and its place on investigate → reboot → replace. Read-only: it suggests, the user approves.",
    input: z.object({ cluster: ClusterRefSchema, node: NodeIdSchema, region: RegionSchema.optional() }).strict(),
    output: DiagnosisSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, node, region }, { api, signal }) {
      const data = await api.get<Diagnosis>(apiPath(DIAGNOSTICS_PATHS.node, { name: cluster, node }), {
        query: { region },
        signal,
      });
      return { text: diagnosisText(data), data };
    },
  });
}
