import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CREATE_CLUSTER_REST_FIELDS,
  CreateClusterToolInputSchema,
  createClusterRequest,
} from '../../../domain/schemas/create-cluster-tool-input.js';
import { OperationStartedSchema, startedAnswer } from '../../../mcp/operation-report.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { registerRestTool } from '../../../mcp/tool-kit.js';
import { CLUSTER_PATHS } from '../paths.js';

/** `create_cluster` → POST /api/v1/clusters (202 + operation). */
export function registerCreateClusterTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'create_cluster',
    title: 'Create a HyperPod cluster',
    description:
      'Create a SageMaker HyperPod cluster on a new EKS cluster: ONE operation whose phases (network + EKS control ' +
      'plane, 8–12 min on AWS; active cluster; add-ons; HyperPod with automatic node recovery; storage) each have ' +
      'a status and can be retried alone.\nCheck before create: list_clusters (the name must be free), ' +
      'list_availability_zones, list_instance_types for the zone, list_training_plans for a training plan, then ' +
      'check_cluster_request with these arguments.\nAsk the user ONLY for: availability zone, instance type, ' +
      'capacity type (on-demand / spot / training plan) and instance count (a name and storage if they care); ' +
      'never for CIDRs, subnets, route tables, security groups or roles.\nThe answer is an operation that is NOT ' +
      'done: call wait_for_operation with its operationId until status is "succeeded" or "failed"; only then ' +
      'report the cluster created. A repeat with the same arguments returns the same operation (nothing is created ' +
      'twice); the same name with other arguments is refused.',
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
