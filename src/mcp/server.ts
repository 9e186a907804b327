import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CAPABILITY_TOOLS } from '../capabilities/index.js';
import { RestClient } from './rest-client.js';

export interface McpServerOptions {
  /** Root URL of the InstantStart REST API, e.g. `http://127.0.0.1:3099`. */
  baseUrl: string;
  /** The caller's API token, forwarded as `Authorization: Bearer …` on every REST call. */
  token?: string;
  /** Server version reported to MCP clients. */
  version?: string;
  /** For tests: a fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

/** Sent to clients at initialize; many show it to the model as standing instructions. */
export const SERVER_INSTRUCTIONS = `InstantStart manages SageMaker HyperPod clusters on Amazon EKS through its REST API; these tools are thin REST calls and the server validates every input.
Rules:
1. Poll to a terminal state. Every mutating tool returns an operation that is NOT done. Call wait_for_operation with its operationId until status is "succeeded", "failed" or "cancelled". Never report "submitted" as done.
2. Ask only decision-relevant questions: availability zone, instance type, capacity type (on-demand, spot, training plan) and instance count. Never ask for CIDRs, subnets, route tables, security groups or IAM roles.
3. Check before create: list_clusters, list_availability_zones, list_instance_types (for the chosen zone), list_training_plans when a plan is wanted, then check_cluster_request; offer only what those list.
A failed phase is retried alone with retry_operation_phase after reading get_operation_logs. delete_cluster needs the user's explicit confirmation.`;

/**
 * Builds the MCP server with every capability's tools (the tools/ folder of each capability), each a REST call to `baseUrl`. It owns no
 * transport: connect it to stdio (stdio.ts) or streamable HTTP (http.ts).
 *
 * @example
 * const server = createMcpServer({ baseUrl: 'http://127.0.0.1:3099' });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer({ baseUrl, token, version = '0.1.0', fetch }: McpServerOptions): McpServer {
  const api = new RestClient({ baseUrl, token, fetch });
  const server = new McpServer({ name: 'instantstart', title: 'InstantStart (SageMaker HyperPod on EKS)', version }, { instructions: SERVER_INSTRUCTIONS });
  for (const register of CAPABILITY_TOOLS) register(server, api);
  return server;
}
