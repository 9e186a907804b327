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
  namespace: StorageNamespaceSchema.default('default').describe("The job's namespace; default: default."),
  job: TrainingJobNameSchema.describe("The job's name (from list_jobs)."),
  region: RegionSchema.optional(),
};

/** `get_job` → GET /api/v1/clusters/{cluster}/jobs/{namespace}/{job}. */
export function registerGetJobTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_job',
    title: 'Describe a training job',
    description:
      'Describe one training job as Kubernetes reports it now: phase and reason, the recovery budget (restarts used of allowed, process-level vs full-job restarts, the last fault with its ranks and instances), ' +
      'every rank (pod, node, instance id, phase, restarts, health), conditions and recent events. Use it to follow a job after submit_training_job, or to see why it restarted or failed.',
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
