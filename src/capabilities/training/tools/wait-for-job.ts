import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import {
  TrainingJobViewSchema,
  TrainingPhaseSchema,
  type TrainingJobView,
  type TrainingPhase,
} from '../../../domain/schemas/training.js';
import { pollUntil } from '../../../mcp/poll-rest.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { TRAINING_PATHS } from '../paths.js';
import { JobRefInput } from './get-job.js';
import { jobText } from './job-text.js';

/** A job in one of these never moves again: a wait ends there whatever it waited for. */
const FINAL_PHASES: readonly TrainingPhase[] = ['Succeeded', 'Failed'];
const DEFAULT_UNTIL: TrainingPhase[] = ['Running', 'Succeeded', 'Failed'];

/** Kubernetes reads are cheap: the first pauses are short so a job that starts at once is seen at once. */
const FIRST_PAUSE_MS = 1_000;
const MAX_PAUSE_MS = 5_000;

export const WaitTimeoutSchema = z
  .number()
  .min(0)
  .max(300)
  .default(50)
  .describe(
    'Seconds to block at most. Many MCP clients abort a tool call after 60 s, so keep the default unless your client allows longer calls; ' +
      'calling again costs nothing.',
  );

const InputSchema = z
  .object({
    ...JobRefInput,
    until: z
      .array(TrainingPhaseSchema)
      .min(1)
      .default(DEFAULT_UNTIL)
      .describe(
        'The phases to wait for; ["Succeeded", "Failed"] waits for the end. The default (Running, Succeeded, Failed) ' +
          'waits for a start or an end. The wait also ends on Succeeded or Failed, which no job leaves.',
      ),
    timeoutSeconds: WaitTimeoutSchema,
  })
  .strict();

const OutputSchema = z.object({
  reached: z.boolean().describe('True when the job is in one of the phases waited for.'),
  phase: TrainingPhaseSchema,
  until: z.array(TrainingPhaseSchema),
  waitedSeconds: z.number(),
  nextStep: z.string(),
  next: z
    .object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) })
    .optional()
    .describe('The call to make next.'),
  job: TrainingJobViewSchema,
});

/** `wait_for_job` → GET /api/v1/clusters/{cluster}/jobs/{namespace}/{job}, read until the job reaches a phase or time is up. */
export function registerWaitForJobTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'wait_for_job',
    title: 'Wait for a training job',
    description:
      'The status tool of submit_training_job: blocks until the job reaches a phase in until (default Running, Succeeded, Failed) or timeoutSeconds pass; NOT there yet: call it again. On Failed: get_job_logs.',
    input: InputSchema,
    output: OutputSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    holdsAnswer: true,
    async run({ cluster, namespace, job, region, until, timeoutSeconds }, ctx) {
      const path = apiPath(TRAINING_PATHS.job, { name: cluster, namespace, job });
      const waited = await pollUntil(ctx, {
        read: (signal) => ctx.api.get<TrainingJobView>(path, { query: { region }, signal }),
        settled: (v) => until.includes(v.phase) || FINAL_PHASES.includes(v.phase),
        describe: (v) => `job ${namespace}/${job} is ${v.phase}${v.pending ? ` (${v.pending})` : ''}`,
        timeoutSeconds,
        firstPauseMs: FIRST_PAUSE_MS,
        maxPauseMs: MAX_PAUSE_MS,
      });
      const view = waited.value;
      const reached = until.includes(view.phase);
      const again = { cluster, namespace, job, ...(region ? { region } : {}), until };
      const { nextStep, next } = reached
        ? { nextStep: `Reached ${view.phase} after ${waited.waitedSeconds} s.`, next: undefined }
        : FINAL_PHASES.includes(view.phase)
          ? {
              nextStep: `The job ended ${view.phase} without reaching ${until.join(' or ')}: read why with get_job_logs.`,
              next: { tool: 'get_job_logs', arguments: { cluster, namespace, job, ...(region ? { region } : {}) } },
            }
          : {
              nextStep: `NOT there yet: ${view.phase} after ${waited.waitedSeconds} s. Call wait_for_job again with the same arguments.`,
              next: { tool: 'wait_for_job', arguments: again },
            };
      return {
        text: `${nextStep}\n${jobText(view)}`,
        data: { reached, phase: view.phase, until, waitedSeconds: waited.waitedSeconds, nextStep, next, job: view },
      };
    },
  });
}
