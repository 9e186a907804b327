import { defineCapability } from '../capability.js';
import { registerFeaturesRoutes } from './routes.js';
import { FeaturesService } from './service.js';
import { registerGetFeaturesTool, registerPlanFeaturesTool, registerSetFeaturesTool } from './tools/features.js';
import { setFeaturesWorkflow } from './workflows/set-features.js';

/** Managed features of a cluster (docs/FEATURES.md): read from the cluster, planned, and set under the diff contract. */
export const features = defineCapability<FeaturesService>({
  name: 'features',
  workflows: (deps) => [setFeaturesWorkflow(deps)],
  service: (deps) => new FeaturesService(deps),
  routes: registerFeaturesRoutes,
  tools: [registerGetFeaturesTool, registerPlanFeaturesTool, registerSetFeaturesTool],
});
