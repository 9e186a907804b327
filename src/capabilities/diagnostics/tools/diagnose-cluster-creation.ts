import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { DiagnosisSchema, type Diagnosis } from '../../../domain/schemas/diagnostics.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { DIAGNOSTICS_PATHS } from '../paths.js';
import { diagnosisText } from './diagnosis-text.js';

/** `diagnose_cluster_creation` → GET /api/v1/clusters/{cluster}/diagnostics/creation. */
export function registerDiagnoseClusterCreationTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'diagnose_cluster_creation',
    title: 'Diagnose a cluster create',
    description:
      'Why a create-cluster failed (default: the newest): failed phase, error, cause with evidence (quota, capacity, IAM trust, subnet space, add-on version), leftovers, fix as suggested commands. Read-only.',
    input: z
      .object({
        cluster: ClusterRefSchema,
        operationId: z.string().min(1).max(64).optional().describe('A create-cluster operation of the cluster.'),
        region: RegionSchema.optional(),
      })
      .strict(),
    output: DiagnosisSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, operationId, region }, { api, signal }) {
      const data = await api.get<Diagnosis>(apiPath(DIAGNOSTICS_PATHS.clusterCreation, { name: cluster }), {
        query: { region, operationId },
        signal,
      });
      return { text: diagnosisText(data), data };
    },
  });
}
