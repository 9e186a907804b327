import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RestClient } from '../rest-client.js';
import { READ_ONLY, registerRestTool } from '../tool-kit.js';

const ServerConfigSchema = z.object({
  cloud: z.string().describe('"sandbox" (a local simulated cloud: nothing is billed) or "aws" (real resources, real cost).'),
  region: z.string().describe('The default region of every call that omits region.'),
  accountId: z.string(),
  version: z.string(),
});

/** `get_server_info` → GET /api/v1/config. */
export function registerGetServerInfoTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_server_info',
    title: 'Describe the InstantStart server',
    description:
      'Read which cloud the InstantStart server acts on ("sandbox" = local simulation, "aws" = real, billed resources), its default region, ' +
      'account and version. Call it once at the start of a session: it tells you the region that calls without region use, and whether a create costs money.',
    input: z.object({}).strict(),
    output: ServerConfigSchema,
    annotations: { ...READ_ONLY, openWorldHint: false },
    async run(_args, { api, signal }) {
      const config = await api.get<z.infer<typeof ServerConfigSchema>>('/api/v1/config', { signal });
      const where = config.cloud === 'sandbox' ? 'the local sandbox cloud (simulated, no cost)' : `AWS account ${config.accountId} (real resources)`;
      return { text: `InstantStart ${config.version} on ${where}; default region ${config.region}.`, data: config };
    },
  });
}
