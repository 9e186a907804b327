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
      'Create a SageMaker HyperPod cluster on a new Amazon EKS cluster, as ONE operation with phases: network + EKS control plane (8–12 min on AWS), ' +
      'select the active cluster, dependencies (add-ons and charts), the HyperPod cluster with automatic node recovery, then storage (S3 bucket via the ' +
      'Mountpoint CSI driver, optionally FSx for Lustre). Each phase has its own status and can be retried alone.\n' +
      'Before calling (check before create): list_clusters (the name must be free), list_availability_zones, list_instance_types for the chosen zone, ' +
      'list_training_plans when capacityType is training-plan, then check_cluster_request with these same arguments.\n' +
      'Ask the user ONLY for: availability zone, instance type, capacity type (on-demand / spot / training plan) and instance count (plus a name and storage ' +
      'if they care). Never ask for CIDRs, subnets, route tables, security groups or roles: the control plane chooses them.\n' +
      'The answer is an operation that is NOT done: call wait_for_operation with its operationId, again and again, until status is "succeeded" or "failed"; ' +
      'never report the cluster as created before that. Repeating the same call (after a lost answer, say) returns the same operation, also once it succeeded: ' +
      'nothing is created twice; pass idempotencyKey to make a retry certain. The same name with different arguments is refused (the name is taken).',
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
