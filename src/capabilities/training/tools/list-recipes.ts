import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { RecipeListSchema } from '../../../domain/schemas/training.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { TRAINING_PATHS } from '../paths.js';

/** `list_recipes` → GET /api/v1/training/recipes. */
export function registerListRecipesTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_recipes',
    title: 'List training recipes',
    description:
      'The training recipes (PyTorch hyperpodrun, LLaMA-Factory, MS-Swift, Megatron RLHF, VERL on Ray): kind, pinned image, parameters as JSON Schema. Use it before submit_training_job.',
    input: z.object({}).strict(),
    output: RecipeListSchema,
    annotations: { ...READ_ONLY, openWorldHint: false },
    async run(_args, { api, signal }) {
      const list = await api.get<z.infer<typeof RecipeListSchema>>(TRAINING_PATHS.recipes, { signal });
      const lines = list.recipes.map((r) => {
        const params = Object.keys((r.parameters as { properties?: Record<string, unknown> }).properties ?? {}).join(
          ', ',
        );
        return `- ${r.id} (${r.kind}): ${r.title} — params: ${params}`;
      });
      return {
        text: `Training recipes:\n${lines.join('\n')}\nSubmit one with submit_training_job (recipe + params).`,
        data: list,
      };
    },
  });
}
