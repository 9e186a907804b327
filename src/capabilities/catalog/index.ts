import { defineCapability } from '../capability.js';
import { registerCatalogRoutes } from './routes.js';
import { PreflightService } from './service.js';
import { registerCheckClusterRequestTool } from './tools/check-cluster-request.js';
import { registerCheckQuotasTool } from './tools/check-quotas.js';
import { registerListAvailabilityZonesTool } from './tools/list-availability-zones.js';
import { registerListInstanceTypesTool } from './tools/list-instance-types.js';
import { registerListKubernetesVersionsTool } from './tools/list-kubernetes-versions.js';
import { registerListTrainingPlansTool } from './tools/list-training-plans.js';

/** What AWS offers and allows (Regions, zones, instance types, training plans, Kubernetes versions, quotas) and the checks before a create. */
export const catalog = defineCapability<PreflightService>({
  name: 'catalog',
  service: (deps) => new PreflightService(deps.catalog, deps.defaultRegion),
  routes: registerCatalogRoutes,
  tools: [
    registerListAvailabilityZonesTool,
    registerListInstanceTypesTool,
    registerListTrainingPlansTool,
    registerListKubernetesVersionsTool,
    registerCheckQuotasTool,
    registerCheckClusterRequestTool,
  ],
});
