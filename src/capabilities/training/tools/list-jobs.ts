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
      "A cluster's training jobs (HyperPodPyTorchJobs, RayJobs), newest first, read live: phase, reason, restarts used of the recovery budget; kinds whose operator is off are named.",
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
