import { defineCapability } from '../capability.js';
import { registerClusterRoutes } from './routes.js';
import { ClusterService } from './service.js';
import { registerCreateClusterTool } from './tools/create-cluster.js';
import { registerDeleteClusterTool } from './tools/delete-cluster.js';
import { registerGetActiveClusterTool } from './tools/get-active-cluster.js';
import { registerGetClusterTool } from './tools/get-cluster.js';
import { registerGetClusterDeletePlanTool } from './tools/get-cluster-delete-plan.js';
import { registerListClustersTool } from './tools/list-clusters.js';
import { registerSetActiveClusterTool } from './tools/set-active-cluster.js';
import { createClusterWorkflow } from './workflows/create-cluster/index.js';
import { deleteClusterWorkflow } from './workflows/delete-cluster/index.js';

/** HyperPod clusters with their network, EKS cluster, dependencies and storage; the active cluster. */
export const clusters = defineCapability<ClusterService>({
  name: 'clusters',
  workflows: (deps) => [createClusterWorkflow(deps), deleteClusterWorkflow(deps)],
  service: (deps) => new ClusterService(deps),
  routes: registerClusterRoutes,
  tools: [
    registerListClustersTool,
    registerGetClusterTool,
    registerCreateClusterTool,
    registerDeleteClusterTool,
    registerGetClusterDeletePlanTool,
    registerGetActiveClusterTool,
    registerSetActiveClusterTool,
  ],
});
