import { defineCapability } from '../capability.js';
import { registerInstanceGroupRoutes } from './routes.js';
import { InstanceGroupService } from './service.js';
import { registerAddInstanceGroupTool } from './tools/add-instance-group.js';
import { registerDeleteInstanceGroupTool } from './tools/delete-instance-group.js';
import { registerListInstanceGroupsTool } from './tools/list-instance-groups.js';
import { registerScaleInstanceGroupTool } from './tools/scale-instance-group.js';
import { registerUpdateInstanceGroupTool } from './tools/update-instance-group.js';
import { addInstanceGroupWorkflow } from './workflows/add-instance-group/index.js';
import { deleteInstanceGroupWorkflow, scaleInstanceGroupWorkflow } from './workflows/changes/index.js';
import { updateInstanceGroupWorkflow } from './workflows/changes/update.js';

/** Instance groups of a cluster: add (every capacity path), scale, change settings, delete. */
export const instanceGroups = defineCapability<InstanceGroupService>({
  name: 'instance-groups',
  workflows: (deps) => [
    addInstanceGroupWorkflow(deps),
    scaleInstanceGroupWorkflow(deps),
    updateInstanceGroupWorkflow(deps),
    deleteInstanceGroupWorkflow(deps),
  ],
  service: (deps) => new InstanceGroupService(deps),
  routes: registerInstanceGroupRoutes,
  tools: [
    registerListInstanceGroupsTool,
    registerAddInstanceGroupTool,
    registerScaleInstanceGroupTool,
    registerUpdateInstanceGroupTool,
    registerDeleteInstanceGroupTool,
  ],
  // A retried scale sends its count again: it must still fit the quotas and the plan.
  retryChecks: {
    'scale-instance-group': (service, operation) => service.checkRetry(operation),
    'update-instance-group': (service, operation) => service.checkRetry(operation),
  },
});
