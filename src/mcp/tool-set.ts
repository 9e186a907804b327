import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { confirmsByElicitation, elicitingAsker, type ConfirmAsker } from './confirm-by-elicitation.js';
import { listedAnnotations, listedInputSchema, listedOutputSchema } from './listed-schema.js';
import type { RestClient } from './rest-client.js';
import { errorResult, runRestTool, ToolCollector, type AnyRestToolSpec, type ToolExtra } from './tool-kit.js';

/** What a tool file exports: registers its tool(s) on `server` (tool-kit.ts → registerRestTool). */
export type ToolRegistration = (server: McpServer, api: RestClient) => void;

/**
 * Every tool, built once per process: the specs, and the `tools/list` answer with each schema already
 * turned into JSON Schema (the SDK's McpServer converts every schema on every `tools/list`, and an
 * HTTP exchange used to build a whole McpServer with every tool first). An MCP exchange then costs a
 * bare protocol `Server` with two handlers that read this set.
 *
 * Behaves as McpServer's tools do: arguments are checked against the input schema before the tool
 * runs (a refusal is an `isError` result naming the fields), an unknown tool is an `isError` result,
 * and answers pass the output schema (tool-kit.ts → runRestTool).
 *
 * @example
 * const tools = new McpToolSet(CAPABILITY_TOOLS);
 * const server = new Server(info, { capabilities: { tools: {} } });
 * tools.serve(server, new RestClient({ baseUrl }));
 */
export class McpToolSet {
  private readonly specs = new Map<string, AnyRestToolSpec>();
  /** The `tools/list` answer, in registration order. */
  readonly definitions: readonly Tool[];

  constructor(registrations: readonly ToolRegistration[]) {
    const collector = new ToolCollector();
    // Specs never use the registration's client: each call gets its caller's (ToolContext.api).
    for (const register of registrations) register(collector, undefined as never);
    for (const spec of collector.specs) {
      if (this.specs.has(spec.name)) throw new Error(`Two MCP tools are named ${spec.name}.`);
      this.specs.set(spec.name, spec);
    }
    this.definitions = Object.freeze(collector.specs.map(definitionOf));
  }

  get names(): string[] {
    return [...this.specs.keys()];
  }

  /** The tool whose arguments a tool takes word for word (RestToolSpec.argumentsOf), if any. */
  argumentsOf(name: string): string | undefined {
    return this.specs.get(name)?.argumentsOf;
  }

  /** True when `name` is a tool that holds its answer (RestToolSpec.holdsAnswer). */
  holdsAnswer(name: string): boolean {
    return this.specs.get(name)?.holdsAnswer === true;
  }

  /**
   * Answers `tools/list` and `tools/call` on `server`, calling the REST API through `api`. With `canAsk` (a transport
   * that carries requests to the client: stdio), a destructive tool asks the user through elicitation when the client
   * supports it (confirm-by-elicitation.ts).
   */
  serve(server: Server, api: RestClient, options: { canAsk?: boolean } = {}): void {
    const list = { tools: this.definitions as Tool[] };
    server.setRequestHandler(ListToolsRequestSchema, () => list);
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      this.call(
        request.params.name,
        request.params.arguments,
        api,
        extra,
        options.canAsk ? elicitingAsker(server) : undefined,
      ),
    );
  }

  /** One `tools/call`. */
  async call(
    name: string,
    args: unknown,
    api: RestClient,
    extra: ToolExtra,
    ask?: ConfirmAsker,
  ): Promise<CallToolResult> {
    const spec = this.specs.get(name);
    if (!spec) return errorResult(`Tool ${name} not found. Call tools/list for the tools of this server.`);
    const parsed = spec.input.safeParse(args ?? {});
    if (!parsed.success) {
      const lines = parsed.error.issues.map(
        (issue: { path: PropertyKey[]; message: string }) =>
          `- ${issue.path.map(String).join('.') || '(arguments)'}: ${issue.message}`,
      );
      return errorResult(
        `Input validation error: Invalid arguments for tool ${name}:\n${lines.join('\n')}\nNothing was sent to the server; fix the named fields and call again.`,
      );
    }
    if (ask && confirmsByElicitation(spec)) {
      const answer = await ask(spec, parsed.data as Record<string, unknown>);
      if (!answer.confirmed) return errorResult(`${name} was not run: ${answer.why}. Nothing was changed.`);
      return runRestTool(spec, { ...(parsed.data as Record<string, unknown>), confirm: true }, api, extra);
    }
    return runRestTool(spec, parsed.data, api, extra);
  }
}

/**
 * The `tools/list` entry of one tool: its schemas in their listed form (listed-schema.ts: what an agent needs to
 * call it; the server validates with the full zod schemas). The title is sent once, as the tool's; no
 * `execution` (its default, `taskSupport: forbidden`, is what these tools do: each call answers in its request).
 */
function definitionOf(spec: AnyRestToolSpec): Tool {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: listedInputSchema(toJsonSchemaCompat(spec.input, { strictUnions: true, pipeStrategy: 'input' }), {
      describeFields: spec.argumentsOf === undefined,
    }) as Tool['inputSchema'],
    ...(spec.output
      ? {
          outputSchema: listedOutputSchema(
            toJsonSchemaCompat(spec.output, { strictUnions: true, pipeStrategy: 'output' }),
          ) as Tool['outputSchema'],
        }
      : {}),
    annotations: listedAnnotations(spec.annotations),
  };
}
