import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { ClusterRefSchema } from '../../../domain/schemas/common.js';
import { InstanceGroupNameSchema } from '../../../domain/schemas/instance-groups.js';
import {
  SubmitTrainingJobAnswerSchema,
  SubmitTrainingJobShape,
  TrainingJobNameSchema,
} from '../../../domain/schemas/training.js';
import { NextCallSchema } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { TRAINING_PATHS } from '../paths.js';
import { jobText } from './job-text.js';

/** `submit_training_job` → POST /api/v1/clusters/{cluster}/jobs. */
export function registerSubmitTrainingJobTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'submit_training_job',
    title: 'Submit a training job',
    description:
      'Submit a training job on one group: a recipe (list_recipes) or a custom container (its image needs the HyperPod elastic agent), with the storage at /data. Pending until its pods run: follow with wait_for_job, then get_job_logs.',
    input: SubmitTrainingJobShape.omit({ name: true, instanceGroup: true })
      .extend({
        cluster: ClusterRefSchema.describe('Name of the cluster (from list_clusters).'),
        job: TrainingJobNameSchema,
        group: InstanceGroupNameSchema.describe(
          'The instance group the pods run on (from list_instance_groups); GPUs and EFA per pod follow from its ' +
            'instance type.',
        ),
      })
      .strict(),
    output: SubmitTrainingJobAnswerSchema.extend({
      nextStep: z.string(),
      next: NextCallSchema.describe('The call to make next: wait_for_job with the job, until it runs or ends.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    restFields: { name: 'job', instanceGroup: 'group' },
    async run({ cluster, job, group, ...rest }, { api, signal }) {
      const answer = await api.post<z.infer<typeof SubmitTrainingJobAnswerSchema>>(
        apiPath(TRAINING_PATHS.jobs, { name: cluster }),
        { body: { ...rest, name: job, instanceGroup: group }, signal },
      );
      const saved = answer.template ? `\nSaved as template ${answer.template}.` : '';
      const next = {
        tool: 'wait_for_job',
        arguments: {
          cluster,
          namespace: answer.job.namespace,
          job: answer.job.name,
          ...(rest.region ? { region: rest.region } : {}),
        },
      };
      const nextStep = `Submitted, ${answer.job.phase}: NOT running yet until wait_for_job with ${JSON.stringify(next.arguments)} reports Running (or Succeeded/Failed).`;
      return { text: `${nextStep}\n${jobText(answer.job)}${saved}`, data: { ...answer, nextStep, next } };
    },
  });
}
