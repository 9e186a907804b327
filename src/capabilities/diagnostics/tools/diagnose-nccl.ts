import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { DiagnosisSchema, type Diagnosis } from '../../../domain/schemas/diagnostics.js';
import { StorageNamespaceSchema } from '../../../domain/schemas/storage.js';
import { TrainingJobNameSchema } from '../../../domain/schemas/training.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { DIAGNOSTICS_PATHS } from '../paths.js';
import { diagnosisText } from './diagnosis-text.js';

/** `diagnose_nccl` → GET /api/v1/clusters/{cluster}/diagnostics/jobs/{namespace}/{job}/nccl. */
export function registerDiagnoseNcclTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'diagnose_nccl',
    title: 'Diagnose NCCL of a training job',
    description:
      "Why a training job's NCCL hangs, times out or is slow: the ranks' NCCL lines, EFA settings and devices against the instance type, the security group's self rule, zones. Read-only: fixes are suggested.",
    input: z
      .object({
        cluster: ClusterRefSchema,
        job: TrainingJobNameSchema.describe("The job's name (from list_jobs)."),
        namespace: StorageNamespaceSchema.default('default').describe("The job's namespace."),
        region: RegionSchema.optional(),
      })
      .strict(),
    output: DiagnosisSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, job, namespace, region }, { api, signal }) {
      const data = await api.get<Diagnosis>(apiPath(DIAGNOSTICS_PATHS.nccl, { name: cluster, namespace, job }), {
        query: { region },
        signal,
      });
      return { text: diagnosisText(data), data };
    },
  });
}
