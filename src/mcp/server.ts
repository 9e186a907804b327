import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RestClient } from './rest-client.js';
import { registerAddInstanceGroupTool } from './tools/add-instance-group.js';
import { registerGetAutoscalingTool, registerSetAutoscalingTool } from './tools/autoscaling.js';
import { registerCancelOperationTool } from './tools/cancel-operation.js';
import { registerCheckClusterRequestTool } from './tools/check-cluster-request.js';
import { registerCheckQuotasTool } from './tools/check-quotas.js';
import { registerCreateClusterTool } from './tools/create-cluster.js';
import { registerDeleteClusterTool } from './tools/delete-cluster.js';
import { registerDeleteInstanceGroupTool } from './tools/delete-instance-group.js';
import { registerGetActiveClusterTool } from './tools/get-active-cluster.js';
import { registerGetClusterTool } from './tools/get-cluster.js';
import { registerGetOperationLogsTool } from './tools/get-operation-logs.js';
import { registerGetOperationTool } from './tools/get-operation.js';
import { registerGetServerInfoTool } from './tools/get-server-info.js';
import { registerListAvailabilityZonesTool } from './tools/list-availability-zones.js';
import { registerListClustersTool } from './tools/list-clusters.js';
import { registerGetNodeTool } from './tools/get-node.js';
import { registerListClusterEventsTool } from './tools/list-cluster-events.js';
import { registerListInstanceGroupsTool } from './tools/list-instance-groups.js';
import { registerListNodesTool } from './tools/list-nodes.js';
import { registerNodeActionTools, registerStartDeepHealthCheckTool } from './tools/node-actions.js';
import { registerListInstanceTypesTool } from './tools/list-instance-types.js';
import { registerListOperationsTool } from './tools/list-operations.js';
import { registerListTrainingPlansTool } from './tools/list-training-plans.js';
import { registerRetryOperationPhaseTool } from './tools/retry-operation-phase.js';
import { registerScaleInstanceGroupTool } from './tools/scale-instance-group.js';
import { registerSetActiveClusterTool } from './tools/set-active-cluster.js';
import { registerUpdateInstanceGroupTool } from './tools/update-instance-group.js';
import { registerWaitForOperationTool } from './tools/wait-for-operation.js';

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
 * Builds the MCP server with every tool of TOOL_NAMES, each a REST call to `baseUrl`. It owns no
 * transport: connect it to stdio (stdio.ts) or streamable HTTP (http.ts).
 *
 * @example
 * const server = createMcpServer({ baseUrl: 'http://127.0.0.1:3099' });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer({ baseUrl, token, version = '0.1.0', fetch }: McpServerOptions): McpServer {
  const api = new RestClient({ baseUrl, token, fetch });
  const server = new McpServer({ name: 'instantstart', title: 'InstantStart (SageMaker HyperPod on EKS)', version }, { instructions: SERVER_INSTRUCTIONS });
  for (const register of [
    registerGetServerInfoTool,
    registerListClustersTool,
    registerGetClusterTool,
    registerListAvailabilityZonesTool,
    registerListInstanceTypesTool,
    registerListTrainingPlansTool,
    registerCheckQuotasTool,
    registerCheckClusterRequestTool,
    registerCreateClusterTool,
    registerDeleteClusterTool,
    registerListInstanceGroupsTool,
    registerAddInstanceGroupTool,
    registerScaleInstanceGroupTool,
    registerUpdateInstanceGroupTool,
    registerDeleteInstanceGroupTool,
    registerGetAutoscalingTool,
    registerSetAutoscalingTool,
    registerListNodesTool,
    registerGetNodeTool,
    registerNodeActionTools,
    registerStartDeepHealthCheckTool,
    registerListClusterEventsTool,
    registerGetActiveClusterTool,
    registerSetActiveClusterTool,
    registerGetOperationTool,
    registerListOperationsTool,
    registerWaitForOperationTool,
    registerRetryOperationPhaseTool,
    registerCancelOperationTool,
    registerGetOperationLogsTool,
  ]) {
    register(server, api);
  }
  return server;
}
