import { keyed } from '../../core/keyed.js';
import { jsonRpcErrors } from '../../core/error-styles.js';
import type { ServiceModule } from '../../core/service.js';
import type { SandboxState } from '../../core/store.js';
import { trainingPlanInventory, trainingPlanOperations, trainingPlanTick } from './training-plans/public.js';
import { hyperpodTick } from './controller.js';
import { mlflowInventory, mlflowOperations, mlflowTick } from './mlflow/public.js';
import { nodeFaultApplier } from './node-faults.js';
import { addTagsOp, deleteTagsOp, listTagsOp } from './ops-tags.js';
import { batchAddClusterNodesOp } from './ops-add.js';
import { deleteClusterOp, describeClusterOp, listClustersOp } from './ops-clusters.js';
import { createCluster } from './ops-create.js';
import { describeClusterEventOp, listClusterEventsOp, startClusterHealthCheckOp } from './ops-health-events.js';
import {
  batchDeleteClusterNodesOp,
  batchRebootClusterNodesOp,
  batchReplaceClusterNodesOp,
  describeClusterNodeOp,
  listClusterNodesOp,
} from './ops-nodes.js';
import { updateClusterOp } from './ops-update.js';
import { hyperpodRegions } from './state.js';

/** HyperPod resources by type for `GET /_sandbox/inventory`. */
function hyperpodInventory(state: SandboxState): Record<string, unknown[]> {
  const clusters: unknown[] = [];
  const nodes: unknown[] = [];
  for (const [region, section] of hyperpodRegions(state)) {
    for (const c of keyed.values(section.clusters)) {
      clusters.push({
        region,
        name: c.name,
        arn: c.arn,
        status: c.status,
        eksCluster: c.eksClusterName,
        groups: c.groups.map((g) => ({
          name: g.spec.InstanceGroupName,
          instanceType: g.spec.InstanceType,
          targetCount: g.targetCount,
        })),
        tags: c.tags,
        // Sandbox times of the create and of the first InService: the service's own time (bench/ reads them).
        createdAt: new Date(c.createdAt).toISOString(),
        ...(c.inServiceAt !== undefined ? { inServiceAt: new Date(c.inServiceAt).toISOString() } : {}),
      });
      for (const n of c.nodes) {
        nodes.push({
          region,
          cluster: c.name,
          group: n.groupName,
          nodeLogicalId: n.nodeLogicalId,
          instanceId: n.instanceId,
          status: n.status,
          healthStatus: n.healthStatus,
          availabilityZone: n.availabilityZone,
          privateIp: n.privateIp,
          networkInterfaceId: n.networkInterfaceId,
          ...(n.joinedAt !== undefined ? { runningAt: new Date(n.joinedAt).toISOString() } : {}),
        });
      }
    }
  }
  return { clusters, nodes };
}

/** SageMaker: HyperPod clusters (this module), training plans and managed MLflow tracking servers (their own folders). */
export const sagemaker: ServiceModule = {
  signingName: 'sagemaker',
  protocol: 'awsJson1_1',
  targetPrefix: 'SageMaker',
  errors: jsonRpcErrors('ValidationException'),
  operations: {
    ...trainingPlanOperations,
    ...mlflowOperations,
    CreateCluster: createCluster,
    DescribeCluster: describeClusterOp,
    ListClusters: listClustersOp,
    UpdateCluster: updateClusterOp,
    DeleteCluster: deleteClusterOp,
    ListClusterNodes: listClusterNodesOp,
    DescribeClusterNode: describeClusterNodeOp,
    BatchDeleteClusterNodes: batchDeleteClusterNodesOp,
    BatchRebootClusterNodes: batchRebootClusterNodesOp,
    BatchReplaceClusterNodes: batchReplaceClusterNodesOp,
    BatchAddClusterNodes: batchAddClusterNodesOp,
    StartClusterHealthCheck: startClusterHealthCheckOp,
    ListClusterEvents: listClusterEventsOp,
    DescribeClusterEvent: describeClusterEventOp,
    AddTags: addTagsOp,
    ListTags: listTagsOp,
    DeleteTags: deleteTagsOp,
  },
  init(runtime) {
    runtime.faults.nodeFaultApplier = nodeFaultApplier(runtime);
  },
  tick(ctx) {
    // Training plans first: a plan that turns Active or Expired is what HyperPod sees this tick.
    const plans = trainingPlanTick(ctx);
    const clusters = hyperpodTick(ctx);
    const mlflow = mlflowTick(ctx);
    return plans || clusters || mlflow;
  },
  inventory(state) {
    return { ...trainingPlanInventory(state), ...hyperpodInventory(state), ...mlflowInventory(state) };
  },
};
