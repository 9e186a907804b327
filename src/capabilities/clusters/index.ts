import { defineCapability } from '../capability.js';
import type { ClusterPorts } from './ports.js';
import { registerClusterRoutes } from './routes.js';
import { ClusterService } from './service.js';
import { registerCreateClusterTool } from './tools/create-cluster.js';
import { registerDeleteClusterTool } from './tools/delete-cluster.js';
import { registerGetActiveClusterTool } from './tools/get-active-cluster.js';
import { registerGetClusterTool } from './tools/get-cluster.js';
import { registerGetClusterDeletePlanTool } from './tools/get-cluster-delete-plan.js';
import { registerListClustersTool } from './tools/list-clusters.js';
import { registerPlanClusterTool } from './tools/plan-cluster.js';
import { registerSetActiveClusterTool } from './tools/set-active-cluster.js';
import { createClusterWorkflow } from './workflows/create-cluster/index.js';
import { deleteClusterWorkflow } from './workflows/delete-cluster/index.js';

/** HyperPod clusters with their network, EKS cluster, dependencies and storage; the active cluster. */
export const clusters = defineCapability<ClusterService, ClusterPorts>({
  name: 'clusters',
  ports: {
    activeCluster: 'the active cluster, a setting of the server',
    keptStorages: 'the storages removed from a cluster keeping their data, which its delete keeps',
    mlflowLinks: "clusters' default MLflow servers, unlinked when the server or the cluster is deleted",
  },
  workflows: (deps) => [createClusterWorkflow(deps), deleteClusterWorkflow(deps)],
  service: (deps) => new ClusterService(deps),
  routes: registerClusterRoutes,
  tools: [
    registerListClustersTool,
    registerGetClusterTool,
    registerCreateClusterTool,
    registerDeleteClusterTool,
    registerGetClusterDeletePlanTool,
    registerPlanClusterTool,
    registerGetActiveClusterTool,
    registerSetActiveClusterTool,
  ],
});

export type { ActiveClusterPort, ClusterMlflowLinksPort, ClusterPorts, KeptStoragesOfClusterPort } from './ports.js';
