import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import {
  ChatMessageSchema,
  InvokeEndpointAnswerSchema,
  type InvokeEndpointAnswer,
} from '../../../domain/schemas/inference.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { INFERENCE_PATHS } from '../paths.js';
import { EndpointRefInput } from './endpoint-text.js';

/** Characters of generated text an MCP answer carries (the REST answer carries more): answers cost tokens. */
export const MCP_MAX_CONTENT = 4000;

/** `invoke_endpoint` → POST …/endpoints/{namespace}/{endpoint}/invoke (not streamed). */
export function registerInvokeEndpointTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'invoke_endpoint',
    title: 'Try an inference endpoint',
    description:
      'An OpenAI-style chat completion sent to a Ready endpoint through the Kubernetes service proxy: text (≤ 4000 characters), finish reason, usage, latency, the pod that answered.',
    input: z
      .object({
        ...EndpointRefInput,
        messages: z
          .array(ChatMessageSchema)
          .min(1)
          .max(64)
          .describe('Chat messages, e.g. [{role: "user", content: "Hi"}].'),
        maxTokens: z.number().int().min(1).max(1024).default(256).describe('Most tokens to generate. Default 256.'),
        temperature: z.number().min(0).max(2).optional().describe('Sampling temperature.'),
      })
      .strict(),
    output: InvokeEndpointAnswerSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, namespace, endpoint, region, ...body }, { api, signal }) {
      const answer = await api.post<InvokeEndpointAnswer>(
        apiPath(INFERENCE_PATHS.endpointInvoke, { name: cluster, namespace, endpoint }),
        { body: { ...body, stream: false, ...(region ? { region } : {}) }, signal },
      );
      const bounded =
        answer.content.length > MCP_MAX_CONTENT
          ? { ...answer, content: answer.content.slice(0, MCP_MAX_CONTENT), truncated: true }
          : answer;
      const meta = `(${bounded.model}, ${bounded.finishReason ?? 'no finish reason'}, ${bounded.latencyMs} ms${bounded.servedBy ? `, served by ${bounded.servedBy}` : ''}${bounded.truncated ? ', truncated' : ''})`;
      return { text: `${bounded.content}\n${meta}`, data: bounded };
    },
  });
}
