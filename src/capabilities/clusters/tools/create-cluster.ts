import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CREATE_CLUSTER_REST_FIELDS,
  CreateClusterToolInputSchema,
  createClusterRequest,
} from '../../../domain/schemas/create-cluster-tool-input.js';
import { OperationStartedSchema, startedAnswer, POLL_UNTIL_DONE } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { CLUSTER_PATHS } from '../paths.js';

/** `create_cluster` → POST /api/v1/clusters (202 + operation). */
export function registerCreateClusterTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'create_cluster',
    title: 'Create a HyperPod cluster',
    description: `Create a HyperPod cluster on a new EKS cluster: ONE operation (EKS alone takes 8–12 min on AWS).\nCheck before create: list_clusters, list_availability_zones, list_instance_types for the zone, then check_cluster_request.\nAsk the user ONLY for: availability zone, instance type, capacity type (on-demand, spot, training plan) and count; never for networks or roles. ${POLL_UNTIL_DONE}`,
    input: CreateClusterToolInputSchema,
    restFields: CREATE_CLUSTER_REST_FIELDS,
    output: OperationStartedSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run(args, { api, signal }) {
      const accepted = await api.post(CLUSTER_PATHS.list, { body: createClusterRequest(args), signal });
      return startedAnswer(accepted, `create_cluster ${args.cluster}`);
    },
  });
}
