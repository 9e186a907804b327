import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { DeleteTrainingJobAnswerSchema } from '../../../domain/schemas/training.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { TRAINING_PATHS } from '../paths.js';
import { JobRefInput } from './get-job.js';

/** `delete_job` → DELETE /api/v1/clusters/{cluster}/jobs/{namespace}/{job}?confirm=true. */
export function registerDeleteJobTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'delete_job',
    title: 'Delete a training job',
    description:
      "Delete a training job and its pods (a RayJob's Ray cluster too); files under /data stay. DESTRUCTIVE: show get_job, get an explicit yes for this name, pass confirm: true.",
    input: z
      .object({
        ...JobRefInput,
        confirm: z
          .literal(true, 'must be true: set it only after the user confirmed deleting this job by name')
          .describe("true, after the user's yes."),
      })
      .strict(),
    output: DeleteTrainingJobAnswerSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    async run({ cluster, namespace, job, region }, { api, signal }) {
      const answer = await api.delete<z.infer<typeof DeleteTrainingJobAnswerSchema>>(
        apiPath(TRAINING_PATHS.job, { name: cluster, namespace, job }),
        { query: { confirm: 'true', region }, signal },
      );
      return {
        text: answer.deleted
          ? `Deleted ${answer.kind} ${namespace}/${job} and its pods.`
          : `${namespace}/${job} was already gone.`,
        data: answer,
      };
    },
  });
}
