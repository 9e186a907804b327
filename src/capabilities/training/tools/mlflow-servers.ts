import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { RegionSchema } from '../../../domain/schemas/common.js';
import { CreateMlflowServerRequestSchema, MlflowServerListSchema, MlflowTrackingServerViewSchema, type MlflowTrackingServerView } from '../../../domain/schemas/mlflow.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { TRAINING_PATHS } from '../paths.js';

const line = (s: MlflowTrackingServerView) => `- ${s.name}: ${s.status}${s.ready ? ' (ready)' : ''}${s.size ? `, ${s.size}` : ''} — ${s.arn}`;

/** `list_mlflow_servers` → GET /api/v1/mlflow/tracking-servers. */
export function registerListMlflowServersTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_mlflow_servers',
    title: 'List MLflow tracking servers',
    description:
      'List the Region\'s SageMaker managed MLflow tracking servers with their status (Creating takes ~20 minutes; ready once Created). Use it to find the ARN a training job reports to ' +
      '(submit_training_job mlflow.trackingServerArn), or to follow create_mlflow_server.',
    input: z.object({ region: RegionSchema.optional() }).strict(),
    output: MlflowServerListSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ region }, { api, signal }) {
      const list = await api.get<z.infer<typeof MlflowServerListSchema>>(TRAINING_PATHS.mlflowServers, { query: { region }, signal });
      return { text: list.servers.length ? `MLflow tracking servers in ${list.region}:\n${list.servers.map(line).join('\n')}` : `No MLflow tracking servers in ${list.region} (create one with create_mlflow_server).`, data: list };
    },
  });
}

/** `create_mlflow_server` → POST /api/v1/mlflow/tracking-servers. */
export function registerCreateMlflowServerTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'create_mlflow_server',
    title: 'Create an MLflow tracking server',
    description:
      'Create a SageMaker managed MLflow tracking server whose artifacts go to an S3 URI. It answers at once with the server Creating; it is NOT ready until its status is Created (~20 minutes): ' +
      'follow it with list_mlflow_servers. Jobs submitted meanwhile log nothing until it is ready. It costs money while it exists: ask the user before creating one.',
    input: CreateMlflowServerRequestSchema.omit({ name: true }).extend({ server: CreateMlflowServerRequestSchema.shape.name.describe('Name of the new tracking server (part of its ARN).') }).strict(),
    output: MlflowTrackingServerViewSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    restFields: { name: 'server' },
    async run({ server: name, ...rest }, { api, signal }) {
      const s = await api.post<MlflowTrackingServerView>(TRAINING_PATHS.mlflowServers, { body: { ...rest, name }, signal });
      return { text: `Creating MLflow tracking server ${s.name} (${s.status}): ${s.arn}. Not ready yet — follow it with list_mlflow_servers until Created.`, data: s };
    },
  });
}
