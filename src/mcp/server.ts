import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CAPABILITY_TOOLS } from '../capabilities/index.js';
import { RestClient } from './rest-client.js';
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
}

let everyTool: McpToolSet | undefined;
/**
 * The protocol server builds a JSON Schema validator (Ajv) unless given one, which was most of the cost
 * of an exchange; it only checks elicitation answers, which these tools never ask for. One serves all.
 */
let validator: AjvJsonSchemaValidator | undefined;

/** Every capability's tools (the tools/ folder of each capability), built on first use and then shared. */
export function capabilityTools(): McpToolSet {
  everyTool ??= new McpToolSet(CAPABILITY_TOOLS);
  return everyTool;
}

/** Sent to clients at initialize; many show it to the model as standing instructions. */
export const SERVER_INSTRUCTIONS = `InstantStart manages SageMaker HyperPod clusters on Amazon EKS through its REST API; these tools are thin REST calls and the server validates every input.
Rules:
1. Poll to a terminal state. Mutating tools return an operation that is NOT done: call wait_for_operation with its operationId until status is "succeeded", "failed" or "cancelled". submit_training_job and create_mlflow_server answer at once with a job or server that is not ready yet: call the tool their answer names next (wait_for_job, wait_for_mlflow_server). Never report "submitted" as done.
2. Ask only decision-relevant questions: availability zone, instance type, capacity type (on-demand, spot, training plan) and instance count. Never ask for CIDRs, subnets, route tables, security groups or IAM roles.
3. Check before create: list_clusters, list_availability_zones, list_instance_types (for the chosen zone), list_training_plans when a plan is wanted, then check_cluster_request; offer only what those list.
A failed phase is retried alone with retry_operation_phase after reading get_operation_logs. delete_cluster needs the user's explicit confirmation.`;

/**
 * An MCP server whose tools are REST calls to `baseUrl` with the caller's token. Cheap to build (the
 * tool set is shared), so streamable HTTP builds one per exchange. It owns no transport: connect it
 * to stdio (stdio.ts) or streamable HTTP (http.ts).
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
}: McpServerOptions): Server {
  const server = new Server(
    { name: 'instantstart', title: 'InstantStart (SageMaker HyperPod on EKS)', version },
    // The tool list never changes while a server runs: no listChanged notifications.
    {
      capabilities: { tools: {} },
      instructions: SERVER_INSTRUCTIONS,
      jsonSchemaValidator: (validator ??= new AjvJsonSchemaValidator()),
    },
  );
  tools.serve(server, new RestClient({ baseUrl, token, fetch }));
  return server;
}
