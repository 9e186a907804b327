import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RestClient } from '../../../mcp/rest-client.js';
import { ServerConfigViewSchema } from '../../../domain/schemas/config.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { SYSTEM_PATHS } from '../paths.js';

const ServerConfigSchema = ServerConfigViewSchema.extend({
  cloud: ServerConfigViewSchema.shape.cloud.describe(
    '"sandbox" (a local simulated cloud: nothing is billed) or "aws" (real resources, real cost).',
  ),
});

/** `get_server_info` → GET /api/v1/config. */
export function registerGetServerInfoTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_server_info',
    title: 'Describe the InstantStart server',
    description:
      'Which cloud the server acts on (sandbox: a local simulation; aws: real, billed), its default region, account and version. Call it once at the start of a session.',
    input: z.object({}).strict(),
    output: ServerConfigSchema,
    annotations: { ...READ_ONLY, openWorldHint: false },
    async run(_args, { api, signal }) {
      const config = await api.get<z.infer<typeof ServerConfigSchema>>(SYSTEM_PATHS.config, { signal });
      const where =
        config.cloud === 'sandbox'
          ? 'the local sandbox cloud (simulated, no cost)'
          : config.accountId
            ? `AWS account ${config.accountId} (real resources)`
            : 'AWS (account not known yet)';
      const problem = config.cloudAccess.problem;
      // Without usable credentials every other tool answers 503: say why and what the user must do first.
      const access = problem
        ? ` It cannot act on its cloud yet (${problem.code}): ${problem.message} ${problem.remedy}`
        : '';
      return {
        text: `InstantStart ${config.version} on ${where}; default region ${config.region}.${access}`,
        data: config,
      };
    },
  });
}
