import { defineCapability } from '../capability.js';
import { registerAutoscalingRoutes } from './routes.js';
import { AutoscalingService } from './service.js';
import { registerGetAutoscalingTool, registerSetAutoscalingTool } from './tools/autoscaling.js';
import { setAutoscalingWorkflow } from './workflows/set-autoscaling.js';

/** HyperPod-managed node autoscaling (Karpenter) for chosen instance groups. */
export const autoscaling = defineCapability<AutoscalingService>({
  name: 'autoscaling',
  workflows: (deps) => [setAutoscalingWorkflow(deps)],
  service: (deps) => new AutoscalingService(deps),
  routes: registerAutoscalingRoutes,
  tools: [registerGetAutoscalingTool, registerSetAutoscalingTool],
});
