import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { RegionSchema } from '../../../domain/schemas/common.js';
import {
  MLFLOW_TRANSITIONAL_STATUSES,
  MlflowTrackingServerNameSchema,
  MlflowTrackingServerViewSchema,
  type MlflowTrackingServerView,
} from '../../../domain/schemas/mlflow.js';
import { pollUntil } from '../../../mcp/poll-rest.js';
import { RestApiError, type RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { TRAINING_PATHS } from '../paths.js';
import { WaitTimeoutSchema } from './wait-for-job.js';

/** Each read is a DescribeMlflowTrackingServer on AWS (a create takes ~20 minutes): pauses grow to 15 s. */
const FIRST_PAUSE_MS = 2_000;
const MAX_PAUSE_MS = 15_000;

const transitional = (status: string) => (MLFLOW_TRANSITIONAL_STATUSES as readonly string[]).includes(status);

const OutputSchema = z.object({
  settled: z
    .boolean()
    .describe(
      'True when the server left its Creating/Updating/Starting/Stopping/Deleting/MaintenanceInProgress status (or, after Deleting, is gone).',
    ),
  gone: z.boolean().describe('True when the server was Deleting and SageMaker has removed it.'),
  status: z.string().describe('Its status at the last read (Gone once removed).'),
  ready: z.boolean().describe('Whether jobs can log to it now.'),
  waitedSeconds: z.number(),
  nextStep: z.string(),
  next: z
    .object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) })
    .optional()
    .describe('The call to make next.'),
  server: MlflowTrackingServerViewSchema.optional().describe('The server at the last read (absent once gone).'),
});

type Read = { view: MlflowTrackingServerView } | { gone: true };

/** `wait_for_mlflow_server` → GET /api/v1/mlflow/tracking-servers/{server}, read until its status settles or time is up. */
export function registerWaitForMlflowServerTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'wait_for_mlflow_server',
    title: 'Wait for an MLflow tracking server',
    description:
      'The status tool of create_ and delete_mlflow_server: blocks until the server leaves a transitional status (Created, CreateFailed, gone) or timeoutSeconds pass; NOT settled: call it again.',
    input: z
      .object({
        server: MlflowTrackingServerNameSchema,
        region: RegionSchema.optional(),
        timeoutSeconds: WaitTimeoutSchema,
      })
      .strict(),
    output: OutputSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    holdsAnswer: true,
    async run({ server: name, region, timeoutSeconds }, ctx) {
      const path = apiPath(TRAINING_PATHS.mlflowServer, { server: name });
      let seen = false;
      const read = async (signal: AbortSignal): Promise<Read> => {
        try {
          const view = await ctx.api.get<MlflowTrackingServerView>(path, { query: { region }, signal });
          seen = true;
          return { view };
        } catch (err) {
          // Gone after it was seen (Deleting ends so); a name never seen is the caller's mistake, answered as the 404
          // it is.
          if (seen && err instanceof RestApiError && err.status === 404) return { gone: true };
          throw err;
        }
      };
      const waited = await pollUntil(ctx, {
        read,
        settled: (r) => 'gone' in r || !transitional(r.view.status),
        describe: (r) =>
          'gone' in r ? `MLflow tracking server ${name} is gone` : `MLflow tracking server ${name} is ${r.view.status}`,
        timeoutSeconds,
        firstPauseMs: FIRST_PAUSE_MS,
        maxPauseMs: MAX_PAUSE_MS,
      });
      const again = { server: name, ...(region ? { region } : {}) };
      const r = waited.value;
      if ('gone' in r) {
        const nextStep = `MLflow tracking server ${name} is gone (SageMaker removed it after ${waited.waitedSeconds} s).`;
        return {
          text: nextStep,
          data: {
            settled: true,
            gone: true,
            status: 'Gone',
            ready: false,
            waitedSeconds: waited.waitedSeconds,
            nextStep,
          },
        };
      }
      const s = r.view;
      const { nextStep, next } = !waited.settled
        ? {
            nextStep: `NOT settled yet: ${s.status} after ${waited.waitedSeconds} s. Call wait_for_mlflow_server again with the same arguments.`,
            next: { tool: 'wait_for_mlflow_server', arguments: again },
          }
        : s.ready
          ? {
              nextStep: `${s.status}: ready — jobs can report to it (submit_training_job mlflow.trackingServerArn ${s.arn}).`,
              next: undefined,
            }
          : {
              nextStep: `${s.status}: not ready for jobs${/Failed$/.test(s.status) ? ' — SageMaker could not finish the change; see list_mlflow_servers and the AWS console for why' : ''}.`,
              next: { tool: 'list_mlflow_servers', arguments: region ? { region } : {} },
            };
      return {
        text: `MLflow tracking server ${s.name}: ${nextStep}`,
        data: {
          settled: waited.settled,
          gone: false,
          status: s.status,
          ready: s.ready,
          waitedSeconds: waited.waitedSeconds,
          nextStep,
          next,
          server: s,
        },
      };
    },
  });
}
