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
      'Submit a training job on one instance group of a cluster: a recipe (from list_recipes, with its params) or a custom container; the storage (from list_storage) is mounted at /data in every pod. ' +
      'HyperPodPyTorchJob workers start through the HyperPod elastic agent (hyperpodrun): the recipes install it when their image lacks it; a custom image must contain it (pip install hyperpod-elastic-agent), ' +
      "give custom.command as the training script (launch hyperpodrun, the default) — without the agent the operator's restarts and log rules do nothing. " +
      'It is created at once (HyperPodPyTorchJob, or RayJob for VERL) and answered with the job, Pending until its pods run: the answer names wait_for_job (until Running, Succeeded or Failed) to call next, ' +
      'then get_job_logs. Refusals create nothing and name the field: ' +
      'a job name used in the namespace (409 on job), the operator feature off (turn it on with set_features), elastic on a spot group or with tiered checkpointing on, an unknown group or storage. ' +
      "With mlflow (or the cluster's default tracking server) metrics go to MLflow: read them with get_job_metrics.",
    input: SubmitTrainingJobShape.omit({ name: true, instanceGroup: true })
      .extend({
        cluster: ClusterRefSchema.describe('Name of the cluster (from list_clusters).'),
        job: TrainingJobNameSchema,
        group: InstanceGroupNameSchema.describe(
          'The instance group the pods run on (from list_instance_groups); GPUs and EFA per pod follow from its instance type.',
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
