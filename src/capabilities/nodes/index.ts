import { defineCapability } from '../capability.js';
import { registerNodeRoutes } from './routes.js';
import { NodeService } from './service.js';
import { registerGetNodeTool } from './tools/get-node.js';
import { registerListClusterEventsTool } from './tools/list-cluster-events.js';
import { registerListNodesTool } from './tools/list-nodes.js';
import { registerNodeActionTools, registerStartDeepHealthCheckTool } from './tools/node-actions.js';
import {
  deepHealthCheckWorkflow,
  deleteNodesWorkflow,
  rebootNodesWorkflow,
  replaceNodesWorkflow,
} from './workflows/node-action.js';

/** A cluster's nodes with one health verdict each, node actions (reboot, replace, delete, deep health checks: operations) and the event timeline. */
export const nodes = defineCapability<NodeService>({
  name: 'nodes',
  workflows: (deps) => [
    rebootNodesWorkflow(deps),
    replaceNodesWorkflow(deps),
    deleteNodesWorkflow(deps),
    deepHealthCheckWorkflow(deps),
  ],
  service: (deps) => new NodeService(deps),
  routes: registerNodeRoutes,
  tools: [
    registerListNodesTool,
    registerGetNodeTool,
    registerNodeActionTools,
    registerStartDeepHealthCheckTool,
    registerListClusterEventsTool,
  ],
});
