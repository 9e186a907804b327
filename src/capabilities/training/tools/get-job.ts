import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { StorageNamespaceSchema } from '../../../domain/schemas/storage.js';
import {
  TrainingJobNameSchema,
  TrainingJobViewSchema,
  type TrainingJobView,
} from '../../../domain/schemas/training.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { TRAINING_PATHS } from '../paths.js';
import { jobText } from './job-text.js';

/** The inputs naming one job, shared by the job tools. */
export const JobRefInput = {
  cluster: ClusterRefSchema.describe('Name of the cluster (from list_clusters).'),
  namespace: StorageNamespaceSchema.default('default').describe("The job's namespace."),
  job: TrainingJobNameSchema.describe("The job's name (from list_jobs)."),
  region: RegionSchema.optional(),
};

/** `get_job` → GET /api/v1/clusters/{cluster}/jobs/{namespace}/{job}. */
export function registerGetJobTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_job',
    title: 'Describe a training job',
    description:
      'One training job now: phase, reason, recovery budget (restarts, last fault), every rank (pod, node, phase, restarts, health), conditions and events: why it restarted or failed.',
    input: z.object(JobRefInput).strict(),
    output: TrainingJobViewSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, namespace, job, region }, { api, signal }) {
      const view = await api.get<TrainingJobView>(apiPath(TRAINING_PATHS.job, { name: cluster, namespace, job }), {
        query: { region },
        signal,
      });
      return { text: jobText(view), data: view };
    },
  });
}
