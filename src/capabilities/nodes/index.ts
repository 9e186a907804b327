import { defineCapability } from '../capability.js';
import { registerNodeRoutes } from './routes.js';
import { registerGetNodeTool } from './tools/get-node.js';
import { registerListClusterEventsTool } from './tools/list-cluster-events.js';
import { registerListNodesTool } from './tools/list-nodes.js';
import { registerNodeActionTools, registerStartDeepHealthCheckTool } from './tools/node-actions.js';
import { NodeViews } from './views.js';

/** A cluster's nodes with one health verdict each, node actions (reboot, replace, delete, deep health checks) and the event timeline. */
export const nodes = defineCapability<NodeViews>({
  name: 'nodes',
  service: (deps) => new NodeViews(deps.cloud),
  routes: registerNodeRoutes,
  tools: [registerListNodesTool, registerGetNodeTool, registerNodeActionTools, registerStartDeepHealthCheckTool, registerListClusterEventsTool],
});
