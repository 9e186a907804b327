import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import { StorageNamespaceSchema } from '../../../domain/schemas/storage.js';
import { TrainingJobListSchema, type TrainingJobList } from '../../../domain/schemas/training.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { TRAINING_PATHS } from '../paths.js';
import { jobLine } from './job-text.js';

/** `list_jobs` → GET /api/v1/clusters/{cluster}/jobs. */
export function registerListJobsTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_jobs',
    title: 'List training jobs',
    description:
      'List the training jobs of a cluster (HyperPodPyTorchJobs and RayJobs), newest first, read live from Kubernetes: phase, reason and the restarts used of the recovery budget. ' +
      "Kinds whose operator is off are named (turn the feature on with set_features). Use get_job for one job's ranks, recovery budget and events.",
    input: z
      .object({
        cluster: ClusterRefSchema.describe('Name of the cluster (from list_clusters).'),
        namespace: StorageNamespaceSchema.optional().describe('Only jobs of this namespace; default all.'),
        region: RegionSchema.optional(),
      })
      .strict(),
    output: TrainingJobListSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, namespace, region }, { api, signal }) {
      const list = await api.get<TrainingJobList>(apiPath(TRAINING_PATHS.jobs, { name: cluster }), {
        query: { namespace, region },
        signal,
      });
      const lines = list.jobs.map(jobLine);
      const off = list.notServed.map((n) => `${n.kind} is not served: ${n.installedBy}.`);
      const text = [
        lines.length
          ? `Training jobs of ${cluster}:\n${lines.join('\n')}`
          : `No training jobs on ${cluster}${namespace ? ` in ${namespace}` : ''} (submit one with submit_training_job).`,
        ...off,
      ].join('\n');
      return { text, data: list };
    },
  });
}
