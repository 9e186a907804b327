import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CAPABILITY_TOOLS } from '../capabilities/index.js';
import { McpContentSet } from './content-set.js';
import { SHARED_FIELDS } from './listed-schema.js';
import { RestClient } from './rest-client.js';
import { toolsOfGroups, type ToolGroup } from './tool-groups.js';
import { McpToolSet } from './tool-set.js';

export interface McpServerOptions {
  /** Root URL of the InstantStart REST API, e.g. `http://127.0.0.1:3099`. */
  baseUrl: string;
  /** The caller's API token, forwarded as `Authorization: Bearer …` on every REST call. */
  token?: string;
  /** Server version reported to MCP clients. */
  version?: string;
  /** For tests: a fetch to use instead of the global one. */
  fetch?: typeof fetch;
  /** The tools to serve; default: every capability's, built once per process ({@link capabilityTools}). */
  tools?: McpToolSet;
  /** The prompts and resources to serve; default: the package's, built once per process ({@link packageContent}). */
  content?: McpContentSet;
  /** The transport carries requests to the client (stdio), so destructive tools may ask the user (elicitation). */
  canAsk?: boolean;
  /** The MCP client's name when it did not initialize this server (stateless HTTP: the request's User-Agent). */
  clientHint?: string;
}

let everyTool: McpToolSet | undefined;
/** One tool set per combination of groups asked for (at most 2³ of them), built on first use. */
const groupTools = new Map<string, McpToolSet>();
let everyPromptAndResource: McpContentSet | undefined;
/**
 * The protocol server builds a JSON Schema validator (Ajv) unless given one, which was most of the cost
 * of an exchange; it only checks elicitation answers, which these tools never ask for. One serves all.
 */
let validator: AjvJsonSchemaValidator | undefined;

/**
 * Every capability's tools (the tools/ folder of each capability), or those of some tool groups (tool-groups.ts),
 * built on first use and then shared.
 */
export function capabilityTools(groups?: readonly ToolGroup[]): McpToolSet {
  if (!groups) {
    everyTool ??= new McpToolSet(CAPABILITY_TOOLS);
    return everyTool;
  }
  const key = groups.join(',');
  let set = groupTools.get(key);
  if (!set) groupTools.set(key, (set = new McpToolSet(toolsOfGroups(groups))));
  return set;
}

/** The playbooks as prompts, the docs, OpenAPI document and operation logs as resources, read on first use and then shared. */
export function packageContent(): McpContentSet {
  everyPromptAndResource ??= new McpContentSet();
  return everyPromptAndResource;
}

/**
 * Sent to clients at initialize; many show it to the model as standing instructions, in every
 * conversation: a few lines. The workflow rules live in the tool descriptions and the playbooks.
 */
export const SERVER_INSTRUCTIONS = `InstantStart manages SageMaker HyperPod clusters on Amazon EKS; each tool is one call to its REST API, which checks every input and your token's rights.
Playbooks for whole workflows (create a cluster, heal a node, storage, training, serving…) are its prompts; the docs, OpenAPI document and operation logs its resources.
A mutating tool answers before the work is done: poll with the tool its answer names (wait_for_operation, wait_for_job…) until the status is terminal.
Arguments many tools share (a tool that creates one takes its new name): ${[...SHARED_FIELDS].map(([field, meaning]) => `${field} is ${meaning}`).join('; ')}.`;

/**
 * An MCP server whose tools are REST calls to `baseUrl` with the caller's token, whose prompts are the
 * playbooks (playbooks.ts) and whose resources are the docs, the OpenAPI document and operation logs
 * (resources.ts). Cheap to build (the tool set and the content set are built once per process), so
 * streamable HTTP builds one per exchange. It owns no transport: connect it to stdio (stdio.ts) or
 * streamable HTTP (http.ts) — both serve this same server.
 *
 * @example
 * const server = createMcpServer({ baseUrl: 'http://127.0.0.1:3099' });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer({
  baseUrl,
  token,
  version = '0.1.0',
  fetch,
  tools = capabilityTools(),
  content = packageContent(),
  canAsk = false,
  clientHint,
}: McpServerOptions): Server {
  const server = new Server(
    { name: 'instantstart', title: 'InstantStart (SageMaker HyperPod on EKS)', version },
    // The lists never change while a server runs: no listChanged notifications.
    {
      capabilities: { tools: {} },
      instructions: SERVER_INSTRUCTIONS,
      jsonSchemaValidator: (validator ??= new AjvJsonSchemaValidator()),
    },
  );
  // Every tool's REST call says it came through MCP, and from which MCP client (the name it gave at initialize; on
  // stateless HTTP, where each exchange is a new server, the User-Agent of the MCP request): docs/AUDIT.md.
  const face = { face: 'mcp' as const, client: () => server.getClientVersion()?.name ?? clientHint };
  const api = new RestClient({ baseUrl, token, fetch, face });
  tools.serve(server, api, { canAsk });
  content.serve(server, api);
  return server;
}
