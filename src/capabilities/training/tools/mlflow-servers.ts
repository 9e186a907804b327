import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { RegionSchema } from '../../../domain/schemas/common.js';
import { apiPath } from '../../../domain/api-path.js';
import {
  CreateMlflowServerRequestSchema,
  DeleteMlflowServerAnswerSchema,
  MlflowServerListSchema,
  MlflowTrackingServerNameSchema,
  MlflowTrackingServerViewSchema,
  type DeleteMlflowServerAnswer,
  type MlflowTrackingServerView,
} from '../../../domain/schemas/mlflow.js';
import { NextCallSchema } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { TRAINING_PATHS } from '../paths.js';

const line = (s: MlflowTrackingServerView) =>
  `- ${s.name}: ${s.status}${s.ready ? ' (ready)' : ''}${s.size ? `, ${s.size}` : ''} — ${s.arn}`;

/** `list_mlflow_servers` → GET /api/v1/mlflow/tracking-servers. */
export function registerListMlflowServersTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_mlflow_servers',
    title: 'List MLflow tracking servers',
    description:
      "The Region's SageMaker managed MLflow tracking servers and their status (Created = ready): the ARN submit_training_job's mlflow takes.",
    input: z.object({ region: RegionSchema.optional() }).strict(),
    output: MlflowServerListSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ region }, { api, signal }) {
      const list = await api.get<z.infer<typeof MlflowServerListSchema>>(TRAINING_PATHS.mlflowServers, {
        query: { region },
        signal,
      });
      return {
        text: list.servers.length
          ? `MLflow tracking servers in ${list.region}:\n${list.servers.map(line).join('\n')}`
          : `No MLflow tracking servers in ${list.region} (create one with create_mlflow_server).`,
        data: list,
      };
    },
  });
}

/** `create_mlflow_server` → POST /api/v1/mlflow/tracking-servers. */
export function registerCreateMlflowServerTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'create_mlflow_server',
    title: 'Create an MLflow tracking server',
    description:
      'Create a SageMaker managed MLflow tracking server (artifacts to S3); it costs money: ask first. NOT ready until Created (~20 min): call wait_for_mlflow_server until it is.',
    input: CreateMlflowServerRequestSchema.omit({ name: true })
      .extend({
        server: CreateMlflowServerRequestSchema.shape.name.describe(
          'Name of the new tracking server (part of its ARN).',
        ),
      })
      .strict(),
    output: MlflowTrackingServerViewSchema.extend({
      nextStep: z.string(),
      next: NextCallSchema.describe('The call to make next: wait_for_mlflow_server, until the server is Created.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    restFields: { name: 'server' },
    async run({ server: name, ...rest }, { api, signal }) {
      const s = await api.post<MlflowTrackingServerView>(TRAINING_PATHS.mlflowServers, {
        body: { ...rest, name },
        signal,
      });
      const next = {
        tool: 'wait_for_mlflow_server',
        arguments: { server: s.name, ...(rest.region ? { region: rest.region } : {}) },
      };
      const nextStep = `NOT ready yet (~20 minutes on AWS): call wait_for_mlflow_server with ${JSON.stringify(next.arguments)} until it reports Created.`;
      return {
        text: `Creating MLflow tracking server ${s.name} (${s.status}): ${s.arn}. ${nextStep}`,
        data: { ...s, nextStep, next },
      };
    },
  });
}

/** `delete_mlflow_server` → DELETE /api/v1/mlflow/tracking-servers/{server}?confirm=true. */
export function registerDeleteMlflowServerTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'delete_mlflow_server',
    title: 'Delete an MLflow tracking server',
    description:
      'Delete a managed MLflow tracking server with its experiments, runs and metrics (S3 artifacts stay). DESTRUCTIVE: get an explicit yes for this name, pass confirm: true; then wait_for_mlflow_server.',
    input: z
      .object({
        server: MlflowTrackingServerNameSchema,
        region: RegionSchema.optional(),
        confirm: z
          .literal(true, 'must be true: set it only after the user confirmed deleting this tracking server by name')
          .describe("true, after the user's yes."),
      })
      .strict(),
    output: DeleteMlflowServerAnswerSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    async run({ server: name, region }, { api, signal }) {
      const answer = await api.delete<DeleteMlflowServerAnswer>(
        apiPath(TRAINING_PATHS.mlflowServer, { server: name }),
        { query: { confirm: 'true', region }, signal },
      );
      if (!answer.deleted)
        return {
          text: `There is no MLflow tracking server ${name} in ${answer.region} (already deleted?).`,
          data: answer,
        };
      const unlinked = answer.unlinkedClusters.length
        ? ` Unlinked from ${answer.unlinkedClusters.join(', ')} (their jobs report to no server by default now).`
        : '';
      const role = answer.deletedRole ? ` Deleted its role ${answer.deletedRole}.` : '';
      return {
        text: `Deleting MLflow tracking server ${name} (${answer.status ?? 'Deleting'}); wait_for_mlflow_server waits until SageMaker has removed it.${unlinked}${role}`,
        data: answer,
      };
    },
  });
}
